"""Where the corner index (``a|b``) sits: inside the card's rounded safe area.

The safe area is the trim inset by the safe margin, with its corners rounded by the
card's corner radius (a vendor's "design area with rounded corners"): a box pushed into
the safe rectangle's corner would poke out of that rounding. Takes the index's ink box
size and the radius; gives how far from the safe corner, along both edges, the box's
outer corner must sit, so that it lies inside the rounded corner.

>>> round(corner_inset(5.0 * 72 / 25.4) * 25.4 / 72, 3)   # 5 mm radius: 1.464 mm + EPS_PT
1.482
>>> corner_inset(0.0)
0.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass

EPS_PT = 0.05
"""A little more than the geometry needs, so that rounding never puts ink outside."""


def corner_inset(radius_pt: float) -> float:
    """Distance (pt) from a corner of the safe rectangle, along both of its edges, at
    which a box's corner lies on the rounding of ``radius_pt``: r (1 - 1/sqrt 2)."""
    if radius_pt <= 0:
        return 0.0
    return radius_pt * (1 - 1 / math.sqrt(2)) + EPS_PT


@dataclass(frozen=True)
class IndexPlacement:
    """The index in its corner's frame (origin at the safe corner, x along the top edge
    into the card, y up, so the card is below): where the text starts and its baseline,
    and the ink box (plate included) as (left, bottom, right, top)."""

    x: float
    baseline: float
    box: tuple[float, float, float, float]


def place_index(
    width_pt: float, ascent_pt: float, descent_pt: float, pad_pt: float, radius_pt: float
) -> IndexPlacement:
    """The index text ``width_pt`` wide with the font's ``ascent_pt`` and ``descent_pt``
    (negative below the baseline), on a plate ``pad_pt`` larger on every side (0: no
    plate), in the corner of a safe area rounded with ``radius_pt``."""
    inset = corner_inset(radius_pt)
    left = inset
    top = -inset
    x = left + pad_pt
    baseline = top - pad_pt - ascent_pt
    bottom = baseline + descent_pt - pad_pt
    right = x + width_pt + pad_pt
    return IndexPlacement(x, baseline, (left, bottom, right, top))


def inside_rounded(
    point: tuple[float, float], rect: tuple[float, float, float, float], radius: float
) -> bool:
    """Whether ``point`` lies in ``rect`` (x0, y0, x1, y1) with corners rounded by
    ``radius`` (a tolerance of 1e-6 pt)."""
    x, y = point
    x0, y0, x1, y1 = rect
    if not (x0 - 1e-6 <= x <= x1 + 1e-6 and y0 - 1e-6 <= y <= y1 + 1e-6):
        return False
    r = min(radius, (x1 - x0) / 2, (y1 - y0) / 2)
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return math.hypot(x - cx, y - cy) <= r + 1e-6
