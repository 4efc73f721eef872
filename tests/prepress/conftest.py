"""Fixtures for the print tests: synthetic card PDFs made with reportlab."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from print_synthetic import deck_labels, make_deck_pdfs  # noqa: E402


@pytest.fixture(scope="session")
def deck7(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """cards.pdf and back.pdf of a double-7 deck (38 cards, poker size, 3 mm bleed)."""
    folder = tmp_path_factory.mktemp("deck7")
    return make_deck_pdfs(folder, deck_labels(7))


@pytest.fixture(scope="session")
def meinspiel_deck(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A double-6 deck (30 cards) at MeinSpiel size 59 x 91 mm with 3 mm bleed."""
    folder = tmp_path_factory.mktemp("meinspiel")
    return make_deck_pdfs(folder, deck_labels(6), card_mm=(59.0, 91.0))


@pytest.fixture(scope="session")
def dtc_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real double-3 deck built for DriveThruCards (CMYK, 240 % ink): its folder."""
    from deckgen.deck.build import build_deck
    from deckgen.deck.starter import StarterCard, starter_toml
    from deckgen.prepress.presets import card_from_preset
    from deckgen.prepress.printstep import print_step

    folder = tmp_path_factory.mktemp("dtc")
    card = card_from_preset("drivethrucards")
    assert isinstance(card, StarterCard)
    deck = folder / "deck.toml"
    deck.write_text(starter_toml("Black Ink", "double-3", 3, card), encoding="utf-8")
    build_deck(deck, folder / "out", preview=False, extra_steps=[print_step()])
    return folder / "out"


@pytest.fixture(scope="session")
def ms_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real double-3 deck built for MeinSpiel (CMYK, PDF/X-4, one PDF per card)."""
    from deckgen.deck.build import build_deck
    from deckgen.deck.starter import starter_toml
    from deckgen.prepress.presets import card_from_preset
    from deckgen.prepress.printstep import print_step

    folder = tmp_path_factory.mktemp("ms")
    deck = folder / "deck.toml"
    text = starter_toml("Vier Farben", "double-3", 3, card_from_preset("meinspiel"))
    deck.write_text(text, encoding="utf-8")
    build_deck(deck, folder / "out", preview=False, extra_steps=[print_step()])
    return folder / "out"
