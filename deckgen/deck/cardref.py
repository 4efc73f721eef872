"""Which card of a deck: :class:`CardRef` (position in deck order, kind, tile).

Plain data that the drawing (:mod:`deckgen.deck.render`), the picture boxes
(:mod:`deckgen.deck.layoutboxes`) and the print steps share; it imports nothing that
draws, so none of them has to import another to name a card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from deckgen.tiles import Tile

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
