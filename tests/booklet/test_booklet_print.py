"""The booklet's print edition, read as a print shop's prepress desk reads it.

Page boxes with pikepdf, the sheet size of the imposed file, Ghostscript with
``-dPDFSTOPONERROR``, and the crop marks and bleed found in the rasterised sheet.
"""

from __future__ import annotations

import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
import typer
from typer.testing import CliRunner

from deckgen.booklet.paper import MARK_LENGTH_MM, MARK_OFFSET_MM, plan_sheet
from deckgen.deck.geometry import MM
from deckgen.errors import InputError

A5 = (148 * MM, 210 * MM)
BLEED = 3 * MM
COVER_RGB = (0x7A, 0x1F, 0x2B)


@pytest.fixture(scope="module")
def press(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The German card-domino booklet with its print edition, imposed (made once)."""
    from deckgen.booklet.make import make_booklets
    from deckgen.booklet.printedition import PrintOptions

    out = tmp_path_factory.mktemp("press")
    printing = PrintOptions(edition=True, finish=_mark_finished)
    paths = make_booklets("card-domino", out, langs=("de",), impose=True, printing=printing)
    return {p.name: p for p in paths}


def _mark_finished(pdf: bytes) -> bytes:
    """A stand-in for the prepress conversion (CMYK, PDF/X): it labels what it was given."""
    import io

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        doc.docinfo["/DeckgenFinished"] = f"{len(doc.pages)} pages"
        buf = io.BytesIO()
        doc.save(buf)
        return buf.getvalue()


def test_finishing_hook_gets_the_files_for_the_press(press: dict[str, Path]) -> None:
    """``PrintOptions.finish`` (where CMYK and PDF/X plug in) sees the press edition and
    the imposed sheets, each complete, and not the screen booklet."""
    pages = {}
    for name, path in press.items():
        with pikepdf.open(path) as pdf:
            pages[name] = (str(pdf.docinfo.get("/DeckgenFinished", "")), len(pdf.pages))
    assert pages["booklet-de.pdf"][0] == ""
    for name in ("booklet-de-press.pdf", "booklet-de-print.pdf"):
        label, count = pages[name]
        assert label == f"{count} pages"


def _box(page: pikepdf.Page, name: str) -> list[float]:
    return [float(v) for v in page.obj[name]]


def test_files_written(press: dict[str, Path]) -> None:
    assert sorted(press) == ["booklet-de-press.pdf", "booklet-de-print.pdf", "booklet-de.pdf"]


def test_every_press_page_has_bleed_and_boxes(press: dict[str, Path]) -> None:
    with pikepdf.open(press["booklet-de-press.pdf"]) as pdf:
        assert len(pdf.pages) >= 8
        for page in pdf.pages:
            media, trim, bleed = (_box(page, n) for n in ("/MediaBox", "/TrimBox", "/BleedBox"))
            assert trim[2] - trim[0] == pytest.approx(A5[0], abs=0.05)
            assert trim[3] - trim[1] == pytest.approx(A5[1], abs=0.05)
            for k, sign in enumerate((-1, -1, 1, 1)):
                assert bleed[k] == pytest.approx(trim[k] + sign * BLEED, abs=0.05)
                assert media[k] == pytest.approx(bleed[k], abs=0.05)
        assert pdf.Root.ViewerPreferences.PrintScaling == pikepdf.Name("/None")


def _pixel(image: object, x_mm: float, y_mm_from_top: float, dpi: float) -> tuple[int, ...]:
    from PIL import Image

    assert isinstance(image, Image.Image)
    px = image.convert("RGB").getpixel(
        (round(x_mm * dpi / 25.4), round(y_mm_from_top * dpi / 25.4))
    )
    assert isinstance(px, tuple)
    return px


def _near(rgb: tuple[int, ...], want: tuple[int, int, int], tol: int = 12) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(rgb, want, strict=True))


def test_cover_colour_runs_into_the_bleed(press: dict[str, Path]) -> None:
    doc = pdfium.PdfDocument(press["booklet-de-press.pdf"])
    dpi = 100
    cover = doc[0].render(scale=dpi / 72).to_pil()
    w_mm, h_mm = 154.0, 216.0  # A5 and 3 mm bleed on each side
    assert cover.size == (
        pytest.approx(w_mm * dpi / 25.4, abs=1.5),
        pytest.approx(h_mm * dpi / 25.4, abs=1.5),
    )
    for x, y in ((1, 1), (w_mm - 1, 1), (1, h_mm - 1), (w_mm - 1, h_mm - 1), (1.5, h_mm / 2)):
        assert _near(_pixel(cover, x, y, dpi), COVER_RGB), (x, y)
    inner = doc[2].render(scale=dpi / 72).to_pil()
    assert _near(_pixel(inner, 1, h_mm / 2, dpi), (255, 255, 255), 3)  # text pages: white


def test_imposed_print_edition_is_on_sra4_with_marks(press: dict[str, Path]) -> None:
    with pikepdf.open(press["booklet-de-print.pdf"]) as pdf:
        prefs = pdf.Root.ViewerPreferences
        assert prefs.Duplex == pikepdf.Name.DuplexFlipShortEdge
        assert prefs.PrintScaling == pikepdf.Name("/None")
        for page in pdf.pages:
            media, trim, bleed = (_box(page, n) for n in ("/MediaBox", "/TrimBox", "/BleedBox"))
            assert media == pytest.approx([0, 0, 320 * MM, 225 * MM], abs=0.05)  # SRA4
            assert trim[2] - trim[0] == pytest.approx(2 * A5[0], abs=0.1)
            assert trim[3] - trim[1] == pytest.approx(A5[1], abs=0.1)
            assert (trim[0] + trim[2]) / 2 == pytest.approx(media[2] / 2, abs=0.05)  # centred
            assert bleed == pytest.approx(
                [trim[0] - BLEED, trim[1] - BLEED, trim[2] + BLEED, trim[3] + BLEED], abs=0.05
            )


def test_crop_marks_and_bleed_on_the_rasterised_sheet(press: dict[str, Path]) -> None:
    dpi = 300
    with pikepdf.open(press["booklet-de-print.pdf"]) as pdf:
        trim = [v / MM for v in _box(pdf.pages[0], "/TrimBox")]
        sheet_h = float(pdf.pages[0].mediabox[3]) / MM
    image = pdfium.PdfDocument(press["booklet-de-print.pdf"])[0].render(scale=dpi / 72).to_pil()
    x0, x1 = trim[0], trim[2]
    top, bottom = sheet_h - trim[3], sheet_h - trim[1]  # from the top of the image
    fold = (x0 + x1) / 2
    along = MARK_OFFSET_MM + MARK_LENGTH_MM / 2

    def dark(x: float, y: float) -> bool:
        # a 0.3 pt line is about 1 pixel at 300 dpi: look at the pixel and its neighbours
        return any(
            sum(_pixel(image, x + dx * 0.085, y + dy * 0.085, dpi)) < 300
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
        )

    for cx in (x0, x1):
        for cy, sy in ((top, -1), (bottom, 1)):
            sx = -1 if cx == x0 else 1
            assert dark(cx + sx * along, cy), ("horizontal mark", cx, cy)
            assert dark(cx, cy + sy * along), ("vertical mark", cx, cy)
            corner = _pixel(image, cx + sx * 4.5, cy + sy * 4.5, dpi)  # beyond the bleed,
            assert _near(corner, (255, 255, 255), 3)  # between the marks: paper
    assert dark(fold, top - along)
    assert dark(fold, bottom + along)
    # sheet 1 shows the back cover page | the cover: the cover's colour runs 3 mm past
    # its outer edge and stops at the trim on the other sides of the spread's left page
    assert _near(_pixel(image, x1 + 1.5, (top + bottom) / 2, dpi), COVER_RGB)
    assert _near(_pixel(image, x1 + 4, (top + bottom) / 2, dpi), (255, 255, 255), 3)


def test_impose_alone_implies_the_print_edition(card_domino_booklets: dict[str, Path]) -> None:
    """``--impose`` without ``--print`` used to give an A4 sheet with a 296 mm spread, no
    bleed, RGB and no marks, the red cover running to the paper's edge: now imposed
    sheets are always made from the print edition (bleed, marks, CMYK)."""
    assert "booklet-de-press.pdf" in card_domino_booklets
    with pikepdf.open(card_domino_booklets["booklet-de-press.pdf"]) as press:
        assert len(press.pages) % 4 == 0
    with pikepdf.open(card_domino_booklets["booklet-de-print.pdf"]) as pdf:
        assert "/OutputIntents" in pdf.Root  # PDF/X-4, CMYK
        for page in pdf.pages:
            media, trim, bleed = (_box(page, k) for k in ("/MediaBox", "/TrimBox", "/BleedBox"))
            assert media[2] > 2 * 148 * MM + 2 * 10 * MM  # room for bleed and marks
            assert bleed[0] == pytest.approx(trim[0] - BLEED, abs=0.05)
            assert bleed[2] == pytest.approx(trim[2] + BLEED, abs=0.05)
            content = b"".join(c.read_bytes() for c in [page.obj.Contents])
            assert b" l S" in content  # crop and fold marks
        assert pdf.Root.ViewerPreferences.Duplex == pikepdf.Name.DuplexFlipShortEdge


def test_a6_booklet_on_a4_gets_crop_marks() -> None:
    plan = plan_sheet(105, 148)
    assert plan.paper.name == "a4"
    assert plan.marks


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript is installed by sysdeps")
def test_ghostscript_reads_every_file_without_repairs(
    press: dict[str, Path], card_domino_booklets: dict[str, Path]
) -> None:
    files = [*press.values(), card_domino_booklets["booklet-en-print.pdf"]]
    for path in files:
        run = subprocess.run(
            [
                "gs",
                "-q",
                "-dPDFSTOPONERROR",
                "-dNOPAUSE",
                "-dBATCH",
                "-sDEVICE=nullpage",
                str(path),
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert run.returncode == 0, (path.name, run.stdout[-500:], run.stderr[-500:])
        assert "error" not in (run.stdout + run.stderr).lower(), (path.name, run.stdout[-500:])


def test_page_order_on_the_print_sheets(press: dict[str, Path]) -> None:
    from deckgen.booklet.imposition import padded_sequence, sheet_sides

    doc = pdfium.PdfDocument(press["booklet-de-print.pdf"])
    pages = len(pdfium.PdfDocument(press["booklet-de.pdf"]))
    sequence = padded_sequence(pages)  # e.g. 10 pages: (10|1) (2|-) (-|3) (4|9) (8|5) (6|7)
    assert len(pdfium.PdfDocument(press["booklet-de-press.pdf"])) == len(sequence)
    sides = sheet_sides(len(sequence))
    assert len(doc) == len(sides)
    for k, (left, right) in enumerate(sides):
        w, h = doc[k].get_size()
        text = doc[k].get_textpage()
        for (x0, x1), position in (((0, w / 2), left), ((w / 2, w), right)):
            number = sequence[position - 1]
            found = text.get_text_bounded(x0, 0, x1, h)
            if number is None:
                assert not found.strip(), (k, position)
            elif number > 1:
                assert f"Seite {number} von {pages}" in found, (k, number)


def test_paper_too_small_is_a_clear_error() -> None:
    with pytest.raises(InputError, match=r"does not fit on A4 .* bleed and crop marks"):
        plan_sheet(148, 210, bleed_mm=3, paper="a4", need_marks=True)
    with pytest.raises(InputError, match="no paper 'b5'"):
        plan_sheet(148, 210, paper="b5")


@pytest.fixture
def app() -> typer.Typer:
    from deckgen.cli import app as deckgen_app

    return deckgen_app


def test_cli_print_edition_options(app: typer.Typer, tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "out"
    bad = runner.invoke(
        app,
        [
            "rules",
            "booklet",
            "card-domino",
            "--print",
            "--impose",
            "--paper",
            "a4",
            "--out",
            str(out),
        ],
    )
    assert bad.exit_code == 2, bad.output
    assert "does not fit on A4" in bad.stderr
    assert "--paper sra4" in bad.stderr
    assert not out.exists()
    alone = runner.invoke(
        app, ["rules", "booklet", "card-domino", "--paper", "a3", "--out", str(out)]
    )
    assert alone.exit_code == 2
    assert "--impose" in alone.stderr
    assert not out.exists()


def _colours_used(pdf_path: Path) -> set[tuple[str, tuple[float, ...]]]:
    """("text" | "line", RGB) for every text shown and every line stroked, following the
    graphics state through q/Q and into form XObjects (the diagrams)."""
    found: set[tuple[str, tuple[float, ...]]] = set()

    def walk(stream: pikepdf.Object, resources: pikepdf.Object) -> None:
        fill: tuple[float, ...] = (0.0,)
        stroke: tuple[float, ...] = (0.0,)
        stack: list[tuple[tuple[float, ...], tuple[float, ...]]] = []
        for instruction in pikepdf.parse_content_stream(stream):
            operands, op = list(instruction.operands), str(instruction.operator)
            nums = tuple(round(float(x), 4) for x in operands if isinstance(x, int | Decimal))
            if op == "q":
                stack.append((fill, stroke))
            elif op == "Q" and stack:
                fill, stroke = stack.pop()
            elif op in ("rg", "g"):
                fill = nums
            elif op in ("RG", "G"):
                stroke = nums
            elif op in ("Tj", "TJ", "'", '"'):
                found.add(("text", fill))
            elif op in ("S", "s", "B", "b", "B*", "b*"):
                found.add(("line", stroke))
            elif op == "Do":
                xobject = resources.XObject[str(operands[0])]
                if xobject.get("/Subtype") == pikepdf.Name.Form:
                    walk(xobject, xobject.get("/Resources", resources))

    with pikepdf.open(pdf_path) as pdf:
        for page in pdf.pages:
            walk(page.obj, page.Resources)
    return found


def test_black_and_grey_text_and_lines_are_neutral(card_domino_booklets: dict[str, Path]) -> None:
    """The booklet side of the K-only rule: every black or dark-grey text and line is a
    neutral grey (R = G = B), which a CMYK conversion maps to black ink alone; a warm
    near-black such as #1d1d1b would become a four-colour mix."""
    used = _colours_used(card_domino_booklets["booklet-de.pdf"])
    assert ("text", (0.102, 0.102, 0.102)) in used  # body text, #1a1a1a
    for kind, colour in used:
        rgb = colour * 3 if len(colour) == 1 else colour
        if len(rgb) != 3 or max(rgb) >= 0.6:
            continue  # light colours and the cover's cream are not black text
        if max(rgb) - min(rgb) < 0.06:  # meant as black or grey ...
            assert max(rgb) - min(rgb) < 0.002, (kind, rgb)  # ... so exactly neutral
