"""Per-card PNG files rendered from the vector card PDFs, in parallel on all cores.

Takes page jobs (a PDF, a page index, a target file) and the resolution; renders each
page with pypdfium2 at exactly the pixel size the card (with or without its bleed)
has at that dpi, and writes RGB PNGs with the dpi recorded in them. The jobs are split
into chunks and run in worker processes (pdfium is not thread-safe); the reporter
advances as chunks finish.

Workers are forked (not spawned): they start at once with everything imported, and
``python -m deckgen`` is not run again in them. They are forked before the progress
bar starts its refresh thread. Where fork is not available the pages are rendered in
this process.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from deckgen.progress import Reporter
from deckgen.units import MM_PER_PT, px_at
from deckgen.workers import WorkerPool

if TYPE_CHECKING:
    import pypdfium2 as pdfium
    from PIL import Image


@dataclass(frozen=True, slots=True)
class PngJob:
    """Render page ``page`` (0-based) of ``pdf`` to ``target``."""

    pdf: Path
    page: int
    target: Path


def pixel_size(width_mm: float, height_mm: float, dpi: int) -> tuple[int, int]:
    """Pixels of a ``width_mm`` x ``height_mm`` area at ``dpi`` (rounded)."""
    return (px_at(width_mm, dpi), px_at(height_mm, dpi))


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def render_pngs(
    jobs: Sequence[PngJob],
    *,
    dpi: int,
    bleed: bool,
    workers: int | None = None,
    reporter: Reporter | None = None,
) -> list[Path]:
    """Render every job; gives the written paths in job order.

    With ``bleed`` the PNG is the whole page (card plus bleed); without, it is cut to
    the page's TrimBox. ``workers``: processes to use (default: all cores; 1 renders
    in this process).
    """
    import multiprocessing

    workers = workers or default_workers()
    can_fork = "fork" in multiprocessing.get_all_start_methods()
    if workers <= 1 or len(jobs) <= 2 or not can_fork:
        if reporter:
            reporter.start("rendering card PNGs", len(jobs))
        for job in jobs:
            _render_chunk([job], dpi, bleed)
            if reporter:
                reporter.advance()
    else:
        size = max(1, math.ceil(len(jobs) / (workers * 3)))
        chunks = [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]
        context = multiprocessing.get_context("fork")
        with WorkerPool(workers, context) as pool:
            pending: dict[Future[int], int] = {
                pool.submit(_render_chunk, chunk, dpi, bleed): len(chunk) for chunk in chunks
            }
            if reporter:  # only now: the workers are forked, no progress thread yet
                reporter.start("rendering card PNGs", len(jobs))
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    future.result()
                    count = pending.pop(future)
                    if reporter:
                        reporter.advance(count)
    if reporter:
        reporter.finish()
    return [job.target for job in jobs]


def _render_chunk(jobs: list[PngJob], dpi: int, bleed: bool) -> int:
    """Worker: render a few pages (grouped by PDF, each PDF opened once)."""
    import pypdfium2 as pdfium

    from deckgen.atomic import atomic_path
    from deckgen.prepress.pngwrite import png_bytes

    docs: dict[Path, pdfium.PdfDocument] = {}
    try:
        for job in jobs:
            doc = docs.get(job.pdf)
            if doc is None:
                doc = docs[job.pdf] = pdfium.PdfDocument(str(job.pdf))
            page = doc[job.page]
            image = _render_page(page, dpi, bleed)
            with atomic_path(job.target) as tmp:
                tmp.write_bytes(png_bytes(image, dpi))
            page.close()
    finally:
        for doc in docs.values():
            doc.close()
    return len(jobs)


def _render_page(page: pdfium.PdfPage, dpi: int, bleed: bool) -> Image.Image:
    """One page as an RGB PIL image of the exact card (+ bleed) size at ``dpi``."""
    scale = dpi / 72
    bitmap = page.render(scale=scale, rev_byteorder=True)
    image: Image.Image = bitmap.to_pil()
    if image.mode != "RGB":
        image = image.convert("RGB")
    mx0, my0, mx1, my1 = (float(v) for v in page.get_mediabox())
    tx0, ty0, tx1, ty1 = (float(v) for v in page.get_trimbox())
    box_pt = (mx0, my0, mx1, my1) if bleed else (tx0, ty0, tx1, ty1)
    to_mm = MM_PER_PT
    width_px, height_px = pixel_size(
        (box_pt[2] - box_pt[0]) * to_mm, (box_pt[3] - box_pt[1]) * to_mm, dpi
    )
    left = round((box_pt[0] - mx0) * scale)
    top = round((my1 - box_pt[3]) * scale)
    return image.crop((left, top, left + width_px, top + height_px))
