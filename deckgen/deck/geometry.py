"""Where things sit on a card: page, trim, safe area and the domino tile, in points.

Takes a :class:`~deckgen.deck.spec.LoadedDeck`; gives a :class:`CardGeometry`. The
PDF page is the card plus bleed on every side; the origin is the page's lower left
corner, so the card (the trim box) starts at ``(bleed, bleed)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckgen.deck.spec import LoadedDeck
from deckgen.units import PT_PER_MM

MM = PT_PER_MM
"""Points per millimetre (:data:`deckgen.units.PT_PER_MM`)."""


@dataclass(frozen=True)
class Box:
    """A rectangle in points: lower-left corner, width and height."""

    x: float
    y: float
    w: float
    h: float

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    def inset(self, d: float) -> Box:
        return Box(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    def as_pdf_box(self) -> tuple[float, float, float, float]:
        return (
            round(self.x, 4),
            round(self.y, 4),
            round(self.x + self.w, 4),
            round(self.y + self.h, 4),
        )


@dataclass(frozen=True)
class CardGeometry:
    """Page, trim and safe boxes, and the tile and its two halves, in points."""

    page: Box
    trim: Box
    safe: Box
    radius: float
    tile: Box
    halves: tuple[Box, Box]
    """First half (low value: top or left), second half (bottom or right)."""
    upright: bool

    @property
    def half_side(self) -> float:
        return self.halves[0].w


def card_geometry(deck: LoadedDeck) -> CardGeometry:
    """The geometry of every card of ``deck``."""
    bleed = deck.bleed_mm * MM
    width = deck.width_mm * MM
    height = deck.height_mm * MM
    page = Box(0.0, 0.0, width + 2 * bleed, height + 2 * bleed)
    trim = Box(bleed, bleed, width, height)
    safe = trim.inset(deck.safe_mm * MM)
    upright = deck.spec.card.orientation == "upright"
    # Leave a band at top and bottom for the corner index.
    index_band = min(safe.h * 0.08, 7 * MM) if deck.spec.card.corner_index else 0.0
    avail_w = safe.w
    avail_h = safe.h - 2 * index_band
    if upright:
        side = min(avail_w * 0.82, avail_h * 0.96 / 2)
        tile = Box(trim.cx - side / 2, trim.cy - side, side, 2 * side)
        halves = (
            Box(tile.x, tile.cy, side, side),
            Box(tile.x, tile.y, side, side),
        )
    else:
        side = min(avail_w * 0.98 / 2, avail_h * 0.62)
        tile = Box(trim.cx - side, trim.cy - side / 2, 2 * side, side)
        halves = (
            Box(tile.x, tile.y, side, side),
            Box(tile.cx, tile.y, side, side),
        )
    return CardGeometry(
        page=page,
        trim=trim,
        safe=safe,
        radius=deck.corner_radius_mm * MM,
        tile=tile,
        halves=halves,
        upright=upright,
    )
