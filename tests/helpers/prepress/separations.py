"""Ghostscript separations for the print tests: one 8-bit ink plate per process colour.

``tiffsep`` renders a page as a print shop's RIP does and writes one greyscale TIFF per
plate (0 = full ink); :func:`plates` gives them as ink amounts (0..255 = 0..100 %).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageOps

PLATES = ("Cyan", "Magenta", "Yellow", "Black")


def require_gs() -> str:
    gs = shutil.which("gs")
    if gs is None:
        pytest.fail("Ghostscript (gs) is missing: run scripts/sysdeps.sh")
    return gs


def plates(pdf: Path, page: int, folder: Path, *, dpi: int = 300) -> dict[str, Image.Image]:
    """The C, M, Y and K plates of ``page`` (1-based) as ink images (255 = 100 % ink)."""
    gs = require_gs()
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"p{page}.tif"
    subprocess.run(
        [
            gs,
            "-q",
            "-dNOPAUSE",
            "-dBATCH",
            "-dSAFER",
            "-sDEVICE=tiffsep",
            f"-r{dpi}",
            f"-dFirstPage={page}",
            f"-dLastPage={page}",
            f"-sOutputFile={target}",
            str(pdf),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    out = {}
    for name in PLATES:
        with Image.open(folder / f"p{page}({name}).tif") as image:
            out[name] = ImageOps.invert(image.convert("L"))
    return out


def montage(found: dict[str, Image.Image]) -> Image.Image:
    """The four plates side by side (ink dark), to look at."""
    w, h = found["Cyan"].size
    sheet = Image.new("L", (4 * w + 30, h), 255)
    for i, name in enumerate(PLATES):
        sheet.paste(ImageOps.invert(found[name]), (i * (w + 10), 0))
    return sheet
