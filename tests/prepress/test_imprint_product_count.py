"""The imprint card counts the cards of the product as printed for the preset: with
MeinSpiel the imprint is printed on the cover's back, so the product has one card
fewer than the deck has fronts (double-7: 37 cards, double-6: 29)."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.deck.starter import StarterCard, starter_toml


def _page_text(pdf: Path, index: int) -> str:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        page = doc[index]
        return str(page.get_textpage().get_text_range())
    finally:
        doc.close()


def _build(tmp_path: Path, max_pip: int, *extra: str) -> tuple[Path, str]:
    deck = tmp_path / "deck.toml"
    text = starter_toml("Deck", f"double-{max_pip}", max_pip, StarterCard(), samples=False)
    deck.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    args = ["deck", "build", str(deck), "--out", str(out), "--no-preview", *extra]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return out, result.output


def test_meinspiel_double7_imprint_counts_37_cards(ms_build: Path) -> None:
    """The demo deck (double-7) for MeinSpiel: the imprint, on the cover's back (page 1
    of backs.pdf), says 37 cards, as many as the product has (36 tiles and the cover)."""
    text = " ".join(_page_text(ms_build / "backs.pdf", 0).split())
    assert "36" in text
    assert "37 cards in all" in text or "37 Karten insgesamt" in text, text
    assert "38 cards" not in text
    assert "38 Karten" not in text


def test_meinspiel_double6_imprint_and_warning_say_29(tmp_path: Path) -> None:
    out, output = _build(tmp_path, 6, "--preset", "meinspiel")
    text = " ".join(_page_text(out / "backs.pdf", 0).split())
    assert "double-6 · 28 tiles · 29 cards in all" in text, text
    assert "30 cards in all" not in text
    flat = " ".join(output.split())
    assert "8 white cards fill this deck of 29" in flat
    assert "the imprint printed on the cover's back" in flat, output


def test_without_cover_back_the_imprint_counts_cover_and_imprint(tmp_path: Path) -> None:
    """A build without a preset prints the imprint as its own card: tiles + 2."""
    out, _ = _build(tmp_path, 6)
    text = " ".join(_page_text(out / "cards.pdf", 29).split())
    assert "double-6 · 28 tiles · 30 cards in all" in text, text
