"""The booklet's print edition in CMYK, read as a print shop reads it.

``deckgen rules booklet --print --impose`` is run as a user runs it; its press edition
and imposed sheets are then checked with the independent PDF/X requirement checks of
``tests/helpers/prepress/pdfx_checks.py``, Ghostscript with ``-dPDFSTOPONERROR``, and
Ghostscript separations (``tiffsep``): under the body text the cyan, magenta and yellow
plates carry no ink, the black plate all of it.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import cast

import pikepdf
import pypdfium2 as pdfium
import pytest
import typer
from typer.testing import CliRunner

from pdfx_checks import pdfx_problems
from separations import plates

BODY = "Try to be the first to lay every card"
"""A line of body text (page 3 of the English card-domino booklet)."""
PRESS_FILES = ("booklet-en-press.pdf", "booklet-en-print.pdf")


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    from deckgen.cli import app as deckgen_app

    return deckgen_app


def _run(app: typer.Typer, out: Path, *extra: str) -> dict[str, Path]:
    args = ["rules", "booklet", "card-domino", "--lang", "en", "--out", str(out), *extra]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return {p.name: p for p in out.iterdir() if p.suffix == ".pdf"}


@pytest.fixture(scope="module")
def cmyk(app: typer.Typer, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The English booklet with its print edition, imposed, as the CLI writes it."""
    return _run(app, tmp_path_factory.mktemp("cmyk"), "--print", "--impose")


def test_press_files_are_pdfx4(cmyk: dict[str, Path]) -> None:
    for name in PRESS_FILES:
        assert pdfx_problems(cmyk[name], "x4") == [], name
        with pikepdf.open(cmyk[name]) as pdf:
            assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-4"
            assert str(pdf.docinfo["/Title"]).startswith("Card Domino")
            (intent,) = pdf.Root.OutputIntents
            assert str(intent.OutputConditionIdentifier) == "FOGRA39"
            assert pdf.Root.ViewerPreferences.PrintScaling == pikepdf.Name("/None")
    with pikepdf.open(cmyk["booklet-en-print.pdf"]) as pdf:
        assert pdf.Root.ViewerPreferences.Duplex == pikepdf.Name.DuplexFlipShortEdge
    with pikepdf.open(cmyk["booklet-en.pdf"]) as pdf:  # the screen booklet stays RGB
        assert "/OutputIntents" not in pdf.Root
        assert "/GTS_PDFXVersion" not in pdf.docinfo


def test_no_rgb_left_in_the_press_files(cmyk: dict[str, Path]) -> None:
    """Every colour operator and every picture of the press files is CMYK or grey."""
    for name in PRESS_FILES:
        with pikepdf.open(cmyk[name]) as pdf:
            for obj in pdf.objects:
                if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == pikepdf.Name.Image:
                    assert obj.get("/ColorSpace") in (
                        pikepdf.Name.DeviceCMYK,
                        pikepdf.Name.DeviceGray,
                    ), (name, obj.objgen)
            for page in pdf.pages:
                for instruction in pikepdf.parse_content_stream(page):
                    assert str(instruction.operator) not in ("rg", "RG"), name


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript is installed by sysdeps")
def test_ghostscript_reads_the_press_files_without_errors(cmyk: dict[str, Path]) -> None:
    for name in PRESS_FILES:
        run = subprocess.run(
            [
                "gs",
                "-q",
                "-dPDFSTOPONERROR",
                "-dNOPAUSE",
                "-dBATCH",
                "-sDEVICE=nullpage",
                str(cmyk[name]),
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert run.returncode == 0, (name, run.stderr[-500:])
        assert "error" not in (run.stdout + run.stderr).lower(), (name, run.stdout[-500:])


def _text_box(path: Path, phrase: str) -> tuple[int, tuple[float, float, float, float]]:
    """The 1-based page showing ``phrase`` and its box (left, top, right, bottom in pt
    from the page's top left corner)."""
    doc = pdfium.PdfDocument(path)
    for number in range(len(doc)):
        page = doc[number]
        found = page.get_textpage().search(phrase).get_next()
        if found is None:
            continue
        start, count = found
        boxes = [page.get_textpage().get_charbox(i) for i in range(start, start + count)]
        height = page.get_height()
        left = min(b[0] for b in boxes)
        right = max(b[2] for b in boxes)
        return number + 1, (
            left,
            height - max(b[3] for b in boxes),
            right,
            height - min(b[1] for b in boxes),
        )
    raise AssertionError(f"'{phrase}' not found in {path.name}")


@pytest.mark.parametrize("name", PRESS_FILES)
def test_body_text_is_black_ink_only(cmyk: dict[str, Path], name: str, tmp_path: Path) -> None:
    """Separated as a RIP does, the body text is on the black plate alone."""
    dpi = 300
    page, (left, top, right, bottom) = _text_box(cmyk[name], BODY)
    inks = plates(cmyk[name], page, tmp_path, dpi=dpi)
    box = (
        round(left * dpi / 72),
        round(top * dpi / 72),
        round(right * dpi / 72),
        round(bottom * dpi / 72),
    )
    black = inks["Black"].crop(box)
    assert cast("tuple[int, int]", black.getextrema())[1] > 200  # the letters: over 78 % black ink
    assert sum(1 for v in black.tobytes() if v > 128) > 500  # many pixels of them
    for plate in ("Cyan", "Magenta", "Yellow"):
        extrema = cast("tuple[int, int]", inks[plate].crop(box).getextrema())
        assert extrema[1] <= 2, plate  # under 1 % ink


def test_rgb_option_keeps_the_print_edition_in_rgb(app: typer.Typer, tmp_path: Path) -> None:
    written = _run(app, tmp_path / "rgb", "--print", "--rgb")
    with pikepdf.open(written["booklet-en-press.pdf"]) as pdf:
        assert "/OutputIntents" not in pdf.Root
        assert "/GTS_PDFXVersion" not in pdf.docinfo
        ops = {str(i.operator) for p in pdf.pages for i in pikepdf.parse_content_stream(p)}
        assert "rg" in ops


def test_rgb_without_print_is_a_clear_error(app: typer.Typer, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app, ["rules", "booklet", "card-domino", "--rgb", "--out", str(out)]
    )
    assert result.exit_code == 2
    assert "--print" in result.stderr
    assert "Traceback" not in result.output
    assert not out.exists()
