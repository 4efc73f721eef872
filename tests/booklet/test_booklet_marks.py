"""Crop and fold marks of the imposed booklet sheets, read from the PDF as a press reads
them (issue 23, finding 4): every mark line's end points inside the paper's printable
area and beyond the bleed, in registration colour (the Separation ``All``)."""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest

from deckgen.booklet.imposition import impose_saddle_stitch
from deckgen.booklet.paper import plan_sheet
from deckgen.deck.geometry import MM
from deckgen.errors import InputError
from deckgen.prepress.sheetlayout import MARK_EDGE_MM, MARK_MIN_MM, MARK_OFFSET_MM

Segment = tuple[float, float, float, float]


def bled_pages(pages: int, w_mm: float, h_mm: float, bleed_mm: float) -> bytes:
    """A PDF of ``pages`` pages of ``w_mm`` x ``h_mm`` trimmed, each with ``bleed_mm`` of
    red bleed around it (MediaBox) and its TrimBox, like the print edition's pages."""
    pdf = pikepdf.new()
    b = bleed_mm * MM
    w, h = w_mm * MM + 2 * b, h_mm * MM + 2 * b
    for _ in range(pages):
        content = f"q 1 0 0 rg 0 0 {w:.3f} {h:.3f} re f Q".encode()
        page = pikepdf.Dictionary(
            Type=pikepdf.Name.Page,
            MediaBox=[0, 0, w, h],
            TrimBox=[b, b, w - b, h - b],
            Contents=pdf.make_stream(content),
        )
        pdf.pages.append(pikepdf.Page(page))
    buf = io.BytesIO()
    pdf.save(buf)
    return buf.getvalue()


def stroked_lines(page: pikepdf.Page) -> list[tuple[str, str, Segment]]:
    """Every ``m .. l S`` line of the sheet's own content stream: (stroke colour space
    operator, its name, end points in pt)."""
    lines = []
    space, start = "/DeviceGray", (0.0, 0.0)  # the PDF default stroke colour
    for instruction in pikepdf.parse_content_stream(page):
        operands, name = list(instruction.operands), str(instruction.operator)
        if name == "CS":
            space = str(operands[0])
        elif name in ("G", "K", "RG"):
            space = {"G": "/DeviceGray", "K": "/DeviceCMYK", "RG": "/DeviceRGB"}[name]
        elif name == "m":
            start = (float(operands[0]), float(operands[1]))
        elif name == "l":
            lines.append((space, name, (*start, float(operands[0]), float(operands[1]))))
    return lines


def check_marks(pdf: bytes, bleed_mm: float) -> int:
    """Assert every mark of every sheet is where and in what colour a press expects; the
    number of marks on a sheet."""
    counts = set()
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        for k, page in enumerate(doc.pages):
            paper_w, paper_h = (float(v) / MM for v in page.mediabox[2:])
            tx0, ty0, tx1, ty1 = (float(v) / MM for v in page.TrimBox)
            lines = stroked_lines(page)
            counts.add(len(lines))
            spaces = page.Resources.get("/ColorSpace", pikepdf.Dictionary())
            for space, _, seg in lines:
                assert space in spaces, f"sheet {k}: a mark in {space}, not registration colour"
                cs = spaces[space]
                assert list(cs)[:2] == [pikepdf.Name.Separation, pikepdf.Name.All], (
                    f"sheet {k}: marks in {cs!r}, not the Separation All (every ink)"
                )
                for x, y in ((seg[0], seg[1]), (seg[2], seg[3])):
                    x, y = x / MM, y / MM
                    edge = min(x, y, paper_w - x, paper_h - y)
                    assert edge >= MARK_EDGE_MM - 0.01, (
                        f"sheet {k}: a mark ends {edge:.2f} mm from the paper edge "
                        f"(a press prints no closer than {MARK_EDGE_MM} mm)"
                    )
                    # distance from the trimmed spread (outside it: the larger overshoot)
                    off = max(tx0 - x, x - tx1, ty0 - y, y - ty1)
                    assert off >= min(MARK_OFFSET_MM, bleed_mm + 0.5) - 0.01, (
                        f"sheet {k}: a mark point {off:.2f} mm from the trim, inside the offset"
                    )
                    assert off >= bleed_mm + 0.5 - 0.01, f"sheet {k}: a mark on the bleed"
                length = ((seg[2] - seg[0]) ** 2 + (seg[3] - seg[1]) ** 2) ** 0.5 / MM
                assert length >= MARK_MIN_MM - 0.01, f"sheet {k}: a {length:.2f} mm mark"
    (count,) = counts
    return count


def test_a5_press_booklet_marks_on_a3() -> None:
    """The A5 print edition (3 mm bleed): SRA4 has only 4.5 mm beyond the bleed above and
    below, so its sheets go on A3, with full marks in registration colour."""
    pdf = impose_saddle_stitch(bled_pages(8, 148, 210, 3), need_marks=True)
    assert check_marks(pdf, 3.0) == 10  # two per corner, one above and below the fold
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        assert [float(v) / MM for v in doc.pages[0].mediabox[2:]] == pytest.approx([420, 297])


def test_a5_press_booklet_on_sra4_is_refused_or_left_without_marks() -> None:
    """Asked for SRA4, the print edition is refused (naming A3); imposed there without
    marks required, no mark runs into the unprintable edge (it used to, 0.47 mm)."""
    with pytest.raises(InputError, match="does not fit on SRA4") as err:
        plan_sheet(148, 210, bleed_mm=3, paper="sra4", need_marks=True)
    assert "--paper a3" in (err.value.fix or "")
    pdf = impose_saddle_stitch(bled_pages(4, 148, 210, 3), paper="sra4")
    assert check_marks(pdf, 3.0) == 0


def test_a5_without_bleed_on_sra4_gets_shortened_marks() -> None:
    """An A5 booklet without bleed on SRA4 has 7.5 mm above and below: marks 2 mm long,
    starting 2.5 mm from the trim, stopping 3 mm inside the paper edge."""
    plan = plan_sheet(148, 210, paper="sra4")
    assert plan.end_marks == pytest.approx((2.5, 4.5))
    assert check_marks(impose_saddle_stitch(bled_pages(4, 148, 210, 0), paper="sra4"), 0) == 10


@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_a6_on_a4_marks(bleed: float) -> None:
    pdf = impose_saddle_stitch(bled_pages(8, 105, 148, bleed), need_marks=True)
    assert check_marks(pdf, bleed) == 10
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        assert [float(v) / MM for v in doc.pages[0].mediabox[2:]] == pytest.approx([297, 210])


def test_real_press_booklet_sheets(card_domino_booklets: dict[str, Path], tmp_path: Path) -> None:
    """The card-domino print sheets as written (after the CMYK PDF/X-4 finishing): marks
    in registration colour, where a press prints; rasterised, every ink is on them."""
    path = card_domino_booklets["booklet-en-print.pdf"]
    assert check_marks(path.read_bytes(), 3.0) == 10
    page = pdfium.PdfDocument(path)[0]
    image = page.render(scale=300 / 72).to_pil().convert("RGB")
    image.save(tmp_path / "sheet.png")
    with pikepdf.open(path) as doc:
        trim = [float(v) / MM for v in doc.pages[0].TrimBox]
        sheet_h = float(doc.pages[0].mediabox[3]) / MM
    # the fold mark above the spread, halfway along: black (all inks)
    spans = plan_sheet(148, 210, bleed_mm=3, need_marks=True).end_marks
    assert spans is not None
    x = (trim[0] + trim[2]) / 2
    y = sheet_h - trim[3] - sum(spans) / 2
    px = [image.getpixel((round(x * 300 / 25.4) + d, round(y * 300 / 25.4))) for d in (-1, 0, 1)]
    assert min(sum(p) for p in px) < 60, f"no dark fold mark at ({x:.1f}, {y:.1f}) mm: {px}"


def test_the_same_pages_give_the_same_sheets() -> None:
    pages = bled_pages(6, 148, 210, 3)
    first = impose_saddle_stitch(pages, need_marks=True)
    assert impose_saddle_stitch(pages, need_marks=True) == first
