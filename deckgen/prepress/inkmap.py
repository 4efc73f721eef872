"""The ink map: total ink (C+M+Y+K) of every card as a RIP prints it, and where it is too much.

Takes a finished CMYK PDF (``cards.pdf`` or ``back.pdf`` of a CMYK job), renders every
page with Ghostscript into CMYK pixels (``tiff32nc``: what the press plates would carry,
overprint and transparency resolved) and gives, per page, the highest total ink in per
cent and the share of the card above a limit (:class:`PageInk`).
:func:`ink_map_png` draws the pages side by side, paled, with every pixel above the
limit in red and within :data:`NEAR_PERCENT` below it in amber: the heat map a
prepress desk looks at. Works on any CMYK PDF (the booklet's print edition too).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from deckgen.prepress.ghostscript import render_cmyk

if TYPE_CHECKING:
    from PIL import Image

INK_DPI = 100
"""Resolution of the ink render: fine enough for areas, the limit is about areas."""
NEAR_PERCENT = 20.0
"""Amber on the map: this close below the limit."""


@dataclass(frozen=True)
class PageInk:
    """Total ink of one page."""

    page: int
    max_percent: float
    over_fraction: float
    """Share of the page's pixels above the limit (0..1)."""


def render_cmyk_pages(pdf: Path, *, dpi: int = INK_DPI) -> list[Image.Image]:
    """Every page of ``pdf`` as a CMYK image rendered by Ghostscript."""
    return render_cmyk(pdf, dpi=dpi, purpose="render the ink map")


def page_ink(pages: Sequence[Image.Image], limit_percent: float) -> list[PageInk]:
    """The highest total ink and the share above ``limit_percent`` of every page."""
    import numpy as np

    out = []
    for number, image in enumerate(pages, start=1):
        tac = np.asarray(image, dtype=np.uint16).sum(axis=2) / 2.55
        out.append(
            PageInk(
                page=number,
                max_percent=round(float(tac.max()), 1),
                over_fraction=round(float((tac > limit_percent + 0.5).mean()), 5),
            )
        )
    return out


def ink_map_png(pages: Sequence[Image.Image], limit_percent: float, *, columns: int = 10) -> bytes:
    """The pages side by side, paled, ink above the limit red, near it amber (PNG bytes)."""
    import io

    import numpy as np
    from PIL import Image

    if not pages:
        raise ValueError("no pages to map")
    width = max(p.width for p in pages)
    height = max(p.height for p in pages)
    gap = 6
    cols = min(columns, len(pages))
    rows = (len(pages) + cols - 1) // cols
    sheet = Image.new("RGB", (cols * (width + gap) + gap, rows * (height + gap) + gap), "white")
    for index, page in enumerate(pages):
        tac = np.asarray(page, dtype=np.uint16).sum(axis=2) / 2.55
        rgb = np.asarray(page.convert("RGB"), dtype=np.float32)
        pale = (rgb * 0.35 + 255 * 0.65).astype(np.uint8)
        over = tac > limit_percent + 0.5
        near = (tac > limit_percent - NEAR_PERCENT) & ~over
        pale[near] = (245, 170, 20)
        pale[over] = (220, 0, 0)
        x = gap + (index % cols) * (width + gap)
        y = gap + (index // cols) * (height + gap)
        sheet.paste(Image.fromarray(pale, "RGB"), (x, y))
    buffer = io.BytesIO()
    sheet.save(buffer, "PNG", optimize=False)
    return buffer.getvalue()
