"""Crop marks and cut lines for an imposed sheet, as PDF content-stream operators.

Takes a :class:`~deckgen.prepress.sheetlayout.SheetLayout`; gives the operators that draw
its marks in black (K only in a CMYK job). Crop marks are short lines in the margin
around the grid, one pair for every trim line, starting :data:`MARK_GAP_MM` beyond
the outermost bleed edge, so they never touch a card or its bleed. Cut lines are thin
lines along every trim line across the whole sheet for a paper cutter, clipped so that
they never cross the face of a card.
"""

from __future__ import annotations

from typing import Literal

from deckgen.prepress.cardpages import pt
from deckgen.prepress.sheetlayout import MARK_GAP_MM, MARK_MAX_LEN_MM, SheetLayout

MARK_WIDTH_PT = 0.5
CUT_LINE_WIDTH_PT = 0.3
EDGE_MM = 0.5
"""Marks stop this far from the paper edge."""


def _black(colour_space: Literal["rgb", "cmyk"], stroke: bool = True) -> str:
    if colour_space == "cmyk":
        return "0 0 0 1 K" if stroke else "0 0 0 1 k"
    return "0 G" if stroke else "0 g"


def _f(value_mm: float) -> str:
    text = f"{pt(value_mm):.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def mark_segments(
    layout: SheetLayout, slots: int | None = None
) -> list[tuple[float, float, float, float]]:
    """Every crop mark of the first ``slots`` cards (all by default) as a segment
    (x0, y0, x1, y1) in mm: a cut line that only empty slots have gets no mark."""
    gx0, gy0, gx1, gy1 = layout.grid_rect
    xs, ys = layout.trim_lines(slots)
    segments: list[tuple[float, float, float, float]] = []
    top_start, bottom_start = gy1 + MARK_GAP_MM, gy0 - MARK_GAP_MM
    top_end = min(top_start + MARK_MAX_LEN_MM, layout.paper_h_mm - EDGE_MM)
    bottom_end = max(bottom_start - MARK_MAX_LEN_MM, EDGE_MM)
    for x in xs:
        if top_end > top_start:
            segments.append((x, top_start, x, top_end))
        if bottom_end < bottom_start:
            segments.append((x, bottom_end, x, bottom_start))
    left_start, right_start = gx0 - MARK_GAP_MM, gx1 + MARK_GAP_MM
    left_end = max(left_start - MARK_MAX_LEN_MM, EDGE_MM)
    right_end = min(right_start + MARK_MAX_LEN_MM, layout.paper_w_mm - EDGE_MM)
    for y in ys:
        if left_end < left_start:
            segments.append((left_end, y, left_start, y))
        if right_end > right_start:
            segments.append((right_start, y, right_end, y))
    return segments


def crop_marks_ops(
    layout: SheetLayout, colour_space: Literal["rgb", "cmyk"] = "rgb", slots: int | None = None
) -> str:
    """Operators drawing the crop marks of ``layout`` (of its first ``slots`` cards)."""
    ops = ["q", f"{MARK_WIDTH_PT} w 0 J", _black(colour_space)]
    for x0, y0, x1, y1 in mark_segments(layout, slots):
        ops.append(f"{_f(x0)} {_f(y0)} m {_f(x1)} {_f(y1)} l S")
    ops.append("Q")
    return "\n".join(ops)


def cut_lines_ops(
    layout: SheetLayout, colour_space: Literal["rgb", "cmyk"] = "rgb", slots: int | None = None
) -> str:
    """Operators drawing a cut line along every trim line of the first ``slots`` cards
    (all by default), clipped off the card faces."""
    w, h = layout.paper_w_mm, layout.paper_h_mm
    ops = ["q", f"0 0 {_f(w)} {_f(h)} re"]
    count = layout.per_sheet if slots is None else min(slots, layout.per_sheet)
    for slot in range(count):
        x0, y0, x1, y1 = layout.front_trim(slot)
        ops.append(f"{_f(x0)} {_f(y0)} {_f(x1 - x0)} {_f(y1 - y0)} re")
    ops.append("W* n")
    ops.append(f"{CUT_LINE_WIDTH_PT} w 0 J {_black(colour_space)}")
    xs, ys = layout.trim_lines(count)
    for x in xs:
        ops.append(f"{_f(x)} {_f(EDGE_MM)} m {_f(x)} {_f(h - EDGE_MM)} l S")
    for y in ys:
        ops.append(f"{_f(EDGE_MM)} {_f(y)} m {_f(w - EDGE_MM)} {_f(y)} l S")
    ops.append("Q")
    return "\n".join(ops)
