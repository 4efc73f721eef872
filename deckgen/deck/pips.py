"""Pip layouts for the values 0 ... 18, as on real tiles: they read the same turned 180 degrees.

Takes a value; gives the pip centres in a unit square (``-1 ... 1`` on both axes, y
up) and one pip radius in the same units. Every layout is point-symmetric about the
centre, so a half reads the same from either end of the tile. This is the one pip
table of deckgen: the cards (:mod:`deckgen.deck.face`) and the booklet's diagrams
(:mod:`deckgen.booklet.diagram`) both draw from it, at :data:`SPREAD` of a half.

1 ... 9 are the classic patterns (2 and 3 on the diagonal, 6 as two columns of three,
8 as a ring). 10 ... 18 use three columns, the outer ones with 4, 5 or 6 pips and the
middle one with what is left, as double-12 and double-18 tiles do.

>>> layout(5).points
((-1.0, 1.0), (1.0, 1.0), (0.0, 0.0), (-1.0, -1.0), (1.0, -1.0))
>>> all(is_point_symmetric(layout(v)) for v in range(19))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

MAX_VALUE = 18

SPREAD = 0.31
"""Pip centres at +-1 in layout units sit this fraction of the half's side from its
centre (cards and diagrams alike)."""

# value -> (pips in the outer columns, pips in the middle column), for 4 ... 18.
_COLUMNS: dict[int, tuple[int, int]] = {
    4: (2, 0),
    5: (2, 1),
    6: (3, 0),
    7: (3, 1),
    8: (3, 2),
    9: (3, 3),
    10: (4, 2),
    11: (4, 3),
    12: (4, 4),
    13: (5, 3),
    14: (5, 4),
    15: (5, 5),
    16: (6, 4),
    17: (6, 5),
    18: (6, 6),
}


@dataclass(frozen=True)
class PipLayout:
    """Pip centres (unit square, y up) and the pip radius in the same units."""

    value: int
    points: tuple[tuple[float, float], ...]
    radius: float


def _column(count: int) -> list[float]:
    """``count`` y positions spread evenly from top (1) to bottom (-1)."""
    if count == 1:
        return [0.0]
    return [round(1.0 - 2.0 * i / (count - 1), 6) for i in range(count)]


def _middle(count: int, outer: int) -> list[float]:
    """The middle column: on the outer rows when the counts allow it, else spread."""
    if count == 0:
        return []
    rows = _column(outer)
    if (outer - count) % 2 == 0 and count < outer:
        skip = (outer - count) // 2
        if count == 2 and outer == 3:
            return [rows[0], rows[-1]]
        return rows[skip : skip + count]
    return _column(count)


def _min_gap(points: list[tuple[float, float]]) -> float:
    best = 2.0
    for i, (x1, y1) in enumerate(points):
        for x2, y2 in points[i + 1 :]:
            best = min(best, ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5)
    return best


@cache
def layout(value: int) -> PipLayout:
    """The pip layout of ``value`` (0 ... 18)."""
    if not 0 <= value <= MAX_VALUE:
        raise ValueError(f"pip layouts exist for 0 ... {MAX_VALUE}, not {value}")
    points: list[tuple[float, float]]
    if value == 0:
        points = []
    elif value == 1:
        points = [(0.0, 0.0)]
    elif value == 2:
        points = [(1.0, 1.0), (-1.0, -1.0)]
    elif value == 3:
        points = [(1.0, 1.0), (0.0, 0.0), (-1.0, -1.0)]
    else:
        outer, middle = _COLUMNS[value]
        left = _column(outer)
        mid = _middle(middle, outer)
        rows = sorted({*left, *mid}, reverse=True)
        points = []
        for y in rows:
            if y in left:
                points.append((-1.0, y))
            if y in mid:
                points.append((0.0, y))
            if y in left:
                points.append((1.0, y))
    # Classic tiles use one pip size for 1 ... 9; denser layouts shrink to keep gaps.
    radius = 0.27 if len(points) < 2 else min(0.27, 0.36 * _min_gap(points))
    return PipLayout(value=value, points=tuple(points), radius=radius)


def is_point_symmetric(pl: PipLayout) -> bool:
    """True when turning the layout 180 degrees maps its pips onto themselves."""
    pts = {(round(x, 4), round(y, 4)) for x, y in pl.points}
    return pts == {(round(-x, 4) + 0.0, round(-y, 4) + 0.0) for x, y in pl.points}
