"""Colours of a deck: parsing, the default value palette, and THE one way into the PDF.

Takes colour strings from a deck file (``#RRGGBB``, ``#RGB`` or a few names) and gives
``RGB`` tuples of 0..255 ints. Every vector colour that reaches a PDF goes through
:func:`pdf_colour`, so a CMYK output can be switched on in that one place later.

>>> parse_colour("#1d3557")
(29, 53, 87)
>>> parse_colour("white")
(255, 255, 255)
"""

from __future__ import annotations

import re
from typing import Any

RGB = tuple[int, int, int]

NAMED: dict[str, RGB] = {
    "white": (255, 255, 255),
    "black": (0, 0, 0),
    "ivory": (255, 253, 245),
    "cream": (248, 243, 230),
    "navy": (29, 53, 87),
    "red": (200, 40, 40),
    "green": (17, 119, 51),
    "blue": (0, 114, 178),
    "grey": (128, 128, 128),
    "gray": (128, 128, 128),
}

_HEX = re.compile(r"^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")

VALUE_PALETTE: tuple[RGB, ...] = (
    (34, 34, 34),  # 0 is never drawn; kept so index == value
    (0, 114, 178),  # 1 blue (Okabe-Ito)
    (213, 94, 0),  # 2 vermillion
    (0, 158, 115),  # 3 bluish green
    (204, 121, 167),  # 4 reddish purple
    (200, 130, 0),  # 5 orange (darkened for contrast on a light tile)
    (51, 34, 136),  # 6 indigo (Paul Tol)
    (136, 34, 85),  # 7 wine
    (17, 119, 51),  # 8 green
    (60, 150, 210),  # 9 sky blue (darkened)
    (170, 68, 153),  # 10 purple
    (48, 140, 125),  # 11 teal
    (130, 130, 40),  # 12 olive
)
"""Default pip colour per value: Okabe-Ito and Paul Tol colours, which stay apart for
the common kinds of colour blindness. Values above 12 repeat the cycle from 1; the pip
count, not the colour, is what a player reads."""


def parse_colour(text: str) -> RGB:
    """``#RRGGBB``, ``#RGB`` or a name from :data:`NAMED`; ValueError otherwise."""
    key = text.strip().lower()
    if key in NAMED:
        return NAMED[key]
    match = _HEX.match(key)
    if not match:
        raise ValueError(
            f"'{text}' is not a colour; write it as #RRGGBB (like #1d3557) or one of "
            + ", ".join(sorted(NAMED))
        )
    digits = match.group(1)
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))


def value_colour(value: int) -> RGB:
    """The default palette colour of ``value`` (1..18)."""
    if value <= 0:
        return VALUE_PALETTE[0]
    return VALUE_PALETTE[1 + (value - 1) % (len(VALUE_PALETTE) - 1)]


def hex_colour(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def luminance(rgb: RGB) -> float:
    """Relative luminance (WCAG), 0 black ... 1 white."""

    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: RGB, b: RGB) -> float:
    """The WCAG 2 contrast ratio of two colours, 1 (same) ... 21 (black on white).

    >>> round(contrast_ratio((0, 0, 0), (255, 255, 255)), 1)
    21.0
    """
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


MIN_TEXT_CONTRAST = 4.5
"""The WCAG 2 contrast ratio (AA) text must reach against its ground."""
MIN_LARGE_TEXT_CONTRAST = 3.0
"""The same for large text (18 pt and more)."""
LARGE_TEXT_PT = 18.0


def readable_mix(ink: RGB, ground: RGB, t: float, *, margin: float = 1.7) -> RGB:
    """``ink`` moved towards ``ground`` by at most ``t`` (a quieter secondary text),
    but never so far that it stands out less than :data:`MIN_TEXT_CONTRAST` times
    ``margin`` from ``ground`` (the margin keeps it readable after CMYK conversion,
    FOGRA39 and SWOP alike: a K-only grey measures lighter than drawn)."""
    step = t
    while step > 0:
        rgb = mix(ink, ground, step)
        if contrast_ratio(rgb, ground) >= MIN_TEXT_CONTRAST * margin:
            return rgb
        step -= 0.05
    return ink


SOLID_BLACK_BELOW = 0.085
"""A neutral ink darker than this luminance (``#555555`` is 0.09) counts as black text
or line: where the printer asks for solid black it is drawn pure black (it then prints
0/0/0/100, not a tint); lighter greys stay greys (tints of black ink alone)."""
NEUTRAL_SPREAD = 18
"""An ink whose sRGB channels differ by at most this (of 255) counts as grey."""
GREYISH_CHROMA = 15.0
"""An ink with less CIE chroma than this looks grey on paper (a tinted grey outline)."""


def _lab(rgb: RGB) -> tuple[float, float, float]:
    def lin(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def press_colour(rgb: RGB, *, solid_black: bool, black_ink: bool) -> RGB:
    """The ink deckgen draws text and lines with for a printer's rules.

    ``black_ink``: a greyish ink becomes the neutral grey of the same lightness (it then
    prints in black ink alone); ``solid_black``: a near-black neutral becomes pure black.

    >>> press_colour((34, 34, 34), solid_black=True, black_ink=True)
    (0, 0, 0)
    >>> press_colour((142, 154, 171), solid_black=False, black_ink=True)
    (153, 153, 153)
    >>> press_colour((0, 114, 178), solid_black=True, black_ink=True)
    (0, 114, 178)
    """
    neutral = max(rgb) - min(rgb) <= NEUTRAL_SPREAD
    if black_ink and not neutral:
        lightness, a, b = _lab(rgb)
        if (a * a + b * b) ** 0.5 < GREYISH_CHROMA:
            y = ((lightness + 16) / 116) ** 3 if lightness > 8 else lightness / 903.3
            s = y * 12.92 if y <= 0.0031308 else 1.055 * y ** (1 / 2.4) - 0.055
            v = max(0, min(255, round(s * 255)))
            rgb, neutral = (v, v, v), True
    if solid_black and neutral and luminance(rgb) < SOLID_BLACK_BELOW:
        return (0, 0, 0)
    return rgb


def contrast_on(background: RGB) -> RGB:
    """A dark or light ink that reads on ``background``."""
    return (34, 34, 34) if luminance(background) > 0.35 else (250, 248, 240)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` towards ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def pdf_colour(rgb: RGB) -> Any:
    """The reportlab colour for ``rgb``: the ONE place vector colours enter a PDF."""
    from reportlab.lib.colors import Color

    return Color(rgb[0] / 255, rgb[1] / 255, rgb[2] / 255)
