"""Saving a pikepdf document atomically and reproducibly.

Takes a :class:`pikepdf.Pdf` and a target path; writes it through
:func:`deckgen.atomic.atomic_path` with a deterministic document ID and compressed
object streams, so the same inputs give byte-identical files. Every file asks viewers
and printers to print at actual size (``/PrintScaling /None``). A PDF/X document
(:mod:`deckgen.prepress.pdfx`) is written as the version its flavour allows: PDF/X-1a
as PDF 1.4 without object streams, PDF/X-4 as at most PDF 1.6.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from deckgen.atomic import atomic_path

if TYPE_CHECKING:
    import pikepdf


def _save(pdf: pikepdf.Pdf, out: Path | BinaryIO) -> None:
    """Save ``pdf`` to ``out`` reproducibly, asking for actual-size printing, as the
    version its PDF/X flavour (if any) allows."""
    import pikepdf

    prefs = pdf.Root.get("/ViewerPreferences")
    if prefs is None:
        pdf.Root.ViewerPreferences = pikepdf.Dictionary(PrintScaling=pikepdf.Name("/None"))
    elif "/PrintScaling" not in prefs:
        prefs.PrintScaling = pikepdf.Name("/None")
    from deckgen.prepress.pdfx import pdfx_variant_of

    variant = pdfx_variant_of(pdf)
    streams = variant is None or variant.object_streams
    mode = pikepdf.ObjectStreamMode.generate if streams else pikepdf.ObjectStreamMode.disable
    pdf.save(
        out,
        deterministic_id=True,
        compress_streams=True,
        object_stream_mode=mode,
        force_version=variant.pdf_version if variant is not None else "",
    )


def save_pdf(pdf: pikepdf.Pdf, target: str | Path) -> Path:
    """Write ``pdf`` to ``target`` atomically; gives the target path."""
    target = Path(target)
    with atomic_path(target) as tmp:
        _save(pdf, tmp)
    return target


def pdf_bytes(pdf: pikepdf.Pdf) -> bytes:
    """``pdf`` as the bytes :func:`save_pdf` would write (for callers that stage files)."""
    buf = io.BytesIO()
    _save(pdf, buf)
    return buf.getvalue()
