"""Saddle-stitch imposition: booklet pages onto real sheets of paper, ready to fold.

Takes a PDF of booklet pages (all the same size, with or without bleed); gives a PDF of
sheet sides on real paper (A5 pages on A4, or A3 when they carry bleed and crop
marks; A6 pages on A4), the two pages of a spread centred, printed duplex (flip on the
short edge), stacked, folded and stapled in the middle.

The page count is padded to a multiple of 4 with blank pages. The blanks go just
before the last page, so the last page (the quick reference) stays on the back cover.
Sheet side ``k`` (0-based) shows, for ``n`` padded pages and 1-based page numbers:
front ``n - 2i | 1 + 2i`` and back ``2 + 2i | n - 1 - 2i`` for sheet ``i = k // 2``.

>>> padded_sequence(6)
[1, 2, 3, 4, 5, None, None, 6]
>>> sheet_sides(8)
[(8, 1), (2, 7), (6, 3), (4, 5)]
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING

from deckgen.booklet.paper import SheetPlan, plan_sheet
from deckgen.deck.geometry import MM
from deckgen.prepress.marks import MARK_WIDTH_PT, REGISTRATION, registration_resources

if TYPE_CHECKING:
    import pikepdf


def padded_sequence(pages: int, *, keep_last_page_last: bool = True) -> list[int | None]:
    """The booklet's page sequence (1-based page numbers) padded with ``None`` blanks."""
    if pages < 1:
        raise ValueError("a booklet needs at least one page")
    blanks = -pages % 4
    numbers: list[int | None] = list(range(1, pages + 1))
    if keep_last_page_last and pages > 1:
        return numbers[:-1] + [None] * blanks + numbers[-1:]
    return numbers + [None] * blanks


def sheet_sides(padded_pages: int) -> list[tuple[int, int]]:
    """For ``padded_pages`` (a multiple of 4), the (left, right) positions per side.

    Positions are 1-based places in the padded sequence; sides alternate front, back.
    """
    if padded_pages % 4:
        raise ValueError("pad the page count to a multiple of 4 first")
    n = padded_pages
    sides: list[tuple[int, int]] = []
    for i in range(n // 4):
        sides.append((n - 2 * i, 1 + 2 * i))
        sides.append((2 + 2 * i, n - 1 - 2 * i))
    return sides


@dataclass(frozen=True)
class _Boxes:
    """A booklet page's trimmed size and bleed (pt), read from its TrimBox and MediaBox."""

    trim_x0: float
    trim_y0: float
    width: float
    height: float
    bleed: float


def _page_boxes(page: pikepdf.Page) -> _Boxes:
    media = [float(v) for v in page.mediabox]
    trim = [float(v) for v in page.obj.get("/TrimBox", page.mediabox)]
    bleed = min(trim[0] - media[0], trim[1] - media[1], media[2] - trim[2], media[3] - trim[3])
    return _Boxes(trim[0], trim[1], trim[2] - trim[0], trim[3] - trim[1], max(0.0, bleed))


def _num(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".")


def _rect(x0: float, y0: float, x1: float, y1: float) -> pikepdf.Array:
    import pikepdf

    return pikepdf.Array([round(v, 4) for v in (x0, y0, x1, y1)])


def crop_mark_lines(plan: SheetPlan) -> list[tuple[float, float, float, float]]:
    """The crop and fold marks of a sheet as lines (x0, y0, x1, y1) in pt: two at each
    corner of the trimmed spread and one above and below the fold, beyond the bleed and
    inside the paper's printable area (:attr:`SheetPlan.side_marks`,
    :attr:`SheetPlan.end_marks`); none when the sheet has no room for them."""
    side, end = plan.side_marks, plan.end_marks
    if not plan.marks or side is None or end is None:
        return []
    x0, y0 = plan.trim_x0_mm * MM, plan.trim_y0_mm * MM
    x1, y1 = x0 + 2 * plan.page_w_mm * MM, y0 + plan.page_h_mm * MM
    fold = x0 + plan.page_w_mm * MM
    s0, s1 = side[0] * MM, side[1] * MM
    e0, e1 = end[0] * MM, end[1] * MM
    lines = []
    for cx, sx in ((x0, -1), (x1, 1)):
        for cy, sy in ((y0, -1), (y1, 1)):
            lines.append((cx + sx * s0, cy, cx + sx * s1, cy))
            lines.append((cx, cy + sy * e0, cx, cy + sy * e1))
    for cy, sy in ((y0, -1), (y1, 1)):
        lines.append((fold, cy + sy * e0, fold, cy + sy * e1))
    return lines


def impose_saddle_stitch(
    pdf: bytes,
    *,
    keep_last_page_last: bool = True,
    paper: str | None = None,
    need_marks: bool = False,
) -> bytes:
    """Impose the pages of ``pdf`` for saddle stitching; return the new PDF's bytes.

    The sheets are real paper (``paper``, default the smallest of A4, SRA4, A3, SRA3
    that holds the spread; see :mod:`deckgen.booklet.paper`), landscape, with the
    trimmed spread of two pages centred. A page's bleed (its MediaBox beyond its
    TrimBox) is kept on the spread's outer edges and cut at the fold. Crop and fold
    marks are drawn where the sheet has room (``need_marks``: it must have). Every
    sheet side has TrimBox (the spread) and BleedBox; the file asks the printer for
    duplex, flipped on the short edge, at 100 % (``/ViewerPreferences``). Each booklet
    page becomes a form XObject named after its page number, so the same booklet always
    gives the same bytes.
    """
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as src, pikepdf.new() as out:
        count = len(src.pages)
        boxes = _page_boxes(src.pages[0])
        plan = plan_sheet(
            boxes.width / MM,
            boxes.height / MM,
            bleed_mm=boxes.bleed / MM,
            paper=paper,
            need_marks=need_marks,
        )
        sheet_w, sheet_h = plan.sheet_w_mm * MM, plan.sheet_h_mm * MM
        x0, y0 = plan.trim_x0_mm * MM, plan.trim_y0_mm * MM
        w, h, b = boxes.width, boxes.height, boxes.bleed
        marks = crop_mark_lines(plan)
        sequence = padded_sequence(count, keep_last_page_last=keep_last_page_last)
        colour = registration_resources(out) if marks else None
        for left, right in sheet_sides(len(sequence)):
            ops: list[str] = []
            xobjects = pikepdf.Dictionary()
            for slot, position in enumerate((left, right)):
                number = sequence[position - 1]
                if number is None:
                    continue
                sx = x0 + slot * w
                source = src.pages[number - 1]
                form = out.copy_foreign(source.as_form_xobject())
                form.BBox = pikepdf.Array(list(source.mediabox))  # qpdf uses the TrimBox
                name = f"/Pg{number}"
                xobjects[name] = form
                # keep the bleed on the outer edges, cut it at the fold
                cx0 = sx - b if slot == 0 else sx
                cx1 = sx + w if slot == 0 else sx + w + b
                tx, ty = sx - boxes.trim_x0, y0 - boxes.trim_y0
                ops.append(
                    f"q {_num(cx0)} {_num(y0 - b)} {_num(cx1 - cx0)} {_num(h + 2 * b)} re W n "
                    f"1 0 0 1 {_num(tx)} {_num(ty)} cm {name} Do Q"
                )
            if marks:  # in registration colour: every ink prints them
                ops.append(f"q {_num(MARK_WIDTH_PT)} w 0 J {REGISTRATION} CS 1 SCN")
                ops += [f"{_num(a)} {_num(c)} m {_num(e)} {_num(d)} l S" for a, c, e, d in marks]
                ops.append("Q")
            content = ("\n".join(ops) + "\n").encode() if ops else b"q Q\n"
            resources = pikepdf.Dictionary(XObject=xobjects)
            if colour is not None:
                resources.ColorSpace = colour
            page = pikepdf.Dictionary(
                Type=pikepdf.Name.Page,
                MediaBox=_rect(0, 0, sheet_w, sheet_h),
                TrimBox=_rect(x0, y0, x0 + 2 * w, y0 + h),
                BleedBox=_rect(x0 - b, y0 - b, x0 + 2 * w + b, y0 + h + b),
                Resources=resources,
                Contents=out.make_stream(content),
            )
            out.pages.append(pikepdf.Page(page))
        out.Root.ViewerPreferences = pikepdf.Dictionary(
            Duplex=pikepdf.Name.DuplexFlipShortEdge,
            PrintScaling=pikepdf.Name("/None"),
        )
        out.docinfo["/Title"] = str(src.docinfo.get("/Title", "booklet")) + " (print)"
        buf = io.BytesIO()
        out.save(buf, deterministic_id=True, min_version=src.pdf_version)
        return buf.getvalue()
