"""Pip layouts: counts, 180-degree symmetry, no touching pips; and pips counted on real cards."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from deck_testkit import count_blobs, half_boxes_px, render_page, write_deck

from deckgen.deck.build import build_deck
from deckgen.deck.cards import deck_cards
from deckgen.deck.pips import MAX_VALUE, is_point_symmetric, layout
from deckgen.deck.render import render_pdf
from deckgen.deck.spec import load_deck
from deckgen.tiles import Tile


@pytest.mark.parametrize("value", range(MAX_VALUE + 1))
def test_layout_count_symmetry_and_spacing(value: int) -> None:
    pl = layout(value)
    assert len(pl.points) == value
    assert len(set(pl.points)) == value
    assert is_point_symmetric(pl)
    for x, y in pl.points:
        assert -1.0 <= x <= 1.0
        assert -1.0 <= y <= 1.0
    for (x1, y1), (x2, y2) in itertools.combinations(pl.points, 2):
        gap = ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 - 2 * pl.radius
        assert gap > 0.1, f"pips of {value} nearly touch"


def test_symmetry_check_can_fail() -> None:
    from deckgen.deck.pips import PipLayout

    assert not is_point_symmetric(PipLayout(2, ((1.0, 1.0), (1.0, -1.0)), 0.2))


def test_classic_patterns() -> None:
    assert layout(1).points == ((0.0, 0.0),)
    assert set(layout(4).points) == {(-1.0, 1.0), (1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)}
    assert len({x for x, _ in layout(6).points}) == 2  # two columns of three
    assert (0.0, 0.0) not in layout(8).points
    assert (0.0, 0.0) in layout(9).points


SAMPLES = {
    "double-6": ["0-0", "1-2", "3-4", "5-6", "6-6", "2-5"],
    "double-7": ["0-7", "4-7", "7-7", "3-3"],
    "double-9": ["8-9", "9-9", "1-8"],
    "double-12": ["10-11", "12-12", "9-12", "0-10"],
}


@pytest.mark.parametrize("set_name", sorted(SAMPLES))
def test_pips_counted_on_rendered_cards(tmp_path: Path, set_name: str) -> None:
    deck_file = write_deck(tmp_path, {"name": "Count", "set": set_name})
    deck = load_deck(deck_file)
    cards = [c for c in deck_cards(deck) if c.tile is not None and str(c.tile) in SAMPLES[set_name]]
    pdf = render_pdf(deck, cards, dpi=100).data
    dpi = 100
    boxes = half_boxes_px(deck, dpi)
    face = (255, 253, 247)
    for page, card in enumerate(cards):
        im = render_page(pdf, page, dpi)
        assert card.tile is not None
        counted = [count_blobs(im, box, face) for box in boxes]
        assert counted == [card.tile.low, card.tile.high], f"{card.tile}: {counted}"


def test_double_18_and_mono_and_across(tmp_path: Path) -> None:
    deck_file = write_deck(
        tmp_path,
        {
            "name": "Big",
            "set": "double-18",
            "card": {"orientation": "across", "size": "tarot"},
            "faces": {"pip_colours": "mono", "ink": "#101010"},
        },
    )
    deck = load_deck(deck_file)
    chosen = [Tile(17, 18), Tile(13, 16), Tile(14, 15)]
    cards = [c for c in deck_cards(deck) if c.tile in chosen]
    pdf = render_pdf(deck, cards, dpi=100).data
    boxes = half_boxes_px(deck, 130)
    for page, card in enumerate(cards):
        im = render_page(pdf, page, 130)
        assert card.tile is not None
        counted = [count_blobs(im, box, (255, 253, 247)) for box in boxes]
        assert counted == [card.tile.low, card.tile.high]


def test_halves_read_the_same_turned(tmp_path: Path) -> None:
    """A double's card looks the same turned 180 degrees inside the tile."""
    from PIL import ImageChops

    deck_file = write_deck(
        tmp_path, {"name": "Sym", "set": "double-9", "card": {"corner_index": False}}
    )
    deck = load_deck(deck_file)
    for value in (5, 8, 9):
        cards = [c for c in deck_cards(deck) if c.tile == Tile(value, value)]
        im = render_page(render_pdf(deck, cards).data, 0, 72)
        b0 = half_boxes_px(deck, 72, inset=0.08)[0]
        half = im.crop(b0)
        turned = half.rotate(180)
        diff = ImageChops.difference(half.convert("L"), turned.convert("L"))
        # The highlight dots are not symmetric; the pip bodies are.
        mismatched = diff.point(lambda p: 255 if p > 120 else 0).histogram()[255]
        assert mismatched < half.width * half.height * 0.01


def test_build_numerals_style(tmp_path: Path) -> None:
    deck_file = write_deck(
        tmp_path, {"name": "Num", "set": "double-7", "faces": {"style": "numerals"}}
    )
    build_deck(deck_file, tmp_path / "out", preview=False)
    import pypdf

    reader = pypdf.PdfReader(str(tmp_path / "out" / "cards.pdf"))
    text = reader.pages[1 + 35].extract_text()  # 7-7
    assert "7" in text
