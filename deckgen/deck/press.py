"""What a printer asks of the drawing itself, as the deck pillar sees it.

The deck pillar knows no vendor presets; the caller that does (:mod:`deckgen.product`,
through :func:`deckgen.prepress.printstep.press_rules`) turns a preset into this record,
and the build plan hands it to every drawing (:class:`deckgen.deck.drawing.DrawContext`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PressRules:
    """What the printer asks of the drawing itself (resolved from its preset by the caller).

    ``min_line_pt``: no line deckgen draws is thinner (the vendor's published thinnest
    line). ``solid_black``: black text and lines print as solid black ink (0/0/0/100),
    so near-black inks are drawn pure black. ``black_ink_lines``: a CMYK job prints black
    and grey text and lines in black ink alone, so greyish inks of deckgen's own design
    (a tinted grey outline) are drawn as neutral greys of the same lightness.
    ``imprint_on_cover_back``: the printer prints the imprint on the cover's back, so
    the product has one card fewer than the deck has fronts (the imprint's card count
    says so).
    """

    vendor: str | None = None
    """The preset's name when the build is for a print shop: sample content is refused
    then (a home-printing preset only warns, as a build without a preset does)."""
    min_line_pt: float = 0.0
    solid_black: bool = False
    black_ink_lines: bool = False
    imprint_on_cover_back: bool = False
