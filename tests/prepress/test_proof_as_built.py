"""The proof states the card as built: a home preset (no required card size) keeps the
deck's own size, safe zone and corners, and the proof says those, not the preset's
nominal ones, and does not tick the size as checked. German numbers take a comma."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.deck.starter import StarterCard, starter_toml
from deckgen.prepress.presets import load_preset, preset_summary


def _proof_text(folder: Path) -> str:
    doc = pdfium.PdfDocument(str(folder / "proof.pdf"))
    try:
        return str(doc[0].get_textpage().get_text_range())
    finally:
        doc.close()


def _build(tmp_path: Path, preset: str, *, language: str = "en") -> str:
    """A double-2 deck at MeinSpiel's 59 x 91 mm, 4.5 mm safe zone, 2.5 mm corners."""
    text = starter_toml("Few", "double-2", 2, StarterCard(), samples=False)
    lines = []
    for line in text.splitlines():
        if line.startswith("safe_mm ="):
            line = "safe_mm = 4.5"
        elif line.startswith("corner_radius_mm ="):
            line = "corner_radius_mm = 2.5"
        elif line.startswith("language ="):
            line = f'language = "{language}"'
        lines.append(line)
    deck = tmp_path / "deck.toml"
    deck.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    args = ["deck", "build", str(deck), "--preset", preset, "--out", str(out), "--no-preview"]
    result = CliRunner().invoke(app, [*args, "-q"])
    assert result.exit_code == 0, result.output
    return _proof_text(out)


def test_home_a4_proof_states_the_deck_size_built(tmp_path: Path) -> None:
    text = _build(tmp_path, "home-a4")
    assert "59 x 91 mm, 3 mm bleed, 4.5 mm safe margin, 2.5 mm corners" in text, text
    assert "63 x 88" not in text
    assert "the deck's own size; home-a4 does not require one" in text
    assert "card size: not checked" in text
    assert "card size: passed" not in text


def test_home_letter_german_proof_uses_decimal_commas(tmp_path: Path) -> None:
    text = _build(tmp_path, "home-letter", language="de")
    assert "59 x 91 mm, 3 mm Beschnitt, 4,5 mm Sicherheitsabstand, 2,5 mm Eckenradius" in text
    assert "63,5" not in text
    assert "63.5" not in text
    assert "3.175" not in text
    assert "Kartengröße: nicht geprüft" in text


def test_meinspiel_proof_states_its_required_card(ms_build: Path) -> None:
    """A preset with a required size re-makes the deck to it: the proof says that size."""
    text = _proof_text(ms_build)
    assert "59 x 91 mm, 3 mm bleed, 4 mm safe margin, 5 mm corners" in text, text
    assert "does not require" not in text
    assert "card size: passed" in text


def test_presets_listing_says_a_home_preset_keeps_the_deck_size() -> None:
    home = preset_summary(load_preset("home-a4"))
    assert home["card_size_required"] is False
    assert home["card_size"] == "63 x 88 (or the deck's own)"
    shop = preset_summary(load_preset("meinspiel"))
    assert shop["card_size"] == "59 x 91"
