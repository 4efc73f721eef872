"""Fixtures for the print tests: synthetic card PDFs made with reportlab."""

from __future__ import annotations

from pathlib import Path

import pytest

from print_synthetic import deck_labels, make_deck_pdfs


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


def _demo_build(folder: Path, preset: str) -> Path:
    """The demo deck (double-7, 38 cards, short rules on the imprint) built against a
    vendor preset as ``deck build --preset`` does; the build's warnings are kept in
    ``warnings.txt`` beside the output folder (a broken vendor rule would have raised)."""
    from deckgen.prepress.presets import load_preset
    from deckgen.prepress.printout import PrintOptions
    from deckgen.product import build_printed_deck, load_printed_deck
    from deckgen.progress import CollectingReporter
    from deckgen.resources import images_dir

    reporter = CollectingReporter()
    deck = load_printed_deck(images_dir() / "demo-deck.toml")
    out = folder / "out"
    build_printed_deck(
        deck, out, PrintOptions(preset=load_preset(preset)), reporter=reporter, preview=False
    )
    (folder / "warnings.txt").write_text("\n".join(reporter.warnings), encoding="utf-8")
    return out


@pytest.fixture(scope="session")
def dtc_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo deck built for DriveThruCards (CMYK, 240 % ink, PDF/X-1a): its folder."""
    return _demo_build(tmp_path_factory.mktemp("dtc"), "drivethrucards")


@pytest.fixture(scope="session")
def ms_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo deck built for MeinSpiel (CMYK, PDF/X-4, one PDF per card): its folder."""
    return _demo_build(tmp_path_factory.mktemp("ms"), "meinspiel")
