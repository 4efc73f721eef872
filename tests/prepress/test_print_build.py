"""The print step inside the real deck build, and ``check_deck`` on a real deck file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from deckgen.deck.build import build_deck
from deckgen.deck.starter import StarterCard, starter_toml
from deckgen.prepress.presets import card_from_preset, load_preset
from deckgen.prepress.printout import PrintOptions
from deckgen.prepress.printstep import check_deck, print_step
from deckgen.progress import CollectingReporter
from starterkit import finish_samples


def _deck(folder: Path, *, pictures: list[str] | None = None, preset: str | None = None) -> Path:
    card = card_from_preset(preset) if preset else StarterCard()
    # a vendor build refuses the starter's sample content: replaced, as a customer does
    text = finish_samples(starter_toml("Print Test", "double-3", 3, card), folder)
    path = folder / "deck.toml"
    path.write_text(text)
    if pictures is not None:
        lines = text.splitlines()
        out = []
        skipping = False
        for line in lines:
            if line.startswith("style ="):
                line = 'style = "pictures"'
            if line.startswith("pictures = ["):
                skipping = True
                out.append("pictures = [" + ", ".join(f'"{p}"' for p in pictures) + "]")
                if line.rstrip().endswith("]"):
                    skipping = False
                continue
            if skipping:
                if line.strip().startswith("]"):
                    skipping = False
                continue
            out.append(line)
        path.write_text("\n".join(out) + "\n")
    return path


def test_build_with_sheets_lists_everything(tmp_path: Path) -> None:
    deck = _deck(tmp_path)
    options = PrintOptions(preset=load_preset("home-a4"), png=True)
    result = build_deck(deck, tmp_path / "out", preview=False, extra_steps=[print_step(options)])
    out = tmp_path / "out"
    manifest = json.loads((out / "manifest.json").read_text())
    paths = {f["path"] for f in manifest["files"]}
    assert {"cards.pdf", "back.pdf", "sheets.pdf", "calibration.pdf", "preflight.json"} <= paths
    assert "png/001-cover.png" in paths
    assert "png/back.png" in paths
    assert "png/011-0-0.png" not in paths
    assert "png/002-0-0.png" in paths
    assert "png/012-imprint.png" in paths
    for entry in manifest["files"]:
        assert (out / entry["path"]).is_file()
    assert not list(out.rglob(".*"))  # nothing half-written left behind
    assert result.files


def test_build_cmyk_refreshes_manifest_hashes(tmp_path: Path) -> None:
    import hashlib

    import pikepdf

    deck = _deck(tmp_path, preset="drivethrucards")
    build_deck(deck, tmp_path / "out", preview=False, extra_steps=[print_step()])
    out = tmp_path / "out"
    manifest = json.loads((out / "manifest.json").read_text())
    entries = {f["path"]: f for f in manifest["files"]}
    assert "deck-back-front.pdf" in entries
    for name in ("cards.pdf", "back.pdf"):
        data = (out / name).read_bytes()
        assert entries[name]["sha256"] == hashlib.sha256(data).hexdigest()
        with pikepdf.open(out / name) as pdf:
            assert "/OutputIntents" in pdf.Root


def test_check_finds_low_dpi_picture_on_real_deck(tmp_path: Path) -> None:
    Image.new("RGB", (60, 60), (200, 40, 40)).save(tmp_path / "tiny.png")
    Image.new("RGB", (900, 900), (40, 200, 40)).save(tmp_path / "big.png")
    deck = _deck(tmp_path, pictures=["big.png", "tiny.png", "big.png"])
    report = check_deck(deck, reporter=CollectingReporter())
    low = report.by_kind("low-dpi")
    assert len(low) == 1, report.to_json()  # one finding per picture file, not per card
    # value 2 is on tiles 0-2, 1-2, 2-2, 2-3
    assert low[0].card == "tile 0-2, tile 1-2, tile 2-2, tile 2-3"
    assert low[0].file == "tiny.png"
    assert low[0].value is not None
    assert low[0].value < 100
    assert "60 x 60 px" in low[0].message
    assert not list(tmp_path.glob("output*"))


@pytest.mark.parametrize("preset", ["meinspiel", "thegamecrafter"])
def test_presets_from_deck_file(tmp_path: Path, preset: str) -> None:
    deck = _deck(tmp_path, preset=preset)
    build_deck(deck, tmp_path / "out", preview=False, extra_steps=[print_step()])
    if preset == "meinspiel":  # one PDF of fronts, one of backs, 37 pages each
        for name in ("fronts.pdf", "backs.pdf"):
            assert len(PdfReader(tmp_path / "out" / name).pages) == 37, name
        return
    assert len(list((tmp_path / "out" / "png").iterdir())) == 13


def test_options_from_deck_file_preset_and_back_offset() -> None:
    from deckgen.deck.spec import deck_from_data
    from deckgen.prepress.printstep import options_for

    data = {
        "name": "offset",
        "set": "double-3",
        "preset": "home-a4",
        "back_offset_mm": [1.0, -2.0],
        "card": {"safe_mm": 5.0},
    }
    deck = deck_from_data(data, path=Path("deck.toml"))
    options = options_for(None, deck)
    assert options.preset is not None
    assert options.preset.name == "home-a4"
    assert options.back_offset_mm == (1.0, -2.0)
    assert options.safe_mm == 5.0
    given = PrintOptions(preset=load_preset("meinspiel"), back_offset_mm=(0.5, 0.5))
    options = options_for(given, deck)
    assert options.preset is not None
    assert options.preset.name == "meinspiel"
    assert options.back_offset_mm == (0.5, 0.5)
