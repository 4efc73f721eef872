"""The deck file model: defaults, sizes, colours, picture counts, demo: paths."""

from __future__ import annotations

from pathlib import Path

import pytest
from deck_testkit import write_deck

from deckgen.deck.sizes import card_size
from deckgen.deck.spec import load_deck, slugify
from deckgen.errors import SpecError, UnsafePathError


def test_defaults_and_named_sizes(tmp_path: Path) -> None:
    deck = load_deck(write_deck(tmp_path, {"name": "Min"}))
    assert deck.dset.name == "double-6"
    assert (deck.width_mm, deck.height_mm) == (59.0, 91.0)
    assert deck.bleed_mm == 3.0
    assert deck.safe_mm == 4.0
    assert len(deck.value_colours) == 7
    assert card_size("poker") == (63.0, 88.0)
    assert card_size("tarot") == (70.0, 120.0)
    assert card_size("mini") == (44.0, 67.0)
    assert card_size("bridge") == (57.0, 89.0)
    assert card_size("70x100") == (70.0, 100.0)
    with pytest.raises(ValueError, match="out of range"):
        card_size("10 x 20")


def test_demo_prefix_stays_in_images(tmp_path: Path) -> None:
    deck = load_deck(write_deck(tmp_path, {"name": "D", "back": {"logo": "demo:logo.png"}}))
    assert deck.logo is not None
    assert deck.logo.path.name == "logo.png"
    with pytest.raises(UnsafePathError):
        load_deck(write_deck(tmp_path, {"name": "D", "back": {"logo": "demo:../pyproject.toml"}}))


def test_colour_count_must_match_set(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="needs 6 colours"):
        load_deck(write_deck(tmp_path, {"name": "C", "faces": {"colours": ["#000000"] * 5}}))
    deck = load_deck(write_deck(tmp_path, {"name": "C", "faces": {"colours": ["#010203"] * 6}}))
    assert deck.value_colours[3] == (1, 2, 3)


def test_too_many_pictures(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match=r"needs 6 pictures.*lists 7.*larger set"):
        load_deck(
            write_deck(
                tmp_path, {"name": "P", "faces": {"style": "pictures", "pictures": ["a.png"] * 7}}
            )
        )


def test_focus_must_be_inside_the_picture(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match=r"cover.picture.focus"):
        load_deck(
            write_deck(
                tmp_path, {"name": "F", "cover": {"picture": {"file": "x.png", "focus": [2, 0]}}}
            )
        )


def test_slug() -> None:
    assert slugify("Familie Müller – Domino!") == "familie-mueller-domino"
    assert slugify("???") == "deck"
