"""Ghostscript is run in one place (deckgen/prepress/ghostscript.py): pages come back as
CMYK pixels, and a damaged PDF is a clear ResourceError, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.lib.colors import CMYKColor
from reportlab.pdfgen.canvas import Canvas

from deckgen.errors import ResourceError
from deckgen.prepress.ghostscript import render_cmyk


def _two_pages(path: Path) -> None:
    c = Canvas(str(path), pagesize=(72, 72))
    c.setFillColor(CMYKColor(0, 0, 0, 1))  # page 1: solid black
    c.rect(0, 0, 72, 72, fill=1, stroke=0)
    c.showPage()
    c.setFillColor(CMYKColor(1, 0, 0, 0))  # page 2: solid cyan
    c.rect(0, 0, 72, 72, fill=1, stroke=0)
    c.showPage()
    c.save()


def test_pages_come_back_as_cmyk_pixels(tmp_path: Path) -> None:
    pdf = tmp_path / "two.pdf"
    _two_pages(pdf)
    pages = render_cmyk(pdf, dpi=36, purpose="test")
    assert [p.mode for p in pages] == ["CMYK", "CMYK"]
    assert pages[0].getpixel((18, 18)) == (0, 0, 0, 255)
    assert pages[1].getpixel((18, 18)) == (255, 0, 0, 0)
    only_second = render_cmyk(pdf, dpi=36, purpose="test", first_page=2, last_page=2)
    assert len(only_second) == 1
    assert only_second[0].getpixel((18, 18)) == (255, 0, 0, 0)


def test_a_damaged_pdf_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.4\nthis is not a PDF body\n")
    with pytest.raises(ResourceError) as caught:
        render_cmyk(bad, dpi=36, purpose="render the ink map")
    text = str(caught.value)
    assert "could not render the PDF to render the ink map" in text
    assert str(bad) in text
