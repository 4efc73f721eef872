"""The print edition's colours are converted once per booklet language.

The imposed sheets (``--impose``) are made from the press edition as written, whose
pages are CMYK already, and take only the PDF/X step. The second way of making them,
as before (impose the pages as laid out, then convert the sheets), must give the same
pixels on every sheet side.
"""

from __future__ import annotations

import io

import numpy as np
import pikepdf
import pypdfium2 as pdfium
import pytest

from deckgen.booklet.html import page_format
from deckgen.booklet.imposition import impose_saddle_stitch
from deckgen.booklet.make import prepare, render_booklet_pdf
from deckgen.booklet.printedition import (
    PrintOptions,
    finished,
    no_scaling,
    origin_at_zero,
    press_sheets,
    saddle_stitch_pages,
)
from deckgen.prepress import cmyk
from deckgen.prepress.pressfile import press_pdf
from deckgen.rulespec import load_rules

PRINTING = PrintOptions(edition=True)


@pytest.fixture(scope="module")
def pages() -> bytes:
    """The English card-domino booklet's print-edition pages as laid out (RGB, bleed)."""
    fmt = page_format("a5")
    prepared = prepare(load_rules("card-domino"), fmt=fmt, langs=("en",))
    pdf = render_booklet_pdf(prepared, "en", fmt, bleed_mm=PRINTING.bleed_mm)
    return saddle_stitch_pages(no_scaling(origin_at_zero(pdf)))


def _sides(pdf: bytes) -> list[np.ndarray]:
    doc = pdfium.PdfDocument(pdf)
    return [np.asarray(page.render(scale=1.0).to_pil().convert("RGB")) for page in doc]


def test_sheets_from_the_press_edition_are_not_converted_again(
    pages: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    press = finished(pages, PRINTING)
    calls: list[int] = []
    convert = cmyk.convert_document

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return convert(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cmyk, "convert_document", counted)
    sheets = press_sheets(pages, press, PRINTING)
    assert calls == []
    with pikepdf.open(io.BytesIO(sheets)) as pdf:
        assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-4"
        assert len(pdf.Root.OutputIntents) == 1


def test_sheets_show_what_converting_the_imposed_pages_shows(pages: bytes) -> None:
    new = _sides(press_sheets(pages, finished(pages, PRINTING), PRINTING))
    old = _sides(press_pdf(impose_saddle_stitch(pages, need_marks=True)))
    assert len(new) == len(old)
    for side, (a, b) in enumerate(zip(new, old, strict=True)):
        assert a.shape == b.shape, f"sheet side {side + 1}"
        worst = int(np.abs(a.astype(int) - b.astype(int)).max())
        assert worst <= 2, f"sheet side {side + 1}: pixels differ by up to {worst}"


def test_a_finishing_step_of_ones_own_still_sees_the_sheets_as_laid_out(pages: bytes) -> None:
    seen: list[bytes] = []

    def own(pdf: bytes) -> bytes:
        seen.append(pdf)
        return pdf

    printing = PrintOptions(edition=True, finish=own)
    press_sheets(pages, finished(pages, printing), printing)
    assert len(seen) == 2  # the press edition, then the sheets
    with pikepdf.open(io.BytesIO(seen[1])) as pdf:
        assert "/OutputIntents" not in pdf.Root  # imposed from the pages as laid out
