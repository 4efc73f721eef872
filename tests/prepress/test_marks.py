"""Crop marks a press can print: inside the paper's printable area (3 mm from the edge),
3 mm from the trim and 5 mm long where there is room (shorter, with a note, where there
is not), in registration colour (a Separation named All), read back from the PDF."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pikepdf
import pytest

from deckgen.prepress.imposition import SheetOptions, impose_sheets
from deckgen.prepress.marks import marks_note

MM = 72 / 25.4


def _stroked_lines(pdf: pikepdf.Pdf, page: pikepdf.Page) -> list[tuple[str, tuple[float, ...]]]:
    """Every stroked straight line drawn by the page's own content (not inside the card
    forms), with the stroke colour space it was drawn in, in mm."""
    spaces = page.obj.Resources.get("/ColorSpace", pikepdf.Dictionary())
    out = []
    space = "/DeviceGray"
    stack: list[str] = []
    start: tuple[float, float] | None = None
    path: list[tuple[float, ...]] = []
    instructions: list[Any] = list(pikepdf.parse_content_stream(page))
    for operands, operator in instructions:
        op = str(operator)
        if op == "q":
            stack.append(space)
        elif op == "Q":
            space = stack.pop()
        elif op == "CS":
            name = str(operands[0])
            family = spaces[name] if name in spaces else pikepdf.Name(name)
            space = f"{family[0]}:{family[1]}" if isinstance(family, pikepdf.Array) else str(family)
        elif op in ("K", "G", "RG"):
            space = {"K": "/DeviceCMYK", "G": "/DeviceGray", "RG": "/DeviceRGB"}[op]
        elif op == "m":
            start = (float(operands[0]) / MM, float(operands[1]) / MM)
        elif op == "l" and start is not None:
            end = (float(operands[0]) / MM, float(operands[1]) / MM)
            path.append((*start, *end))
            start = end
        elif op == "S":
            out += [(space, seg) for seg in path]
            path = []
        elif op in ("n", "f", "f*", "B"):
            path = []
    return out


@pytest.mark.parametrize(
    ("paper", "size_mm"),
    [("A4", (210.0, 297.0)), ("Letter", (215.9, 279.4)), ("SRA3", (320.0, 450.0))],
)
def test_marks_stay_printable_and_are_registration(
    deck7: tuple[Path, Path], paper: str, size_mm: tuple[float, float]
) -> None:
    cards, back = deck7  # poker cards, 3 mm bleed
    options = SheetOptions(paper=paper, bleed_mm=1.0, marks="crop")
    imposed = impose_sheets(cards, back, options)
    pdf = imposed.pdf
    page = pdf.pages[0]
    lines = _stroked_lines(pdf, page)
    assert lines, "no crop marks found"
    width, height = size_mm
    lay = imposed.layout
    gx0, gy0, gx1, gy1 = lay.grid_rect
    kept = lay.bleed_mm
    for space, (x0, y0, x1, y1) in lines:
        assert space == "/Separation:/All", f"a mark is drawn in {space}, not registration"
        for x in (x0, x1):
            assert 3.0 - 1e-3 <= x <= width - 3.0 + 1e-3, f"mark at x={x:.2f} mm near the edge"
        for y in (y0, y1):
            assert 3.0 - 1e-3 <= y <= height - 3.0 + 1e-3, f"mark at y={y:.2f} mm near the edge"
        length = abs(x1 - x0) + abs(y1 - y0)
        assert length >= 2.0 - 1e-3, f"a mark of {length:.2f} mm is too short to cut by"
        # outside the grid's bleed, at least 0.5 mm
        outside = max(gx0 - max(x0, x1), min(x0, x1) - gx1, gy0 - max(y0, y1), min(y0, y1) - gy1)
        assert outside >= 0.5 - 1e-3, f"a mark touches the bleed ({outside:.2f} mm)"
    resources = pdf.pages[0].obj.Resources.ColorSpace
    separation = next(iter(resources.values()))
    assert separation[0] == "/Separation"
    assert separation[1] == "/All"
    note = marks_note(lay, margin_mm=options.margin_mm)
    if paper == "SRA3":  # room for full marks: 3 mm from the trim, 5 mm long
        assert note is None
        for _, (x0, y0, x1, y1) in lines:
            assert abs(x1 - x0) + abs(y1 - y0) == pytest.approx(5.0, abs=1e-3)
            if x0 == x1:  # a vertical mark above or below the grid
                near = min(abs(y0 - (gy1 - kept)), abs(y1 - (gy0 + kept)))
                assert near == pytest.approx(3.0, abs=1e-3)
    if paper == "Letter":  # 9 cards leave 6.35 mm above and below: shortened, and said
        assert note is not None
        assert "shortened" in note


def test_per_card_file_marks_are_registration(
    meinspiel_deck: tuple[Path, Path], tmp_path: Path
) -> None:
    from deckgen.prepress.cardfiles import split_cards
    from deckgen.prepress.cardpages import open_card_pdfs

    cards, back = meinspiel_deck
    targets = [tmp_path / f"{i:03d}.pdf" for i in range(30)]
    split_cards(
        open_card_pdfs(cards, back),
        targets,
        tmp_path / "back.pdf",
        crop_marks=True,
        colour_space="cmyk",
    )
    with pikepdf.open(targets[0]) as pdf:
        page = pdf.pages[0]
        lines = _stroked_lines(pdf, page)
        w, h = (float(v) / MM for v in page.obj.MediaBox[2:])
        assert len(lines) == 8
        for space, (x0, y0, x1, y1) in lines:
            assert space == "/Separation:/All"
            assert min(x0, x1, y0, y1) >= 3.0 - 1e-3
            assert max(x0, x1) <= w - 3.0 + 1e-3
            assert max(y0, y1) <= h - 3.0 + 1e-3
            assert abs(x1 - x0) + abs(y1 - y0) == pytest.approx(5.0, abs=1e-3)


def test_room_for_marks_keeps_nine_poker_cards_on_a4_and_letter() -> None:
    """Marks inside the printable area cost no cards: without a preset, nine poker cards
    still fit on A4 and on US Letter (keeping 0.5 mm of bleed there)."""
    from deckgen.prepress.imposition import layout_for
    from deckgen.prepress.printout import PrintOptions, _sheet_options

    for paper in ("A4", "Letter"):
        options = _sheet_options(PrintOptions(sheets=paper), (63.5, 88.9), 3.175)
        layout = layout_for((63.5, 88.9), 3.175, options)
        assert layout.per_sheet == 9, paper
        assert mark_span_ok(layout, options.margin_mm), paper


def mark_span_ok(layout: object, margin_mm: float) -> bool:
    from deckgen.prepress.marks import mark_segments
    from deckgen.prepress.sheetlayout import SheetLayout

    assert isinstance(layout, SheetLayout)
    segments = mark_segments(layout, margin_mm=margin_mm)
    return bool(segments) and all(
        min(x0, x1, y0, y1) >= 3.0 - 1e-6
        and max(x0, x1) <= layout.paper_w_mm - 3.0 + 1e-6
        and max(y0, y1) <= layout.paper_h_mm - 3.0 + 1e-6
        for x0, y0, x1, y1 in segments
    )
