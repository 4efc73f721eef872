"""Lengths on paper and on screen: millimetres, PDF points and pixels at a resolution.

One place for every conversion (names carry the unit, as design.md asks)::

    >>> round(mm_to_pt(25.4), 6)
    72.0
    >>> round(pt_to_mm(72), 6)
    25.4
    >>> px_at(69.85, 300)       # a poker card with 1/8 in bleed, at 300 dpi
    825
    >>> round(mm_to_px(25.4, 300), 6)
    300.0

Imports nothing: every package (``deck``, ``prepress``, ``booklet``) may use it.
"""

from __future__ import annotations

MM_PER_INCH = 25.4
"""Millimetres in an inch (exact)."""
PT_PER_INCH = 72.0
"""PDF points in an inch (exact)."""
PT_PER_MM = PT_PER_INCH / MM_PER_INCH
"""PDF points in a millimetre (2.8346...)."""
MM_PER_PT = MM_PER_INCH / PT_PER_INCH
"""Millimetres in a PDF point (0.3528)."""


def mm_to_pt(mm: float) -> float:
    """Millimetres to PDF points."""
    return mm * PT_PER_MM


def pt_to_mm(pt: float) -> float:
    """PDF points to millimetres."""
    return pt * MM_PER_PT


def mm_to_px(mm: float, dpi: float) -> float:
    """Millimetres to (fractional) pixels at ``dpi`` pixels per inch."""
    return mm / MM_PER_INCH * dpi


def px_at(mm: float, dpi: float) -> int:
    """Millimetres to whole pixels at ``dpi`` (rounded to the nearest pixel)."""
    return round(mm_to_px(mm, dpi))


def px_to_mm(px: float, dpi: float) -> float:
    """Pixels at ``dpi`` to millimetres."""
    return px / dpi * MM_PER_INCH


def pt_to_px(pt: float, dpi: float) -> float:
    """PDF points to (fractional) pixels at ``dpi``."""
    return pt / PT_PER_INCH * dpi


def effective_ppi(pixels: float, drawn_mm: float) -> float:
    """The resolution of ``pixels`` image pixels drawn ``drawn_mm`` wide on paper."""
    return pixels / (drawn_mm / MM_PER_INCH)
