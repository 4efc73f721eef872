"""The one door from the batch and the exports to the print pipeline.

Every deck of a batch gets the print files its deck file's ``preset`` asks for, and
the preflight, exactly as ``deckgen deck build`` without options would write them; a
preset may also list ``tts`` among its outputs to ask for the Tabletop Simulator
export. Kept in one place so that callers follow the print pipeline wherever it lives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckgen.deck.build import OutputStep
    from deckgen.deck.spec import LoadedDeck


def print_steps() -> list[OutputStep]:
    """The ``extra_steps`` for ``build_deck`` that write a deck's print outputs."""
    from deckgen.deck.printstep import print_step

    return [print_step]


def preset_outputs(deck: LoadedDeck, preset: str | None = None) -> list[str]:
    """The outputs the vendor preset lists (``preset``, else the deck file's own)."""
    from deckgen.deck.presets import load_preset

    name = preset or deck.spec.preset
    if not name:
        return []
    return list(load_preset(name, where=f"{deck.path}: key preset").outputs)
