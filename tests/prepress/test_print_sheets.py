"""Sheets: cards per paper, backs behind fronts for both flips, marks outside the bleed."""

from __future__ import annotations

import math
from pathlib import Path

import pikepdf
import pytest
from pypdf import PdfReader

from deckgen.errors import InputError
from deckgen.prepress.calibration import behind, targets_mm, write_calibration
from deckgen.prepress.imposition import SheetOptions, impose_sheets, paper_size
from deckgen.prepress.marks import mark_segments
from deckgen.prepress.pdfout import save_pdf
from deckgen.prepress.presets import Duplex
from deckgen.prepress.sheetlayout import compute_layout
from pixels import dark_centroid_mm, grey, render

PT = 72 / 25.4


@pytest.mark.parametrize(
    ("paper", "card", "bleed", "expected", "shared", "turned"),
    [
        ("A4", (63, 88), 3, (3, 3), True, False),  # sharing the bleed fits 9 instead of 6
        ("Letter", (63, 88), 3, (2, 4), True, True),  # turned and sharing: 8 instead of 4
        ("A3", (63, 88), 3, (3, 6), True, True),  # 18 instead of 16
        ("SRA3", (63, 88), 3, (3, 6), False, True),
        ("A4", (63, 88), 1, (3, 3), False, False),
        ("Letter", (63, 88), 1, (3, 3), True, False),
        ("Letter", (63.5, 88.9), 0.5, (3, 3), True, False),  # poker cards on Letter: 9, was 6
        ("A4", (59, 91), 1, (3, 3), False, False),
        ("SRA3", (59, 91), 1, (3, 7), False, True),  # 21 instead of 20
        ("A3", (70, 120), 3, (4, 3), True, False),
    ],
)
def test_cards_per_sheet(
    paper: str,
    card: tuple[float, float],
    bleed: float,
    expected: tuple[int, int],
    shared: bool,
    turned: bool,
) -> None:
    lay = compute_layout(paper_size(paper), card, bleed_mm=bleed, margin_mm=3)
    assert (lay.cols, lay.rows) == expected
    assert lay.shared_bleed is shared
    assert lay.rotated is turned
    gx0, gy0, gx1, gy1 = lay.grid_rect
    w, h = paper_size(paper)
    assert gx0 == pytest.approx(w - gx1)
    assert gy0 == pytest.approx(h - gy1)
    assert gx0 >= 3 + 2 - 1e-9
    assert gy0 >= 3 + 2 - 1e-9
    fronts = [lay.front_trim(s) for s in range(lay.per_sheet)]
    for i, a in enumerate(fronts):  # no two cards overlap
        for b in fronts[i + 1 :]:
            assert (
                a[2] <= b[0] + 1e-6
                or b[2] <= a[0] + 1e-6
                or a[3] <= b[1] + 1e-6
                or b[3] <= a[1] + 1e-6
            )


def test_no_marks_for_empty_slots(deck7: tuple[Path, Path], tmp_path: Path) -> None:
    """38 cards on A4 (9 a sheet): the last sheet holds 2 cards and marks only their cuts."""
    cards, back = deck7
    opts = SheetOptions(paper="A4", bleed_mm=1)
    imposed = impose_sheets(cards, back, opts)
    layout = imposed.layout
    assert layout.per_sheet == 9
    assert imposed.sheets == 5
    full = len(mark_segments(layout))
    two = len(mark_segments(layout, 2))
    assert two < full
    last_front = imposed.pdf.pages[-2]
    strokes = sum(1 for i in pikepdf.parse_content_stream(last_front) if str(i.operator) == "S")
    first_front = imposed.pdf.pages[0]
    full_strokes = sum(
        1 for i in pikepdf.parse_content_stream(first_front) if str(i.operator) == "S"
    )
    assert full_strokes == full
    assert strokes == two
    xs, ys = layout.trim_lines(2)
    assert len(xs) == 4
    assert len(ys) == 2


def test_card_too_big_for_paper() -> None:
    with pytest.raises(InputError, match="does not fit"):
        compute_layout(paper_size("A4"), (200, 300), bleed_mm=3)
    with pytest.raises(InputError, match="did you mean 'Letter'"):
        paper_size("leter")


def _centres_match(sheets: Path, opts: SheetOptions, page_pair: int, cards_on_sheet: int) -> None:
    imposed_layout = compute_layout(
        paper_size(opts.paper), (63, 88), bleed_mm=opts.bleed_mm or 3, gutter_mm=opts.gutter_mm
    )
    w, h = paper_size(opts.paper)
    front = render(sheets, 2 * page_pair)
    back = render(sheets, 2 * page_pair + 1)
    dx, dy = opts.back_offset_mm
    for slot in range(cards_on_sheet):
        x0, y0, x1, y1 = imposed_layout.front_trim(slot)
        found = dark_centroid_mm(front, ((x0 + x1) / 2, (y0 + y1) / 2), h)
        assert found is not None, f"no front in slot {slot}"
        # the card centre is where the layout says
        assert math.dist(found, ((x0 + x1) / 2, (y0 + y1) / 2)) < 0.1
        # where that point of the front lies on the back page, after the flip
        bx, by = behind(found, (w, h), opts.duplex)
        got = dark_centroid_mm(back, (bx + dx, by + dy), h)
        assert got is not None, f"no back behind slot {slot}"
        assert math.dist(got, (bx + dx, by + dy)) < 0.1, (slot, got, (bx, by))
    # and nothing behind an empty slot
    for slot in range(cards_on_sheet, imposed_layout.per_sheet):
        x0, y0, x1, y1 = imposed_layout.front_trim(slot)
        bx, by = behind(((x0 + x1) / 2, (y0 + y1) / 2), (w, h), opts.duplex)
        assert dark_centroid_mm(back, (bx, by), h) is None


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_backs_land_behind_fronts(deck7: tuple[Path, Path], tmp_path: Path, duplex: Duplex) -> None:
    cards, back = deck7
    opts = SheetOptions(paper="A4", duplex=duplex, bleed_mm=1.0)
    result = impose_sheets(cards, back, opts)
    assert (result.layout.per_sheet, result.sheets, result.cards) == (9, 5, 38)
    out = save_pdf(result.pdf, tmp_path / "sheets.pdf")
    assert len(PdfReader(out).pages) == 10
    _centres_match(out, opts, 0, 9)  # a full sheet
    _centres_match(out, opts, 4, 2)  # the last sheet: 2 cards, 7 empty slots


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_turned_cards_and_their_backs(
    deck7: tuple[Path, Path], tmp_path: Path, duplex: Duplex
) -> None:
    """On Letter with the full 3 mm bleed the cards lie turned (8 a sheet instead of 4),
    and every back still lands behind its front."""
    cards, back = deck7
    opts = SheetOptions(paper="Letter", duplex=duplex, bleed_mm=3.0)
    result = impose_sheets(cards, back, opts)
    assert result.layout.rotated
    assert result.layout.per_sheet == 8
    out = save_pdf(result.pdf, tmp_path / "sheets.pdf")
    _centres_match(out, opts, 0, 8)


def test_back_offset_moves_backs(deck7: tuple[Path, Path], tmp_path: Path) -> None:
    cards, back = deck7
    opts = SheetOptions(paper="A4", duplex="long", bleed_mm=1.0, back_offset_mm=(1.5, -2.0))
    out = save_pdf(impose_sheets(cards, back, opts).pdf, tmp_path / "sheets.pdf")
    _centres_match(out, opts, 0, 9)


def test_crop_marks_outside_bleed(deck7: tuple[Path, Path], tmp_path: Path) -> None:
    cards, back = deck7
    opts = SheetOptions(paper="A4", bleed_mm=1.0, marks="crop")
    result = impose_sheets(cards, back, opts)
    lay = result.layout
    segments = mark_segments(lay)
    xs, ys = lay.trim_lines()
    assert len(segments) == 2 * len(xs) + 2 * len(ys)
    cells = []
    for slot in range(lay.per_sheet):
        x0, y0, x1, y1 = lay.front_trim(slot)
        b = lay.bleed_mm
        cells.append((x0 - b, y0 - b, x1 + b, y1 + b))
    for sx0, sy0, sx1, sy1 in segments:
        for cx0, cy0, cx1, cy1 in cells:
            apart_x = max(sx0, sx1) < cx0 or min(sx0, sx1) > cx1
            apart_y = max(sy0, sy1) < cy0 or min(sy0, sy1) > cy1
            assert apart_x or apart_y, "a crop mark touches a card or its bleed"
    # the marks are really drawn: dark pixels on each vertical trim line above the grid
    out = save_pdf(result.pdf, tmp_path / "sheets.pdf")
    image = render(out, 0)
    _, _, _, gy1 = lay.grid_rect
    px = 300 / 25.4
    row = int((297 - gy1 - 2.0) * px)
    for x in xs:
        assert min(grey(image, (int(x * px) + d, row)) for d in (-2, -1, 0, 1, 2)) < 80
    # and the backs sheet carries no marks: its margin is blank
    back_image = render(out, 1)
    for x in xs:
        assert min(grey(back_image, (int((210 - x) * px) + d, row)) for d in (-2, 0, 2)) > 250


def test_cut_lines_never_cross_a_card(deck7: tuple[Path, Path], tmp_path: Path) -> None:
    cards, back = deck7
    plain = impose_sheets(cards, back, SheetOptions(paper="A4", marks="crop", gutter_mm=4))
    cut = impose_sheets(cards, back, SheetOptions(paper="A4", marks="cut", gutter_mm=4))
    assert plain.layout == cut.layout
    a = render(save_pdf(plain.pdf, tmp_path / "plain.pdf"), 0, dpi=100)
    b = render(save_pdf(cut.pdf, tmp_path / "cut.pdf"), 0, dpi=100)
    px = 100 / 25.4
    x0, y0, x1, y1 = cut.layout.front_trim(0)
    inner = (int(x0 * px) + 2, int((297 - y1) * px) + 2, int(x1 * px) - 2, int((297 - y0) * px) - 2)
    assert a.crop(inner).tobytes() == b.crop(inner).tobytes()  # the face is untouched
    # a cut line in the gutter between two columns
    gap_x = (x1 + cut.layout.front_trim(1)[0]) / 2
    assert min(grey(b, (int(x1 * px) + d, int(5 * px))) for d in (-1, 0, 1)) < 200
    assert grey(a, (int(gap_x * px), int(150 * px))) > 250


def test_sheet_boxes_and_single_embedding(tmp_path: Path) -> None:
    from PIL import Image

    from print_synthetic import deck_labels, make_deck_pdfs

    picture = Image.new("RGB", (300, 300), (200, 30, 30))
    labels = deck_labels(3)
    cards, back = make_deck_pdfs(
        tmp_path / "d", labels, pictures=dict.fromkeys(range(len(labels)), (picture, 25.0))
    )
    out = save_pdf(
        impose_sheets(cards, back, SheetOptions(paper="A3")).pdf, tmp_path / "sheets.pdf"
    )
    reader = PdfReader(out)
    a3 = [0.0, 0.0, 297 * PT, 420 * PT]
    for page in reader.pages:
        for name in ("mediabox", "cropbox", "bleedbox", "trimbox"):
            assert [float(v) for v in getattr(page, name)] == pytest.approx(a3, abs=0.01)
    with pikepdf.open(out) as pdf:
        images = [
            o
            for o in pdf.objects
            if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"
        ]
        assert len(images) == 1  # one picture on 12 cards: stored once
        assert str(pdf.Root.ViewerPreferences.PrintScaling) == "/None"


def test_calibration_page(tmp_path: Path) -> None:
    out = write_calibration(tmp_path / "calibration.pdf", paper="Letter", duplex="short")
    reader = PdfReader(out)
    assert len(reader.pages) == 2
    text = reader.pages[0].extract_text()
    assert "--back-offset" in text
    assert "short edge" in text
    size = paper_size("Letter")
    front, back = render(out, 0, dpi=200), render(out, 1, dpi=200)
    px = 200 / 25.4
    for point in targets_mm(size):
        x, y = point
        assert grey(front, (int(x * px), int((size[1] - y) * px))) < 128  # the cross
        bx, by = behind(point, size, "short")
        assert grey(back, (int(bx * px), int((size[1] - by) * px))) < 128  # the scale


def test_sheets_keep_deck_order_with_cover_and_imprint(
    deck7: tuple[Path, Path], tmp_path: Path
) -> None:
    cards, back = deck7
    result = impose_sheets(cards, back, SheetOptions(paper="A3"))
    out = save_pdf(result.pdf, tmp_path / "sheets.pdf")
    reader = PdfReader(out)
    fronts = [reader.pages[i].extract_text() for i in range(0, len(reader.pages), 2)]
    words = " ".join(fronts).split()
    assert words[0] == "cover"
    assert words[-1] == "imprint"
    assert words[1:4] == ["0-0", "0-1", "0-2"]
    assert len(words) == 38
    assert all(not reader.pages[i].extract_text().strip() for i in range(1, len(reader.pages), 2))
