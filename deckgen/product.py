"""A deck as it is printed: the deck file plus the text other pillars supply for it.

A deck file may ask for the short rules of a rules file on its imprint card
(``imprint.rules = "card-domino"``). The deck never reads rules files (design: ``deck``
imports neither ``engine`` nor ``booklet``), so this module, which combines the
pillars, resolves the reference with :mod:`deckgen.booklet.shortrules` and hands the
deck the finished text. Every command that draws a deck file (``deck build``,
``deck preview``, ``deck check``, the demo) loads it through here.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckgen.deck.spec import LoadedDeck


def load_printed_deck(deck_file: str | Path, *, allow_outside: bool = False) -> LoadedDeck:
    """Load a deck file and put the short rules it names on its imprint card.

    The rules text is the fullest selection of the rules file's own sentences that
    fits the card at the deck's minimum readable size; a rules file that cannot fit
    even in its shortest form is a SpecError, so the build fails instead of printing
    unreadable text. Free text in ``imprint.rules`` is kept as it is.
    """
    from deckgen.deck.spec import load_deck

    return with_short_rules(load_deck(deck_file, allow_outside=allow_outside))


def with_short_rules(deck: LoadedDeck) -> LoadedDeck:
    """``deck`` with the short rules its ``imprint.rules`` names put on its imprint card."""
    from deckgen.booklet.shortrules import imprint_rules_for

    text = imprint_rules_for(deck)
    return deck if text is None else deck.with_imprint_rules(text)


def names_rules(deck: LoadedDeck) -> bool:
    """True when the imprint carries short rules, whose size must then be checked."""
    return bool(deck.spec.imprint.rules.strip())
