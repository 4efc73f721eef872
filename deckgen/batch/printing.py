"""The batch's one door to the print outputs: which ``deck build`` steps make them.

Every deck of a batch gets the print files its deck file's ``preset`` asks for, and
the preflight, exactly as ``deckgen deck build`` without options would write them.
Kept in one place so that the batch follows the print pipeline wherever it lives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckgen.deck.build import OutputStep


def print_steps() -> list[OutputStep]:
    """The ``extra_steps`` for ``build_deck`` that write a deck's print outputs."""
    from deckgen.deck.printstep import print_step

    return [print_step]
