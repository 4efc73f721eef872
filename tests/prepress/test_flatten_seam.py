"""PDF/X-1a flattening leaves no seam: a logo with transparency over a vector lattice
(the demo back) is flattened without turning the lattice in the logo's box into
pixels, so at 1200 dpi the lattice runs on across the box edge unchanged."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pikepdf
import pypdfium2
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from deckgen.prepress.cmyk import convert_document
from deckgen.prepress.pdfout import save_pdf
from deckgen.prepress.pdfx import make_pdfx
from deckgen.resources import images_dir

DPI = 1200
BOX_PT = (20.0, 20.0, 100.0, 100.0)


def _render(path: Path) -> np.ndarray:
    page = pypdfium2.PdfDocument(str(path))[0]
    image = page.render(scale=DPI / 72).to_pil().convert("L")
    return np.asarray(image, dtype=np.int16)


def test_no_seam_at_the_flattened_box_edge(tmp_path: Path) -> None:
    source = tmp_path / "lattice.pdf"
    c = canvas.Canvas(str(source), pagesize=(120, 120), invariant=1)
    c.setFillColorRGB(0.11, 0.2, 0.34)
    c.rect(0, 0, 120, 120, fill=1, stroke=0)
    c.setStrokeColorRGB(0.3, 0.4, 0.6)
    c.setLineWidth(0.6)
    for k in range(-120, 240, 8):
        c.line(k, 0, k + 120, 120)
        c.line(k, 120, k + 120, 0)
    x0, y0, x1, y1 = BOX_PT
    c.drawImage(ImageReader(str(images_dir() / "logo.png")), x0, y0, x1 - x0, y1 - y0, mask="auto")
    c.save()
    with pikepdf.open(source, allow_overwriting_input=True) as pdf:
        convert_document(pdf)
        pdf.save(source)
    flat = tmp_path / "x1a.pdf"
    with pikepdf.open(source) as pdf:
        make_pdfx(pdf, "x1a", title="seam")
        save_pdf(pdf, flat)
    with pikepdf.open(flat) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image":
                assert "/SMask" not in obj, "X-1a keeps no soft mask"
    before, after = _render(source), _render(flat)
    diff = np.abs(before - after)
    scale = DPI / 72
    band = round(1.0 / 25.4 * DPI)  # 1 mm either side of each edge of the former box
    left, right = round(x0 * scale), round(x1 * scale)
    top, bottom = round((120 - y1) * scale), round((120 - y0) * scale)
    strips = {
        "left": diff[top:bottom, left - band : left + band],
        "right": diff[top:bottom, right - band : right + band],
        "top": diff[top - band : top + band, left:right],
        "bottom": diff[bottom - band : bottom + band, left:right],
    }
    for edge, strip in strips.items():
        assert strip.max() <= 6, (
            f"the lattice changes across the {edge} edge of the flattened box "
            f"(up to {strip.max()} of 255, mean {strip.mean():.2f}): a seam"
        )
    assert diff.mean() < 2.0, "the flattened logo looks different"


def test_demo_back_for_drivethrucards_is_flattened_with_a_stencil(dtc_build: Path) -> None:
    with pikepdf.open(dtc_build / "back.pdf") as pdf:
        masked = [
            obj
            for obj in pdf.objects
            if isinstance(obj, pikepdf.Stream)
            and obj.get("/Subtype") == "/Image"
            and isinstance(obj.get("/Mask"), pikepdf.Stream)
        ]
        assert masked, "the logo's clear pixels keep the vector lattice beneath"
        assert all(bool(m.Mask.ImageMask) for m in masked)
