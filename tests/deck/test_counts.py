"""Numbers and words agree on the printed cards: tiles are the playing cards, and the
deck has two more (cover and imprint); every count printed says which it counts."""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from deckgen.deck.render import render_cards
from deckgen.product import load_printed_deck
from deckgen.resources import images_dir

COUNT = re.compile(r"(?:with|mit|·)\s+(\d+)\s+(cards|tiles|Karten|Steine)(\s+(in all|insgesamt))?")
"""Counts that describe the deck ("with 36 cards", "· 36 tiles"), not rules ("draws 3 cards")."""


@pytest.mark.parametrize("language", ["en", "de"])
def test_cover_and_imprint_counts_agree_with_the_deck(language: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    source = (images_dir() / "demo-deck.toml").read_text(encoding="utf-8")
    deck_file = tmp_path / "demo.toml"
    deck_file.write_text(
        source.replace('language = "en"', f'language = "{language}"'), encoding="utf-8"
    )
    for name in ("value-01.png", "cover.jpg", "logo.png"):
        (tmp_path / name).write_bytes((images_dir() / name).read_bytes())
    for n in range(2, 8):
        name = f"value-{n:02d}.png"
        (tmp_path / name).write_bytes((images_dir() / name).read_bytes())
    deck = load_printed_deck(deck_file)
    tiles = len(deck.dset)
    pdf = tmp_path / "cards.pdf"
    pdf.write_bytes(render_cards(deck, ["cover", "imprint"], fmt="pdf"))
    text = " ".join(page.extract_text() for page in PdfReader(pdf).pages)
    text = re.sub(r"\s+", " ", text)
    found = COUNT.findall(text)
    assert found, text
    for number, word, _, in_all in found:
        expected = tiles + 2 if in_all else tiles
        assert int(number) == expected, (
            f"'{number} {word}{' ' + in_all if in_all else ''}' in: {text}"
        )
    assert any(in_all for *_, in_all in found)  # the whole deck is counted once, named so
