"""Ghostscript, the one place deckgen runs it: PDF pages rendered to CMYK pixels.

Takes a PDF file, a resolution and optionally a page range; gives the pages as Pillow
CMYK images (``tiff32nc``: what the press plates would carry, overprint and
transparency resolved). Used by the ink map (:mod:`deckgen.prepress.inkmap`) and by the
PDF/X-1a transparency flattener (:mod:`deckgen.prepress.pdfx`). A missing ``gs`` or a
render that fails or takes too long is a :class:`~deckgen.errors.ResourceError` naming
what it was for, never a traceback.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from deckgen.errors import ResourceError

if TYPE_CHECKING:
    from PIL import Image

INSTALL_FIX = "install it (scripts/sysdeps.sh does), e.g. apt-get install ghostscript"


def render_cmyk(
    pdf: Path,
    *,
    dpi: int,
    purpose: str,
    fix: str = INSTALL_FIX,
    first_page: int | None = None,
    last_page: int | None = None,
    media_box: bool = False,
    timeout: float = 600,
) -> list[Image.Image]:
    """Pages of ``pdf`` (1-based, inclusive range; all by default) as CMYK images.

    ``purpose`` completes "Ghostscript (gs) is needed to ..." in the error message;
    ``media_box`` renders the whole media box (else Ghostscript's default page box).
    """
    from PIL import Image

    gs = shutil.which("gs")
    if gs is None:
        raise ResourceError(f"Ghostscript (gs) is needed to {purpose}", fix=fix)
    with tempfile.TemporaryDirectory(prefix="deckgen-gs-") as tmp:
        args = [gs, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc", f"-r{dpi}"]
        if media_box:
            args.append("-dUseTrimBox=false")
        if first_page is not None:
            args.append(f"-dFirstPage={first_page}")
        if last_page is not None:
            args.append(f"-dLastPage={last_page}")
        args += [f"-sOutputFile={Path(tmp) / 'p%04d.tif'}", str(pdf)]
        try:
            done = subprocess.run(args, check=True, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            raise ResourceError(
                f"Ghostscript took longer than {timeout:g} s to {purpose}",
                where=str(pdf),
                fix="check that the PDF is not damaged or enormous",
            ) from exc
        except subprocess.CalledProcessError as exc:
            raise _failed(pdf, purpose, exc.stderr) from exc
        pages = []
        for path in sorted(Path(tmp).glob("p*.tif")):
            with Image.open(path) as image:
                image.load()
                pages.append(image.convert("CMYK"))
        if not pages:  # Ghostscript says so on stderr but may still exit with 0
            raise _failed(pdf, purpose, done.stderr + b"\nno page could be rendered")
        return pages


def _failed(pdf: Path, purpose: str, stderr: bytes | None) -> ResourceError:
    lines = (stderr or b"").decode("utf-8", "replace").splitlines()
    said = [line.strip(" *") for line in lines if line.strip(" *")]
    return ResourceError(
        f"Ghostscript could not render the PDF to {purpose}"
        + (f" ({said[0][:200]})" if said else ""),
        where=str(pdf),
        fix="check that the PDF opens in a viewer; rebuild it if it is damaged",
    )
