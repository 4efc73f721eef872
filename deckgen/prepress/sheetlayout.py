"""Where cards go on a sheet of paper, front and back: pure geometry, no PDF.

Takes the paper size, the card's trim size, the bleed kept on the sheet, the gutter
and the margins; gives a :class:`SheetLayout` with as many cards as fit, centred, and
for every slot the trim rectangle of its front and, for a duplex flip on the long or
the short edge, of its back (so that the back lands exactly behind its front).

Coordinates are millimetres from the lower-left corner of the page, as in PDF. A sheet
is printed portrait; "long" flips the paper about its vertical (long) edge, "short"
about its horizontal (short) edge. Back rectangles are in the coordinates of the back
page as the printer prints it (upright when the sheet is turned over that edge).

>>> lay = compute_layout((210, 297), (63, 88), bleed_mm=1, gutter_mm=0, margin_mm=3)
>>> (lay.cols, lay.rows, lay.per_sheet)
(3, 3, 9)
>>> lay.front_trim(0)[:2], lay.back_trim(0, "long")[:2]
((8.5, 194.5), (138.5, 194.5))

When cards with their own bleed leave room for fewer cards than cards that share one
(abutting at their cut lines, bleed only around the grid), the cards share it: nine
poker cards on US Letter instead of six. When cards turned by 90 degrees fit more, they
are turned (``rotated``; the imposer turns fronts and backs).

>>> letter = compute_layout((215.9, 279.4), (63.5, 88.9), bleed_mm=0.5, margin_mm=3)
>>> (letter.per_sheet, letter.shared_bleed)
(9, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from deckgen.errors import InputError

Rect = tuple[float, float, float, float]
"""A rectangle (x0, y0, x1, y1) in mm, lower-left origin."""

MARK_GAP_MM = 0.5
"""Least space between a card's bleed edge and the start of its crop mark."""
MARK_OFFSET_MM = 3.0
"""Where a crop mark starts, measured from the trim (the usual offset)."""
MARK_MIN_MM = 2.0
"""Shortest crop mark drawn: the layout keeps room for at least that."""
MARK_MAX_LEN_MM = 5.0
"""Longest a crop mark is drawn."""
MARK_EDGE_MM = 3.0
"""Marks stop this far from the paper edge (no press or printer prints closer)."""


@dataclass(frozen=True, slots=True)
class SheetLayout:
    """An n-up grid of cards on one side of a sheet, centred on the paper."""

    paper_w_mm: float
    paper_h_mm: float
    card_w_mm: float
    card_h_mm: float
    bleed_mm: float
    gutter_mm: float
    cols: int
    rows: int
    shared_bleed: bool = False
    """Cards abut at their cut lines; ``bleed_mm`` is kept only around the grid."""
    rotated: bool = False
    """Cards lie turned by 90 degrees on the sheet (``card_w_mm`` and ``card_h_mm`` are
    then the slot's size on the sheet: the card's height and width)."""

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def cell_w_mm(self) -> float:
        return self.card_w_mm + (0.0 if self.shared_bleed else 2 * self.bleed_mm)

    @property
    def cell_h_mm(self) -> float:
        return self.card_h_mm + (0.0 if self.shared_bleed else 2 * self.bleed_mm)

    @property
    def grid_rect(self) -> Rect:
        """The outer bleed edges of the whole grid."""
        outer = 2 * self.bleed_mm if self.shared_bleed else 0.0
        w = self.cols * self.cell_w_mm + (self.cols - 1) * self.gutter_mm + outer
        h = self.rows * self.cell_h_mm + (self.rows - 1) * self.gutter_mm + outer
        x0 = (self.paper_w_mm - w) / 2
        y0 = (self.paper_h_mm - h) / 2
        return (x0, y0, x0 + w, y0 + h)

    def front_trim(self, slot: int) -> Rect:
        """Trim rectangle of the card in ``slot`` (row-major from the top left)."""
        if not 0 <= slot < self.per_sheet:
            raise IndexError(slot)
        row, col = divmod(slot, self.cols)
        gx0, _, _, gy1 = self.grid_rect
        x0 = gx0 + col * (self.cell_w_mm + self.gutter_mm) + self.bleed_mm
        y1 = gy1 - row * (self.cell_h_mm + self.gutter_mm) - self.bleed_mm
        return _round_rect((x0, y1 - self.card_h_mm, x0 + self.card_w_mm, y1))

    def bleed_sides(self, slot: int) -> tuple[float, float, float, float]:
        """Bleed (mm) kept on the left, bottom, right and top of ``slot``'s front: all
        of it, or with a shared bleed only on the sides at the grid's edge."""
        b = self.bleed_mm
        if not self.shared_bleed:
            return (b, b, b, b)
        row, col = divmod(slot, self.cols)
        return (
            b if col == 0 else 0.0,
            b if row == self.rows - 1 else 0.0,
            b if col == self.cols - 1 else 0.0,
            b if row == 0 else 0.0,
        )

    def back_bleed_sides(
        self, slot: int, duplex: Literal["long", "short"]
    ) -> tuple[float, float, float, float]:
        """The bleed sides of the back behind ``slot`` (mirrored as the sheet turns)."""
        left, bottom, right, top = self.bleed_sides(slot)
        return (right, bottom, left, top) if duplex == "long" else (left, top, right, bottom)

    def back_trim(
        self,
        slot: int,
        duplex: Literal["long", "short"],
        offset_mm: tuple[float, float] = (0.0, 0.0),
    ) -> Rect:
        """Trim rectangle, on the back page, of the back behind ``slot``'s front.

        ``offset_mm`` (x right, y up, as seen on the back) moves every back to correct
        a printer that shifts its back side.
        """
        x0, y0, x1, y1 = self.front_trim(slot)
        dx, dy = offset_mm
        if duplex == "long":
            rect = (self.paper_w_mm - x1, y0, self.paper_w_mm - x0, y1)
        elif duplex == "short":
            rect = (x0, self.paper_h_mm - y1, x1, self.paper_h_mm - y0)
        else:
            raise ValueError(f"duplex must be 'long' or 'short', not {duplex!r}")
        return _round_rect((rect[0] + dx, rect[1] + dy, rect[2] + dx, rect[3] + dy))

    def trim_lines(self, slots: int | None = None) -> tuple[list[float], list[float]]:
        """The distinct x (vertical cuts) and y (horizontal cuts) of the trim edges of
        the first ``slots`` cards (all slots by default): empty slots get no cuts."""
        xs: set[float] = set()
        ys: set[float] = set()
        for slot in range(self.per_sheet if slots is None else min(slots, self.per_sheet)):
            x0, y0, x1, y1 = self.front_trim(slot)
            xs.update((x0, x1))
            ys.update((y0, y1))
        return sorted(xs), sorted(ys)


def _round_rect(rect: Rect) -> Rect:
    return (round(rect[0], 6), round(rect[1], 6), round(rect[2], 6), round(rect[3], 6))


def compute_layout(
    paper_mm: tuple[float, float],
    card_mm: tuple[float, float],
    *,
    bleed_mm: float,
    gutter_mm: float = 0.0,
    margin_mm: float = 3.0,
    marks: bool = True,
) -> SheetLayout:
    """As many cards as fit on the paper with bleed and gutter, leaving room for marks.

    The cards keep ``margin_mm`` (the edge a printer cannot print) or, when there are
    marks, room for a mark of :data:`MARK_MIN_MM` beyond :data:`MARK_GAP_MM` that stops
    :data:`MARK_EDGE_MM` (or the margin) before the paper edge. Raises InputError if not
    even one card fits.
    """
    paper_w, paper_h = paper_mm
    card_w, card_h = card_mm
    border = max(margin_mm, MARK_EDGE_MM) + MARK_MIN_MM + MARK_GAP_MM if marks else margin_mm
    avail_w = paper_w - 2 * border
    avail_h = paper_h - 2 * border
    cell_w = card_w + 2 * bleed_mm
    cell_h = card_h + 2 * bleed_mm
    eps = 1e-9
    cols = max(0, math.floor((avail_w + gutter_mm + eps) / (cell_w + gutter_mm)))
    rows = max(0, math.floor((avail_h + gutter_mm + eps) / (cell_h + gutter_mm)))
    best = SheetLayout(paper_w, paper_h, card_w, card_h, bleed_mm, gutter_mm, cols, rows)
    for candidate in _alternatives(paper_mm, card_mm, bleed_mm, gutter_mm, avail_w, avail_h):
        if candidate.per_sheet > best.per_sheet:
            best = candidate
    if best.per_sheet > cols * rows:
        return best
    if cols < 1 or rows < 1:
        raise InputError(
            f"a {card_w:g} x {card_h:g} mm card with {bleed_mm:g} mm bleed does not fit on "
            f"{paper_w:g} x {paper_h:g} mm paper with {margin_mm:g} mm margins",
            where="option --sheets",
            fix="choose a larger paper (A3, SRA3) or a smaller card",
        )
    return SheetLayout(paper_w, paper_h, card_w, card_h, bleed_mm, gutter_mm, cols, rows)


def _alternatives(
    paper_mm: tuple[float, float],
    card_mm: tuple[float, float],
    bleed_mm: float,
    gutter_mm: float,
    avail_w: float,
    avail_h: float,
) -> list[SheetLayout]:
    """Other ways to lay the cards out, in order of preference: sharing the bleed,
    turning the cards by 90 degrees, both."""
    paper_w, paper_h = paper_mm
    eps = 1e-9
    out = []
    for rotated in (False, True):
        w, h = (card_mm[1], card_mm[0]) if rotated else card_mm
        for shared in (False, True):
            if not rotated and not shared:
                continue  # the plain layout
            if shared and (gutter_mm != 0 or bleed_mm <= 0):
                continue
            if shared:
                cols = math.floor((avail_w - 2 * bleed_mm + eps) / w)
                rows = math.floor((avail_h - 2 * bleed_mm + eps) / h)
            else:
                cols = math.floor((avail_w + gutter_mm + eps) / (w + 2 * bleed_mm + gutter_mm))
                rows = math.floor((avail_h + gutter_mm + eps) / (h + 2 * bleed_mm + gutter_mm))
            if cols >= 1 and rows >= 1:
                gutter = 0.0 if shared else gutter_mm
                out.append(
                    SheetLayout(
                        paper_w, paper_h, w, h, bleed_mm, gutter, cols, rows, shared, rotated
                    )
                )
    return out
