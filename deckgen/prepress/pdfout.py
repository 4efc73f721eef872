"""Saving a pikepdf document atomically and reproducibly.

Takes a :class:`pikepdf.Pdf` and a target path; writes it through
:func:`deckgen.atomic.atomic_path` with a deterministic document ID and compressed
object streams, so the same inputs give byte-identical files. Every file asks viewers
and printers to print at actual size (``/PrintScaling /None``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from deckgen.atomic import atomic_path

if TYPE_CHECKING:
    import pikepdf


def save_pdf(pdf: pikepdf.Pdf, target: str | Path) -> Path:
    """Write ``pdf`` to ``target`` atomically; gives the target path."""
    import pikepdf

    target = Path(target)
    prefs = pdf.Root.get("/ViewerPreferences")
    if prefs is None:
        pdf.Root.ViewerPreferences = pikepdf.Dictionary(PrintScaling=pikepdf.Name("/None"))
    elif "/PrintScaling" not in prefs:
        prefs.PrintScaling = pikepdf.Name("/None")
    with atomic_path(target) as tmp:
        pdf.save(
            tmp,
            deterministic_id=True,
            compress_streams=True,
            object_stream_mode=pikepdf.ObjectStreamMode.generate,
        )
    return target
