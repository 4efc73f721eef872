"""Black ink only: text and lines in black and grey print on the K plate alone.

Small text and hairlines printed in four inks fringe on any press (the four plates
never register to a hundredth of a millimetre). The rule a print shop applies, and
that this module implements:

- a *neutral* colour (black, grey, near-grey: the sRGB components differ by at most
  :data:`NEUTRAL_SPREAD`) used for **text** or for a **stroked line** becomes a tint of
  black alone: ``0 0 0 K``, with K chosen so that the grey looks as light as before
  (same CIE L* through the CMYK profile, :func:`k_tint`);
- white or near-white text on a coloured ground stays a knock-out: K 0 (no ink), so
  the ground's inks are cut away under the letters;
- coloured text and large fills are left to the profile (a large black area may be a
  rich black, small things never are).

Two ways in, both reusable by any PDF maker in deckgen (the booklet's print edition
uses them on WeasyPrint's output):

- on a finished PDF: :func:`colour_uses` tells, for each colour operator of a content
  stream, what it paints (``text``, ``fill``, ``stroke``);
  :func:`deckgen.prepress.cmyk.convert_document` uses it to send neutral text and line
  colours to :func:`k_only` instead of the profile;
- on colour choices (reportlab, or anything drawing CMYK directly):
  :func:`text_cmyk` gives the CMYK for text of an sRGB colour, K only when neutral.

:func:`is_k_only` and :func:`looks_grey` are what the preflight checks text and thin
lines against: a CMYK colour that looks black or grey (through the profile) but uses
cyan, magenta or yellow is reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from deckgen.prepress.iccprofile import open_profile

Use = Literal["text", "fill", "stroke"]
RGB = tuple[float, float, float]
CMYK = tuple[float, float, float, float]

GREY_CHROMA = 10.0
"""A CMYK colour whose CIE chroma (through the profile) is below this looks grey."""
NEUTRAL_SPREAD = 0.07
"""A colour whose sRGB components (0..1) differ by at most this is grey (warm and cool
greys such as ``#3f3e3c`` or ``#b8bec2`` included)."""
K_ONLY_TOLERANCE = 0.004
"""C, M and Y at or below this (0.4 %) count as no ink (rounding of 8-bit values)."""

TEXT_OPS = frozenset({"Tj", "TJ", "'", '"'})
FILL_OPS = frozenset({"f", "F", "f*", "B", "B*", "b", "b*"})
STROKE_OPS = frozenset({"S", "s", "B", "B*", "b", "b*"})
FILL_COLOUR_OPS = frozenset({"rg", "k", "g", "sc", "scn", "cs"})
STROKE_COLOUR_OPS = frozenset({"RG", "K", "G", "SC", "SCN", "CS"})


def is_neutral(rgb: Sequence[float]) -> bool:
    """Whether an sRGB colour (0..1) is black, grey or white (a small hue is allowed).

    >>> is_neutral((0.247, 0.243, 0.235)), is_neutral((0.114, 0.208, 0.341))
    (True, False)
    """
    return max(rgb) - min(rgb) <= NEUTRAL_SPREAD


def is_k_only(cmyk: Sequence[float]) -> bool:
    """Whether a CMYK colour (0..1) uses the black plate alone (or no ink at all).

    >>> is_k_only((0, 0, 0, 0.8)), is_k_only((0.6, 0.5, 0.5, 0.9))
    (True, False)
    """
    return all(float(v) <= K_ONLY_TOLERANCE for v in cmyk[:3])


@lru_cache(maxsize=4096)
def _cmyk_chroma(cmyk: tuple[int, int, int, int], profile: str) -> float:
    from PIL import Image, ImageCms

    transform = _to_lab(profile)
    out = ImageCms.applyTransform(Image.new("CMYK", (1, 1), cmyk), transform)
    assert out is not None
    _, a, b = out.getpixel((0, 0))  # type: ignore[misc]
    a, b = a - 128, b - 128  # PIL's LAB mode stores a* and b* offset by 128
    return float((a * a + b * b) ** 0.5)


@lru_cache(maxsize=4)
def _to_lab(profile: str) -> Any:
    from PIL import ImageCms

    return ImageCms.buildTransform(
        open_profile(profile),
        ImageCms.createProfile("LAB"),
        "CMYK",
        "LAB",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
    )


def looks_grey(cmyk: Sequence[float], profile: Path | None = None) -> bool:
    """Whether a CMYK colour (0..1) prints as black or a grey (little chroma).

    >>> looks_grey((0.6, 0.5, 0.5, 0.9)), looks_grey((0.1, 0.3, 0.7, 0.6))
    (True, False)
    """
    from deckgen.prepress.iccprofile import profile_path

    key = tuple(max(0, min(255, round(float(v) * 255))) for v in cmyk[:4])
    chroma = _cmyk_chroma((key[0], key[1], key[2], key[3]), str(profile or profile_path()))
    return chroma < GREY_CHROMA


@lru_cache(maxsize=4)
def _k_lightness(profile: str) -> tuple[float, ...]:
    """L* (0..100) of K = 0 ... 255 through the CMYK profile, one value per step."""
    from PIL import Image, ImageCms

    to_lab = _to_lab(profile)
    ramp = Image.new("CMYK", (256, 1))
    ramp.putdata([(0, 0, 0, k) for k in range(256)])
    out = ImageCms.applyTransform(ramp, to_lab)
    assert out is not None
    lightness = [float(out.getpixel((k, 0))[0]) / 255 * 100 for k in range(256)]  # type: ignore[index]
    top, bottom = lightness[0], lightness[-1]
    # relative colorimetric with black point compensation: paper white is L* 100 and
    # the profile's K 100 % is the darkest black, as the sRGB side is mapped
    return tuple((v - bottom) / max(top - bottom, 1e-6) * 100 for v in lightness)


def _srgb_lightness(rgb: Sequence[float]) -> float:
    """CIE L* (0..100) of an sRGB colour (D65; the luminance of its components)."""

    def linear(v: float) -> float:
        v = min(max(float(v), 0.0), 1.0)
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in rgb)
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return 116 * y ** (1 / 3) - 16 if y > 216 / 24389 else y * 24389 / 27


def k_tint(rgb: Sequence[float], profile: Path | None = None) -> float:
    """The K (0..1) that prints a grey as light as ``rgb`` looks (same L*).

    >>> k_tint((0, 0, 0)), k_tint((1, 1, 1))
    (1.0, 0.0)
    """
    from deckgen.prepress.iccprofile import profile_path

    target = _srgb_lightness(rgb)
    ramp = _k_lightness(str(profile or profile_path()))
    best = min(range(256), key=lambda k: abs(ramp[k] - target))
    return round(best / 255, 4)


def k_only(rgb: Sequence[float], profile: Path | None = None) -> CMYK:
    """A neutral sRGB colour as a tint of black alone: ``(0, 0, 0, K)``."""
    return (0.0, 0.0, 0.0, k_tint(rgb, profile))


def text_cmyk(rgb: Sequence[float], profile: Path | None = None) -> CMYK | None:
    """The CMYK for text or a line drawn in ``rgb``: K only when the colour is neutral,
    ``None`` for a coloured ink (convert it through the profile as usual)."""
    return k_only(rgb, profile) if is_neutral(rgb) else None


def colour_uses(instructions: Sequence[Any]) -> dict[int, set[Use]]:
    """What each colour operator of a content stream paints.

    ``instructions`` are ``(operands, operator)`` pairs (pikepdf's
    ``parse_content_stream``); the result maps the index of every fill or stroke colour
    operator to the set of uses (``text``, ``fill``, ``stroke``) of that colour until it
    is replaced or a ``Q`` restores an earlier one. A form XObject painted with ``Do``
    counts as ``text`` and ``fill`` and ``stroke`` (it may inherit the colour).
    """
    uses: dict[int, set[Use]] = {}
    fill: list[int | None] = [None]
    stroke: list[int | None] = [None]
    for index, (_operands, operator) in enumerate(instructions):
        op = str(operator)
        if op == "q":
            fill.append(fill[-1])
            stroke.append(stroke[-1])
        elif op == "Q":
            if len(fill) > 1:
                fill.pop()
                stroke.pop()
        elif op in FILL_COLOUR_OPS:
            fill[-1] = index
            uses.setdefault(index, set())
        elif op in STROKE_COLOUR_OPS:
            stroke[-1] = index
            uses.setdefault(index, set())
        painted: list[tuple[int | None, Use]] = []
        if op in TEXT_OPS:
            painted.append((fill[-1], "text"))
        if op in FILL_OPS:
            painted.append((fill[-1], "fill"))
        if op in STROKE_OPS:
            painted.append((stroke[-1], "stroke"))
        if op == "Do":
            painted += [(fill[-1], "text"), (fill[-1], "fill"), (stroke[-1], "stroke")]
        for owner, use in painted:
            if owner is not None:
                uses[owner].add(use)
    return uses
