"""Crop marks and cut lines for an imposed sheet, as PDF content-stream operators.

Takes a :class:`~deckgen.prepress.sheetlayout.SheetLayout`; gives the operators that draw
its marks in registration colour (a ``Separation`` named ``All``: every ink of the
press prints it, so the marks show on every plate). Crop marks are short lines in the
margin around the grid, one pair for every trim line:

- they start :data:`~deckgen.prepress.sheetlayout.MARK_OFFSET_MM` (3 mm) beyond the
  trim, and never closer than :data:`~deckgen.prepress.sheetlayout.MARK_GAP_MM` beyond
  the bleed, so they never touch a card or its bleed;
- they are :data:`~deckgen.prepress.sheetlayout.MARK_MAX_LEN_MM` (5 mm) long, and stop
  :data:`~deckgen.prepress.sheetlayout.MARK_EDGE_MM` (3 mm, or the printer's margin if
  larger) before the paper edge, which no press or printer prints;
- where that leaves no room, a mark is shortened (never below
  :data:`~deckgen.prepress.sheetlayout.MARK_MIN_MM`), then moved closer to the bleed;
  :func:`marks_note` says so. The layout (:func:`~deckgen.prepress.sheetlayout.
  compute_layout`) keeps room for at least that.

Cut lines are thin lines along every trim line across the sheet for a paper cutter,
clipped so that they never cross the face of a card, and stop at the same edge.
The caller adds :func:`registration_resources` to the page's resources.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from deckgen.prepress.cardpages import pt
from deckgen.prepress.sheetlayout import (
    MARK_EDGE_MM,
    MARK_GAP_MM,
    MARK_MAX_LEN_MM,
    MARK_MIN_MM,
    MARK_OFFSET_MM,
    SheetLayout,
)

if TYPE_CHECKING:
    import pikepdf

MARK_WIDTH_PT = 0.5
CUT_LINE_WIDTH_PT = 0.3
REGISTRATION = "/DgAll"
"""The resource name of the registration colour space in a page's ``/ColorSpace``."""


def registration_space(pdf: pikepdf.Pdf) -> pikepdf.Object:
    """``[/Separation /All /DeviceCMYK f]``: the registration colour, 100 % of every ink
    (its alternate, for a viewer: 100 % of C, M, Y and K)."""
    import pikepdf

    tint = pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0], C1=[1, 1, 1, 1], N=1)
    return pdf.make_indirect(
        pikepdf.Array([pikepdf.Name.Separation, pikepdf.Name.All, pikepdf.Name.DeviceCMYK, tint])
    )


def registration_resources(pdf: pikepdf.Pdf) -> pikepdf.Dictionary:
    """A ``/ColorSpace`` resource dictionary holding :data:`REGISTRATION`."""
    import pikepdf

    return pikepdf.Dictionary({REGISTRATION: registration_space(pdf)})


def _registration(stroke: bool = True) -> str:
    return f"{REGISTRATION} CS 1 SCN" if stroke else f"{REGISTRATION} cs 1 scn"


def _f(value_mm: float) -> str:
    text = f"{pt(value_mm):.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def edge_mm(layout: SheetLayout, margin_mm: float = 0.0) -> float:
    """How far from the paper edge marks stop."""
    return max(MARK_EDGE_MM, margin_mm)


def mark_span(room_mm: float, bleed_mm: float, edge: float) -> tuple[float, float] | None:
    """Where a crop mark lies, measured from the trim outwards: (start, end) in mm, or
    ``None`` when even a shortened mark finds no room. ``room_mm`` is the distance from
    the outermost trim line to the paper edge, ``bleed_mm`` the bleed kept there.

    >>> mark_span(20.0, 1.0, 3.0)   # plenty of room: 3 mm offset, 5 mm long
    (3.0, 8.0)
    >>> mark_span(20.0, 3.0, 3.0)   # a 3 mm bleed: from 0.5 mm beyond it
    (3.5, 8.5)
    >>> mark_span(9.0, 1.0, 3.0)    # shortened to 3 mm
    (3.0, 6.0)
    >>> mark_span(6.35, 0.5, 3.0)   # 2 mm long, moved closer to the bleed
    (1.35, 3.35)
    """
    limit = room_mm - edge
    start = max(bleed_mm + MARK_GAP_MM, min(MARK_OFFSET_MM, limit - MARK_MIN_MM))
    end = min(start + MARK_MAX_LEN_MM, limit)
    if end - start < MARK_MIN_MM - 1e-9:
        return None
    return (round(start, 4), round(end, 4))


def _spans(layout: SheetLayout, margin_mm: float) -> tuple[tuple[float, float] | None, ...]:
    """Mark spans above, below, left and right of the grid."""
    gx0, gy0, gx1, gy1 = layout.grid_rect
    kept = layout.bleed_mm
    edge = edge_mm(layout, margin_mm)
    top_trim, bottom_trim = gy1 - kept, gy0 + kept
    left_trim, right_trim = gx0 + kept, gx1 - kept
    return (
        mark_span(layout.paper_h_mm - top_trim, kept, edge),
        mark_span(bottom_trim, kept, edge),
        mark_span(left_trim, kept, edge),
        mark_span(layout.paper_w_mm - right_trim, kept, edge),
    )


def mark_segments(
    layout: SheetLayout, slots: int | None = None, *, margin_mm: float = 0.0
) -> list[tuple[float, float, float, float]]:
    """Every crop mark of the first ``slots`` cards (all by default) as a segment
    (x0, y0, x1, y1) in mm: a cut line that only empty slots have gets no mark."""
    gx0, gy0, gx1, gy1 = layout.grid_rect
    kept = layout.bleed_mm
    top_trim, bottom_trim = gy1 - kept, gy0 + kept
    left_trim, right_trim = gx0 + kept, gx1 - kept
    xs, ys = layout.trim_lines(slots)
    top, bottom, left, right = _spans(layout, margin_mm)
    segments: list[tuple[float, float, float, float]] = []
    for x in xs:
        if top is not None:
            segments.append((x, top_trim + top[0], x, top_trim + top[1]))
        if bottom is not None:
            segments.append((x, bottom_trim - bottom[1], x, bottom_trim - bottom[0]))
    for y in ys:
        if left is not None:
            segments.append((left_trim - left[1], y, left_trim - left[0], y))
        if right is not None:
            segments.append((right_trim + right[0], y, right_trim + right[1], y))
    return segments


def marks_note(layout: SheetLayout, *, margin_mm: float = 0.0) -> str | None:
    """A sentence when the crop marks are shorter or closer to the bleed than usual (or
    missing on a side), naming a larger paper; ``None`` when they are full."""
    spans = _spans(layout, margin_mm)
    if any(s is None for s in spans):
        return (
            "this paper leaves no room for crop marks on every side: choose a larger "
            "paper (A3, SRA3) for marks"
        )
    shortest = min(s[1] - s[0] for s in spans if s is not None)
    closest = min(s[0] for s in spans if s is not None)
    if shortest >= MARK_MAX_LEN_MM - 1e-6 and closest >= MARK_OFFSET_MM - 1e-6:
        return None
    return (
        f"crop marks shortened to {shortest:.1f} mm and starting {closest:.1f} mm from the "
        f"cut (usual: {MARK_MAX_LEN_MM:g} mm, {MARK_OFFSET_MM:g} mm), to stay "
        f"{edge_mm(layout, margin_mm):g} mm inside the paper edge: a larger paper gives "
        "full marks"
    )


def crop_marks_ops(
    layout: SheetLayout,
    colour_space: Literal["rgb", "cmyk"] = "rgb",
    slots: int | None = None,
    *,
    margin_mm: float = 0.0,
) -> str:
    """Operators drawing the crop marks of ``layout`` (of its first ``slots`` cards) in
    registration colour (whatever ``colour_space`` the job is)."""
    ops = ["q", f"{MARK_WIDTH_PT} w 0 J", _registration()]
    for x0, y0, x1, y1 in mark_segments(layout, slots, margin_mm=margin_mm):
        ops.append(f"{_f(x0)} {_f(y0)} m {_f(x1)} {_f(y1)} l S")
    ops.append("Q")
    return "\n".join(ops)


def cut_lines_ops(
    layout: SheetLayout,
    colour_space: Literal["rgb", "cmyk"] = "rgb",
    slots: int | None = None,
    *,
    margin_mm: float = 0.0,
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
    ops.append(f"{CUT_LINE_WIDTH_PT} w 0 J {_registration()}")
    xs, ys = layout.trim_lines(count)
    edge = edge_mm(layout, margin_mm)
    for x in xs:
        ops.append(f"{_f(x)} {_f(edge)} m {_f(x)} {_f(h - edge)} l S")
    for y in ys:
        ops.append(f"{_f(edge)} {_f(y)} m {_f(w - edge)} {_f(y)} l S")
    ops.append("Q")
    return "\n".join(ops)
