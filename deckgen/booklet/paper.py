"""Paper for the imposed booklet: sheet sizes, and which sheet a booklet's spread needs.

Takes the trimmed page size of a booklet, its bleed and, optionally, the paper a user
asked for; gives a :class:`SheetPlan`: the sheet (landscape), where the trimmed spread
of two pages sits on it, and whether crop marks fit around it. A sheet that cannot hold
the spread (with its bleed, and for a print edition its marks) is an InputError that
names the sizes and a paper that fits.

>>> plan = plan_sheet(148, 210, bleed_mm=0)          # A5 pages for a home printer
>>> plan.paper.name, plan.marks
('a4', False)
>>> plan = plan_sheet(148, 210, bleed_mm=3, need_marks=True)   # print edition
>>> plan.paper.name, plan.marks, plan.side_marks, plan.end_marks
('a3', True, (3.5, 8.5), (3.5, 8.5))
>>> plan_sheet(148, 210, bleed_mm=3, paper="sra4").end_marks is None  # 4.5 mm: no room
True
>>> plan_sheet(105, 148, bleed_mm=0).paper.name, plan_sheet(105, 148, bleed_mm=0).marks
('a4', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from deckgen.errors import InputError
from deckgen.prepress.marks import mark_span
from deckgen.prepress.sheetlayout import MARK_EDGE_MM

PaperName = Literal["a4", "a3", "sra4", "sra3", "letter", "tabloid"]


@dataclass(frozen=True)
class Paper:
    """A sheet of paper, long side first (it is used landscape)."""

    name: PaperName
    long_mm: float
    short_mm: float

    @property
    def label(self) -> str:
        return self.name.upper() if self.name.startswith(("a", "sra")) else self.name.title()


PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", 297.0, 210.0),
    "a3": Paper("a3", 420.0, 297.0),
    "sra4": Paper("sra4", 320.0, 225.0),
    "sra3": Paper("sra3", 450.0, 320.0),
    "letter": Paper("letter", 279.4, 215.9),
    "tabloid": Paper("tabloid", 431.8, 279.4),
}

DEFAULT_ORDER: tuple[str, ...] = ("a4", "sra4", "a3", "sra3")
"""Papers tried in turn when none is asked for: the smallest that holds the spread."""

MarkSpan = tuple[float, float]
"""Where a crop mark lies, from the trim outwards: (start, end) in mm."""


@dataclass(frozen=True)
class SheetPlan:
    """Where a spread of two trimmed pages sits on a landscape sheet (mm, lower left 0)."""

    paper: Paper
    page_w_mm: float
    page_h_mm: float
    bleed_mm: float
    marks: bool

    @property
    def sheet_w_mm(self) -> float:
        return self.paper.long_mm

    @property
    def sheet_h_mm(self) -> float:
        return self.paper.short_mm

    @property
    def trim_x0_mm(self) -> float:
        """Left edge of the trimmed spread."""
        return (self.sheet_w_mm - 2 * self.page_w_mm) / 2

    @property
    def trim_y0_mm(self) -> float:
        """Bottom edge of the trimmed spread."""
        return (self.sheet_h_mm - self.page_h_mm) / 2

    @property
    def side_marks(self) -> MarkSpan | None:
        """The span of the marks left and right of the spread (the same numbers as the
        card sheets', :func:`deckgen.prepress.marks.mark_span`), None: no room."""
        return mark_span(self.trim_x0_mm, self.bleed_mm, MARK_EDGE_MM)

    @property
    def end_marks(self) -> MarkSpan | None:
        """The span of the marks above and below the spread (fold marks too)."""
        return mark_span(self.trim_y0_mm, self.bleed_mm, MARK_EDGE_MM)


EPS_MM = 0.05
"""Sizes that differ by less than this are equal (an A5 page in pt is not exactly 148 mm)."""


def _rooms(paper: Paper, page_w_mm: float, page_h_mm: float) -> tuple[float, float]:
    """The margins between the trimmed spread and the sheet's edge: at the sides, and
    above and below."""
    return (paper.long_mm - 2 * page_w_mm) / 2, (paper.short_mm - page_h_mm) / 2


def _marks_fit(rooms: tuple[float, float], bleed_mm: float) -> bool:
    """Crop marks of at least the shortest length fit on every side, inside the paper's
    printable area (:data:`~deckgen.prepress.sheetlayout.MARK_EDGE_MM` from its edge)."""
    return all(mark_span(room + EPS_MM, bleed_mm, MARK_EDGE_MM) is not None for room in rooms)


def plan_sheet(
    page_w_mm: float,
    page_h_mm: float,
    *,
    bleed_mm: float = 0.0,
    paper: str | None = None,
    need_marks: bool = False,
) -> SheetPlan:
    """The sheet for a saddle-stitched booklet of ``page_w_mm`` x ``page_h_mm`` pages.

    Without ``paper`` the first of A4, SRA4, A3, SRA3 that holds the spread (with its
    bleed, and with crop marks when ``need_marks``) is used. Crop marks are drawn
    whenever the sheet has room for them on every side: starting 3 mm beyond the trim
    (and beyond the bleed), ending 3 mm inside the paper edge, at least 2 mm long (the
    card sheets' rule, :mod:`deckgen.prepress.marks`). An A5 spread with 3 mm bleed on
    SRA4 has 4.5 mm beyond its bleed above and below, too little: it goes on A3.
    """

    def fits(p: Paper) -> bool:
        rooms = _rooms(p, page_w_mm, page_h_mm)
        return min(rooms) + EPS_MM >= bleed_mm and (not need_marks or _marks_fit(rooms, bleed_mm))

    spread = f"{2 * page_w_mm + 2 * bleed_mm:g} x {page_h_mm + 2 * bleed_mm:g} mm"
    if paper is not None:
        chosen = PAPERS.get(paper.lower())
        if chosen is None:
            raise InputError(
                f"there is no paper '{paper}'",
                where="option --paper",
                fix=f"use one of {', '.join(PAPERS)}",
            )
        if not fits(chosen):
            good = [n for n in DEFAULT_ORDER if fits(PAPERS[n])]
            what = "with its bleed and crop marks" if need_marks else "with its bleed"
            raise InputError(
                f"the booklet's spread of two pages ({spread}) does not fit on "
                f"{chosen.label} ({chosen.long_mm:g} x {chosen.short_mm:g} mm) {what}",
                where="option --paper",
                fix=f"use --paper {good[0]}" if good else "use a smaller booklet format",
            )
    else:
        candidates = [PAPERS[n] for n in DEFAULT_ORDER if fits(PAPERS[n])]
        if not candidates:
            raise InputError(
                f"no paper holds the booklet's spread ({spread})",
                where="option --format",
                fix="use a smaller booklet format",
            )
        chosen = candidates[0]
    rooms = _rooms(chosen, page_w_mm, page_h_mm)
    return SheetPlan(chosen, page_w_mm, page_h_mm, bleed_mm, _marks_fit(rooms, bleed_mm))
