"""The files the studio makes: the deck file round-trips, and the print zip is `deck build`'s."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import tomllib
from pathlib import Path

import pytest
from conftest import make_client
from pypdf import PdfReader
from studio_testkit import photo, unzip, zip_names
from typer.testing import CliRunner

from deckgen.deck.starter import StarterCard, starter_toml
from deckgen.resources import images_dir
from deckgen.studio.project import StudioProject
from deckgen.studio.tomltext import deck_toml


@pytest.fixture
def demo_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "demo"
    shutil.copytree(images_dir(), folder)
    return folder / "demo-deck.toml"


def test_opening_a_deck_file_changes_nothing_and_saves_it_byte_for_byte(demo_copy: Path) -> None:
    original = demo_copy.read_bytes()
    project = StudioProject.open(demo_copy)
    assert demo_copy.read_bytes() == original
    with make_client(project) as client:
        assert client.get("/").status_code == 200
        client.get("/api/card/imprint.png")
        deck = client.get("/download/deck.zip").content
    with __import__("zipfile").ZipFile(io.BytesIO(deck)) as zf:
        assert zf.read("demo-deck.toml") == original
        assert sorted(zf.namelist()) == sorted(
            ["demo-deck.toml", "cover.jpg", "logo.png"]
            + [f"value-{v:02d}.png" for v in range(1, 8)]
        )
    project.save()
    assert demo_copy.read_bytes() == original


def test_a_change_and_its_undo_give_the_same_deck(demo_copy: Path) -> None:
    before = tomllib.loads(demo_copy.read_text())
    project = StudioProject.open(demo_copy)
    with make_client(project) as client:
        client.post("/api/field", json={"key": "cover.subtitle", "value": "changed"})
        assert tomllib.loads(demo_copy.read_text())["cover"]["subtitle"] == "changed"
        client.post(
            "/api/field", json={"key": "cover.subtitle", "value": before["cover"]["subtitle"]}
        )
    assert tomllib.loads(demo_copy.read_text()) == before


@pytest.mark.parametrize("source", ["demo", "starter"])
def test_written_toml_parses_to_the_same_data(source: str) -> None:
    if source == "demo":
        text = (images_dir() / "demo-deck.toml").read_text()
    else:
        text = starter_toml('Q "x" \\ y', "double-12", 12, StarterCard(preset="meinspiel"))
    data = tomllib.loads(text)
    assert tomllib.loads(deck_toml(data)) == data


def test_odd_strings_survive() -> None:
    data = {
        "name": "tab\there \u0001 \u00e9 \U0001f600 \"q\" 'a' \\",
        "imprint": {"text": "a\n\nb\r\n"},
    }
    assert tomllib.loads(deck_toml(data)) == data


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.slow
def test_the_print_zip_holds_what_deck_build_writes_plus_the_preflight(
    tmp_path: Path,
    runner: CliRunner,
) -> None:
    from deckgen.cli import app

    project = StudioProject.open(tmp_path / "family")
    with make_client(project) as client:
        # every sample picture replaced (a vendor build refuses sample content)
        for slot in [*(f"value-{v}" for v in range(1, 8)), "cover", "logo"]:
            client.put(f"/api/picture/{slot}", content=photo(), headers={"x-file-name": "p.jpg"})
        client.post("/api/field", json={"key": "cover.title", "value": "Zip Test"})
        r = client.get("/download/print.zip")
    assert r.status_code == 200
    assert r.headers["content-disposition"] == 'attachment; filename="our-domino-print.zip"'
    names = zip_names(r.content)
    assert {"cards.pdf", "back.pdf", "preview.png", "manifest.json", "preflight.json"} <= set(names)
    per_card = ["fronts.pdf", "backs.pdf"]  # MeinSpiel: one PDF of fronts, one of backs
    assert set(per_card) <= set(names)
    unzip(r.content, tmp_path / "zip")
    cards = PdfReader(tmp_path / "zip" / "cards.pdf")
    assert len(cards.pages) == 38
    trim = cards.pages[0].trimbox
    assert float(trim.width) == pytest.approx(59 / 25.4 * 72, abs=0.01)
    assert float(cards.pages[0].mediabox.width) == pytest.approx(65 / 25.4 * 72, abs=0.01)
    for name in per_card:  # 36 cards + the cover (whose back is the imprint)
        assert len(PdfReader(tmp_path / "zip" / name).pages) == 37
    preflight = json.loads((tmp_path / "zip" / "preflight.json").read_text())
    assert "findings" in preflight
    # the same deck file built on the command line gives the same files
    out = tmp_path / "cli"
    result = runner.invoke(
        app, ["deck", "build", str(project.deck_path), "--out", str(out), "--quiet"]
    )
    assert result.exit_code == 0, result.output
    for name in ["cards.pdf", "back.pdf", *per_card]:
        assert _sha(out / name) == _sha(tmp_path / "zip" / name), name


def test_a_deck_that_cannot_be_printed_says_why(tmp_path: Path) -> None:
    project = StudioProject.open(tmp_path / "family")
    with make_client(project) as client:
        client.post("/api/field", json={"key": "profile", "value": ""})
        client.post("/api/field", json={"key": "card.size", "value": "mini"})
        r = client.post("/api/field", json={"key": "imprint.text", "value": "word " * 1100})
        assert r.status_code == 200  # too long text is cut with a warning in previews
        rules = client.post("/api/field", json={"key": "imprint.rules", "value": "card-domino"})
    assert rules.status_code == 400
    assert "imprint" in next(iter(rules.json()["errors"]))
