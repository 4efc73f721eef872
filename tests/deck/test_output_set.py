"""The output folder can be trusted after any deckgen command.

Shows: a build replaces the whole set of an earlier build into the same folder, whatever
its preset (no ``cards/``, ``fronts.pdf``, ink map or preflight left over; a file of the user's
own is kept); ``manifest.json`` records the preset, colour and options actually used
(the ``--preset`` given, not the deck file's); and every file the manifest lists still
matches its checksum after ``deck preview`` and ``deck check`` write into that folder.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckgen.cli import app
from starterkit import finished_starter

runner = CliRunner()


def _invoke(*args: str) -> Any:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result


def _manifest(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "manifest.json").read_text("utf-8"))
    return data


def _on_disk(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def _mismatches(folder: Path) -> list[str]:
    bad = []
    for entry in _manifest(folder)["files"]:
        path = folder / entry["path"]
        if not path.is_file():
            bad.append(f"{entry['path']}: missing")
        elif hashlib.sha256(path.read_bytes()).hexdigest() != entry["sha256"]:
            bad.append(f"{entry['path']}: checksum differs")
    return bad


def test_a_rebuild_replaces_the_whole_set_whatever_the_preset(tmp_path: Path) -> None:
    deck = finished_starter(tmp_path, "double-3")
    out = tmp_path / "out"
    args = ["deck", "build", str(deck), "--out", str(out), "--preset", "meinspiel", "-q"]
    _invoke(*args, "--card-pdfs")
    first = _on_disk(out)
    assert {"ink-map.png", "preflight.json", "fronts.pdf", "backs.pdf"} <= first
    assert any(name.startswith("cards/") for name in first)
    (out / "notes.txt").write_text("my own notes", encoding="utf-8")
    _invoke("deck", "build", str(deck), "--out", str(out), "-q")
    listed = {entry["path"] for entry in _manifest(out)["files"]}
    assert _on_disk(out) == listed | {"manifest.json", "notes.txt"}, (
        "files of the earlier build were left: "
        + ", ".join(sorted(_on_disk(out) - listed - {"manifest.json", "notes.txt"}))
    )
    assert _manifest(out)["preset"] is None


def test_the_manifest_records_the_preset_and_options_built(tmp_path: Path) -> None:
    deck = finished_starter(tmp_path, "double-3", preset="meinspiel")  # names meinspiel
    out = tmp_path / "out"
    args = ["deck", "build", str(deck), "--out", str(out), "--no-preview", "-q"]
    _invoke(*args, "--preset", "home-a4", "--marks", "cut")
    manifest = _manifest(out)
    assert manifest["preset"] == "home-a4", "the preset built, not the deck file's"
    assert manifest["build"]["colour"] == "rgb"
    assert manifest["build"]["options"]["marks"] == "cut"
    assert manifest["build"]["options"]["preview"] is False


def test_every_listed_file_matches_after_preview_and_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    deck = finished_starter(tmp_path, "double-3")
    _invoke("deck", "build", str(deck), "--preset", "meinspiel", "-q")  # lists ink-map.png
    folder = tmp_path / "output" / "deck"
    assert "ink-map.png" in {e["path"] for e in _manifest(folder)["files"]}
    assert not _mismatches(folder)
    deck.write_text(
        deck.read_text("utf-8").replace('background = "#efe7d8"', 'background = "#d8e7ef"'),
        encoding="utf-8",
    )
    _invoke("deck", "preview", str(deck), "-q")
    assert not _mismatches(folder), "deck preview broke the manifest"
    runner.invoke(app, ["deck", "check", str(deck), "--preset", "meinspiel", "-q"])
    assert not _mismatches(folder), "deck check broke the manifest"


def test_a_rebuild_in_place_also_removes_the_earlier_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--out .`` is published file by file (the folder cannot be swapped): the files of
    the earlier build that the new one does not write are removed all the same."""
    deck = finished_starter(tmp_path, "double-3")
    out = tmp_path / "here"
    out.mkdir()
    monkeypatch.chdir(out)
    _invoke("deck", "build", str(deck), "--out", ".", "--sheets", "A4", "--no-preview", "-q")
    assert (out / "sheets.pdf").is_file()
    _invoke("deck", "build", str(deck), "--out", ".", "--no-preview", "-q")
    assert not (out / "sheets.pdf").exists()
    assert not (out / "calibration.pdf").exists()
    assert not _mismatches(out)
