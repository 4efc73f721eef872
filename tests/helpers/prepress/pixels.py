"""Pixel helpers for the print tests: render a PDF page and find dark markers."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

MM_PER_INCH = 25.4


def render(pdf: Path, index: int, dpi: int = 300) -> Image.Image:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        page: Image.Image = doc[index].render(scale=dpi / 72).to_pil()
        return page.convert("L")
    finally:
        doc.close()


def grey(image: Image.Image, xy: tuple[int, int]) -> int:
    """The grey level (0 black ... 255 white) of one pixel of a one-band ("L") image."""
    value = image.getpixel(xy)
    assert isinstance(value, int), f"not a one-band 8-bit image: {image.mode}"
    return value


def channels(image: Image.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    """The channel values of one pixel of a multi-band image (RGB, CMYK ...)."""
    value = image.getpixel(xy)
    assert isinstance(value, tuple), f"not a multi-band image: {image.mode}"
    return value


def dark_centroid_mm(
    image: Image.Image,
    centre_mm: tuple[float, float],
    page_h_mm: float,
    *,
    dpi: int = 300,
    radius_mm: float = 8.0,
    threshold: int = 26,
) -> tuple[float, float] | None:
    """Centroid (mm, PDF coordinates) of the near-black pixels around ``centre_mm``."""
    px = dpi / MM_PER_INCH
    cx, cy = centre_mm[0] * px, (page_h_mm - centre_mm[1]) * px
    r = radius_mm * px
    left, top = max(0, int(cx - r)), max(0, int(cy - r))
    right, bottom = min(image.width, int(cx + r)), min(image.height, int(cy + r))
    window = image.crop((left, top, right, bottom))
    width = window.width
    sx = sy = count = 0.0
    for i, value in enumerate(window.tobytes()):
        if value < threshold:
            y, x = divmod(i, width)
            sx += x
            sy += y
            count += 1
    if count == 0:
        return None
    x_px = left + sx / count + 0.5
    y_px = top + sy / count + 0.5
    return (x_px / px, page_h_mm - y_px / px)
