"""The demo back's logo has no words below a vendor's smallest reversed text: the words
are pixels the preflight cannot read, so the art that makes them is held to it here."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from deckgen.deck.geometry import card_geometry
from deckgen.deck.layoutboxes import logo_box
from deckgen.prepress.contract import fit_deck
from deckgen.prepress.presets import load_preset, preset_names
from deckgen.product import load_printed_deck
from deckgen.resources import images_dir

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "demoart.py"


def _demoart() -> ModuleType:
    spec = importlib.util.spec_from_file_location("demoart", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", preset_names())
def test_logo_words_are_at_least_the_reversed_text_minimum(name: str) -> None:
    preset = load_preset(name)
    deck, _ = fit_deck(load_printed_deck(images_dir() / "demo-deck.toml"), preset)
    assert deck.logo is not None
    assert deck.logo.path.name == "logo.png"
    width_pt = logo_box(card_geometry(deck), deck.spec.back.logo_width).w
    for word, em in _demoart().LOGO_TEXT_EM.items():
        size_pt = em * width_pt
        assert size_pt >= preset.min_reversed_text_pt, (
            f"{name}: '{word}' in the demo logo is {size_pt:.1f} pt, below the "
            f"{preset.min_reversed_text_pt:g} pt {name} prints light on dark"
        )
