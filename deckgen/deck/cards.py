"""The deck's card list: which cards a deck has, in deck order, and how to name one.

:class:`CardRef` is one card (its index in deck order, its kind, its tile);
:func:`deck_cards` gives every front of a deck (cover, tiles ``0-0 ... N-N``, imprint)
and :func:`select_cards` finds cards by index, kind or tile. Drawing, manifest and print
steps all read this list; it imports no drawing code, so none of them loop back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from deckgen.errors import InputError
from deckgen.tiles import Tile

if TYPE_CHECKING:
    from deckgen.deck.spec import LoadedDeck

CardKind = Literal["cover", "tile", "imprint"]


@dataclass(frozen=True)
class CardRef:
    """One card of the deck: its position in deck order, its kind and tile."""

    index: int
    kind: CardKind
    tile: Tile | None = None

    @property
    def label(self) -> str:
        return f"tile {self.tile}" if self.tile is not None else f"the {self.kind} card"


def deck_cards(deck: LoadedDeck) -> list[CardRef]:
    """Every front in deck order: cover, tiles 0-0 ... N-N, imprint."""
    cards = [CardRef(0, "cover")]
    cards += [CardRef(i + 1, "tile", t) for i, t in enumerate(deck.dset.tiles)]
    cards.append(CardRef(len(cards), "imprint"))
    return cards


def select_cards(deck: LoadedDeck, chosen: Sequence[int | str | Tile | CardRef]) -> list[CardRef]:
    """Cards by deck index, by ``"cover"``/``"imprint"``, by tile (``Tile`` or ``"3-5"``)."""
    every = deck_cards(deck)
    out: list[CardRef] = []
    for item in chosen:
        if isinstance(item, CardRef):
            out.append(item)
        elif isinstance(item, Tile):
            out.append(_by_tile(deck, every, item, str(item)))
        elif isinstance(item, int):
            if not 0 <= item < len(every):
                raise InputError(
                    f"the deck has no card number {item}",
                    where="card choice",
                    fix=f"use 0 ... {len(every) - 1}",
                )
            out.append(every[item])
        elif item in ("cover", "imprint"):
            out.append(every[0] if item == "cover" else every[-1])
        else:
            try:
                tile = Tile.parse(item)
            except ValueError:
                raise InputError(
                    f"'{item}' is not a card",
                    where="card choice",
                    fix="name cards as cover, imprint, a tile like 3-5, or a deck index",
                ) from None
            out.append(_by_tile(deck, every, tile, item))
    return out


def _by_tile(deck: LoadedDeck, every: list[CardRef], tile: Tile, text: str) -> CardRef:
    if tile not in deck.dset:
        raise InputError(
            f"tile {text} is not in {deck.dset.name}",
            where="card choice",
            fix=f"use tiles with values 0 ... {deck.dset.max_pip}",
        )
    return every[1 + deck.dset.index(tile)]
