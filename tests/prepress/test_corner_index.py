"""The corner index lies inside the rounded safe area (the trim inset by the safe
margin, its corners rounded by the card's corner radius) for every preset: measured on
the glyphs as drawn in the card PDF, and with a plate (a card picture) by geometry."""

from __future__ import annotations

import pypdfium2
import pytest

from deckgen.deck.cornerindex import inside_rounded, place_index
from deckgen.deck.render import render_cards
from deckgen.prepress.contract import fit_deck
from deckgen.prepress.presets import load_preset, preset_names
from deckgen.product import load_printed_deck
from deckgen.resources import images_dir
from deckgen.units import PT_PER_MM


@pytest.mark.parametrize("name", preset_names())
def test_index_glyphs_inside_the_rounded_safe_area(name: str) -> None:
    preset = load_preset(name)
    deck, _ = fit_deck(load_printed_deck(images_dir() / "demo-deck.toml"), preset)
    pdf_bytes = render_cards(deck, ["6-7"], fmt="pdf", bleed=True)
    page = pypdfium2.PdfDocument(pdf_bytes)[0]
    text = page.get_textpage()
    bleed = deck.bleed_mm * PT_PER_MM
    safe = deck.safe_mm * PT_PER_MM
    rect = (
        bleed + safe,
        bleed + safe,
        bleed + deck.width_mm * PT_PER_MM - safe,
        bleed + deck.height_mm * PT_PER_MM - safe,
    )
    radius = deck.corner_radius_mm * PT_PER_MM
    content = text.get_text_range()
    found = 0
    for index, char in enumerate(content):
        if char not in "67|":
            continue
        left, bottom, right, top = text.get_charbox(index)
        near_corner = min(abs(left - rect[0]), abs(right - rect[2])) < 12 * PT_PER_MM
        near_edge = min(abs(top - rect[3]), abs(bottom - rect[1])) < 12 * PT_PER_MM
        if not (near_corner and near_edge):
            continue  # a digit elsewhere on the card
        found += 1
        for corner in ((left, bottom), (left, top), (right, bottom), (right, top)):
            assert inside_rounded(corner, rect, radius), (
                f"{name}: '{char}' of the corner index reaches {corner} outside the safe "
                f"area rounded with {deck.corner_radius_mm:g} mm"
            )
    assert found >= 6, f"{name}: the two corner indexes '6|7' were not found ({found})"


@pytest.mark.parametrize("name", preset_names())
def test_index_plate_inside_the_rounded_safe_area(name: str) -> None:
    preset = load_preset(name)
    size, width = 9.0, 20.0
    radius = preset.corner_radius_mm * PT_PER_MM
    spot = place_index(width, size * 0.93, -size * 0.24, size * 0.3, radius)
    left, bottom, right, top = spot.box
    # the safe rectangle's top-left corner is the origin, the card lies below (y < 0)
    rect = (0.0, -200.0, 150.0, 0.0)
    for corner in ((left, bottom), (left, top), (right, bottom), (right, top)):
        assert inside_rounded(corner, rect, radius), (name, corner)
