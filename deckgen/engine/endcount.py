"""Scoring during play (All Fives, Muggins): the count of the open ends (``score.ends``).

Takes the placements of a round as the layout makes them (the first tile, then each
tile with the end it went on and whether it lay across); gives, after each, the
*count*: the sum of the numbers showing at the open ends of the layout, and the
points it earns (the count when it is a positive multiple of ``scoring.ends_multiple``).

How the ends count (the file's clause ``score.ends`` says it in words):

- an end shows the outer number of the last tile on it; a double lying at an end
  counts both its halves (``2 * v``);
- a double laid first shows at both ends of the line, but counts once (``2 * v``)
  while neither side has a tile on it;
- the two arms a double lying across opens (the spinner's sides) count only once a
  tile has been laid on them: until then the double's own end counts it.

:class:`EndCount` follows the kernel's end order (:mod:`deckgen.engine.layouts`), so
it is the single place this count is made; the booklet's diagrams and worked example
and the invariant checks read it from here. :func:`rounded` rounds a round's points
to the nearest multiple (``score.rounding``).
"""

from __future__ import annotations

from collections.abc import Sequence

from deckgen.engine.layouts import TileTable, new_layout
from deckgen.engine.results import Action


class EndCount:
    """Which open ends count, and how, for one round."""

    __slots__ = ("double_at", "live", "shared")

    def __init__(self) -> None:
        self.double_at: list[bool] = []
        """Per end: the last tile on it is a double (it counts twice)."""
        self.live: list[bool] = []
        """Per end: it counts (a spinner's side arm only once a tile lies on it)."""
        self.shared = False
        """The first tile is a double and neither side of it has a tile yet."""

    def copy(self) -> EndCount:
        out = EndCount()
        out.double_at = self.double_at.copy()
        out.live = self.live.copy()
        out.shared = self.shared
        return out

    def start(self, t: TileTable, tile: int, across: bool) -> None:
        """The first tile was laid (``across``: it opened four ends)."""
        d = t.is_double[tile]
        self.double_at = [d, d]
        self.live = [True, True]
        self.shared = d
        if across:
            self.double_at += [False, False]
            self.live += [False, False]

    def placed(self, t: TileTable, tile: int, end: int, across: bool) -> None:
        """``tile`` was laid on ``end`` (``across``: it opened two more ends)."""
        self.double_at[end] = t.is_double[tile]
        self.live[end] = True
        if end < 2:
            self.shared = False
        if across:
            self.double_at += [False, False]
            self.live += [False, False]

    def kinds(self, ends: list[int]) -> list[int]:
        """Per open end, what laying a tile there depends on: its number, whether a
        double lies at it and whether it counts yet. Two ends of the same kind give the
        same board and count whichever takes the tile; ends of different kinds are
        different moves (a spinner's free side and a long side both showing 5)."""
        return [
            v << 2 | (2 if d else 0) | (1 if live else 0)
            for v, d, live in zip(ends, self.double_at, self.live, strict=True)
        ]

    def count(self, ends: list[int]) -> int:
        """The sum the open ends ``ends`` (the layout's, in end order) show."""
        total = 0
        for v, d, live in zip(ends, self.double_at, self.live, strict=True):
            if live:
                total += 2 * v if d else v
        if self.shared:  # the first double shows at both ends: count it once
            total -= 2 * ends[0]
        return total


def ends_points(count: int, multiple: int) -> int:
    """Points for a count: the count itself when it is a positive multiple."""
    return count if count and count % multiple == 0 else 0


def rounded(points: int, multiple: int) -> int:
    """``points`` rounded to the nearest multiple of ``multiple`` (halves up)."""
    return (points + multiple // 2) // multiple * multiple


def counts_of_round(
    t: TileTable, shape: str, turned_up: int, actions: Sequence[Action], multiple: int
) -> list[tuple[int, int] | None]:
    """Per action of a recorded round, ``(count, points)`` after a lead or a play (None
    for draws and passes): the round laid again through a fresh layout, for the course
    text, the booklet's worked example and the checks that recount the points."""
    layout = new_layout(shape)
    ec = EndCount()
    if turned_up >= 0:
        ec.start(t, turned_up, layout.start(t, turned_up))
    out: list[tuple[int, int] | None] = []
    for a in actions:
        if a.kind == "lead":
            ec.start(t, a.tile, layout.start(t, a.tile))
        elif a.kind == "play":
            ec.placed(t, a.tile, a.end, layout.place(t, a.tile, a.end))
        else:
            out.append(None)
            continue
        c = ec.count(layout.ends)
        out.append((c, ends_points(c, multiple)))
    return out
