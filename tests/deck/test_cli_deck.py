"""deckgen deck new/build/preview from the command line, and every kind of bad input."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any, cast

import pytest
from deck_testkit import solid_pictures, write_deck
from PIL import Image
from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.resources import fonts_dir

BIN = Path(sys.executable).parent


def _no_output(out: Path) -> bool:
    return not out.exists() or not [p for p in out.rglob("*") if p.is_file()]


def test_new_then_build_with_json(runner: CliRunner, tmp_path: Path) -> None:
    deck_file = tmp_path / "family.toml"
    result = runner.invoke(app, ["deck", "new", str(deck_file), "--set", "double-7", "--quiet"])
    assert result.exit_code == 0, result.output
    data = tomllib.loads(deck_file.read_text())
    assert data["set"] == "double-7"
    assert len(data["faces"]["pictures"]) == 7
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["deck", "build", str(deck_file), "--out", str(out), "--json", "-q"]
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["manifest"]["deck"] == "Family"
    assert {Path(p).name for p in payload["written"]} == {
        "cards.pdf",
        "back.pdf",
        "preview.png",
        "manifest.json",
    }
    # the same file again is refused without --force
    again = runner.invoke(app, ["deck", "new", str(deck_file)])
    assert again.exit_code == 2
    assert "already exists" in again.output


def test_new_with_vendor_preset(runner: CliRunner, tmp_path: Path) -> None:
    deck_file = tmp_path / "m.toml"
    result = runner.invoke(app, ["deck", "new", str(deck_file), "--preset", "meinspiel", "-q"])
    assert result.exit_code == 0, result.output
    data = tomllib.loads(deck_file.read_text())
    assert data["preset"] == "meinspiel"
    assert data["card"]["size"] == "meinspiel"
    bad = runner.invoke(app, ["deck", "new", str(tmp_path / "x.toml"), "--preset", "meinspeil"])
    assert bad.exit_code == 2
    assert "meinspiel" in bad.output


def test_starter_builds_for_pictures_and_double_12(runner: CliRunner, tmp_path: Path) -> None:
    deck_file = tmp_path / "d12.toml"
    assert (
        runner.invoke(app, ["deck", "new", str(deck_file), "--set", "double-12", "-q"]).exit_code
        == 0
    )
    text = deck_file.read_text().replace('style = "pips"', 'style = "pictures+pips"')
    deck_file.write_text(text)
    result = runner.invoke(
        app, ["deck", "preview", str(deck_file), "--out", str(tmp_path / "p.png"), "-q"]
    )
    assert result.exit_code == 0, result.output
    assert Image.open(tmp_path / "p.png").width > 500


def test_console_script_bad_input_exit_2(tmp_path: Path) -> None:
    deck_file = write_deck(tmp_path, {"name": "X", "set": "double-6", "colour": "red"})
    out = tmp_path / "out"
    proc = subprocess.run(
        [str(BIN / "deckgen"), "deck", "build", str(deck_file), "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: ")
    assert "Traceback" not in proc.stderr
    assert "colour: unknown key" in proc.stderr
    assert str(deck_file) in proc.stderr
    assert _no_output(out)


def _pictures_deck(tmp_path: Path, **faces: object) -> dict[str, object]:
    names = solid_pictures(tmp_path, 6)
    return {
        "name": "Bad",
        "set": "double-6",
        "faces": {"style": "pictures", "pictures": names, **faces},
    }


def _bomb(path: Path) -> None:
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", 50_000, 50_000, 8, 2, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\0" * 99))
        + chunk(b"IEND", b"")
    )


def _truncate(path: Path) -> None:
    import random

    rng = random.Random(3)
    Image.frombytes("RGB", (200, 200), bytes(rng.getrandbits(8) for _ in range(120000))).save(
        path, "JPEG"
    )
    path.write_bytes(path.read_bytes()[:3000])


BAD_CASES = {
    "missing picture": ("v03.png", "unlink", "does not exist"),
    "truncated jpeg": ("v02.png", "truncate", "damaged or cut short"),
    "text named png": ("v01.png", "text", "not a picture"),
    "decompression bomb": ("v04.png", "bomb", "claims 2,500,000,000 pixels"),
}


@pytest.mark.parametrize("case", sorted(BAD_CASES))
def test_bad_pictures(runner: CliRunner, tmp_path: Path, case: str) -> None:
    data = _pictures_deck(tmp_path)
    name, action, message = BAD_CASES[case]
    target = tmp_path / name
    if action == "unlink":
        target.unlink()
    elif action == "truncate":
        _truncate(target)
    elif action == "text":
        target.write_text("just some text\n")
    else:
        _bomb(target)
    deck_file = write_deck(tmp_path, data)
    out = tmp_path / "out"
    result = runner.invoke(app, ["deck", "build", str(deck_file), "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ")
    assert message in result.stderr
    assert "the picture for " in result.stderr  # names the slot as the customer sees it
    assert "key faces.pictures)" in result.stderr  # and the key (not its internal index)
    assert _no_output(out)


SPEC_CASES: dict[str, tuple[dict[str, Any], str]] = {
    "unknown key": ({"cover": {"titel": "x"}}, "cover.titel: unknown key (did you mean 'title'?)"),
    "wrong type": (
        {"card": {"bleed_mm": "three"}},
        "card.bleed_mm: use a valid number, got 'three'",
    ),
    "set out of range": ({"set": "double-19"}, "'double-19' is not a domino set"),
    "bad colour": ({"back": {"background": "#12345"}}, "is not a colour"),
    "bad size": ({"card": {"size": "huge"}}, "is not a card size"),
    "too few pictures": (
        {"faces": {"style": "pictures", "pictures": ["a.png"]}},
        "double-6 needs 6 pictures",
    ),
    "bad orientation": ({"card": {"orientation": "sideways"}}, "card.orientation"),
}


@pytest.mark.parametrize("case", sorted(SPEC_CASES))
def test_bad_deck_files(runner: CliRunner, tmp_path: Path, case: str) -> None:
    extra, message = SPEC_CASES[case]
    deck_file = write_deck(tmp_path, {"name": "Bad", "set": "double-6", **extra})
    out = tmp_path / "out"
    result = runner.invoke(app, ["deck", "build", str(deck_file), "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert str(deck_file) in result.output
    assert _no_output(out)


def test_not_a_font_and_a_real_font(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "fake.ttf").write_text("this is not a font")
    deck_file = write_deck(
        tmp_path, {"name": "F", "set": "double-6", "fonts": {"regular": "fake.ttf"}}
    )
    result = runner.invoke(app, ["deck", "build", str(deck_file), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert "not a font" in result.output
    assert "fonts.regular" in result.output
    assert _no_output(tmp_path / "o")
    (tmp_path / "cff.otf").write_bytes(b"OTTO" + b"\0" * 200)
    deck_file = write_deck(
        tmp_path, {"name": "F", "set": "double-6", "fonts": {"regular": "cff.otf"}}
    )
    result = runner.invoke(app, ["deck", "build", str(deck_file), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert "could not be read" in result.output
    shutil.copy(fonts_dir() / "DejaVuSans-Bold.ttf", tmp_path / "mine.ttf")
    deck_file = write_deck(
        tmp_path, {"name": "F", "set": "double-6", "fonts": {"regular": "mine.ttf"}}
    )
    result = runner.invoke(
        app, ["deck", "build", str(deck_file), "--out", str(tmp_path / "o"), "-q"]
    )
    assert result.exit_code == 0, result.output


def test_picture_outside_the_deck_folder(runner: CliRunner, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    names = solid_pictures(outside, 6)
    folder = tmp_path / "customer"
    data = {
        "name": "Out",
        "set": "double-6",
        "faces": {"style": "pictures", "pictures": [f"../elsewhere/{n}" for n in names]},
    }
    deck_file = write_deck(folder, data)
    out = tmp_path / "out"
    result = runner.invoke(app, ["deck", "build", str(deck_file), "--out", str(out)])
    assert result.exit_code == 2
    assert "leads outside the folder" in result.output
    assert "--allow-outside" in result.output
    assert _no_output(out)
    result = runner.invoke(
        app, ["deck", "build", str(deck_file), "--out", str(out), "--allow-outside", "-q"]
    )
    assert result.exit_code == 0, result.output
    assert (out / "cards.pdf").is_file()


def test_cff_opentype_font_is_converted(runner: CliRunner, tmp_path: Path) -> None:
    import pypdf
    from deck_testkit import make_cff_otf

    make_cff_otf(tmp_path / "boxes.otf")
    assert (tmp_path / "boxes.otf").read_bytes()[:4] == b"OTTO"
    deck_file = write_deck(
        tmp_path, {"name": "Boxes", "set": "double-6", "fonts": {"regular": "boxes.otf"}}
    )
    out = tmp_path / "o"
    result = runner.invoke(app, ["deck", "build", str(deck_file), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(str(out / "cards.pdf"))
    fonts = set()
    for page in (reader.pages[0], reader.pages[-1]):
        resources = cast(pypdf.generic.DictionaryObject, page["/Resources"])
        for font in cast(pypdf.generic.DictionaryObject, resources["/Font"]).values():
            desc = font.get_object().get("/FontDescriptor")
            if desc is not None and "/FontFile2" in desc.get_object():
                fonts.add(str(font.get_object()["/BaseFont"]))
    assert any("Test-Boxes" in name for name in fonts)  # converted and embedded as TrueType
