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
