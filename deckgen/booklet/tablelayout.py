"""Where the tiles of a board with several open ends lie on the table.

Takes the engine's :class:`~deckgen.engine.board.Board` (placed tiles with their arm,
parent, inner and outer values, crosswise doubles); gives a
:class:`~deckgen.booklet.diagram.PlacedTiles` in half-tile units, or None when two
tiles would overlap (the booklet then shows an earlier position). Arms run straight:
from a crosswise double its arm goes on in the same direction and two new arms leave
its long sides at right angles, as players lay them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckgen.booklet.diagram import PlacedTiles

if TYPE_CHECKING:
    from deckgen.engine.board import Board

GAP = 0.08
_STEP = {"E": (1.0, 0.0), "W": (-1.0, 0.0), "N": (0.0, -1.0), "S": (0.0, 1.0)}
_TURN = {"E": ("N", "S"), "W": ("S", "N"), "N": ("W", "E"), "S": ("E", "W")}

Rect = tuple[float, float, float, float]  # x, y, w, h


def _overlap(a: Rect, b: Rect) -> bool:
    eps = 1e-6
    return (
        a[0] < b[0] + b[2] - eps
        and b[0] < a[0] + a[2] - eps
        and a[1] < b[1] + b[3] - eps
        and b[1] < a[1] + a[3] - eps
    )


def layout_board(board: Board, *, mark_last: bool = True) -> PlacedTiles | None:
    """Lay ``board`` out; None if two tiles would overlap."""
    tiles = board.tiles
    if not tiles:
        return None
    rects: list[Rect] = []
    out: list[tuple[float, float, bool, int, int, bool]] = []
    # per arm: (direction, attach x, attach y) where the next tile's near edge goes
    arms: dict[int, tuple[str, float, float]] = {}
    next_arm = 0
    first = tiles[0]
    last_order = tiles[-1].order if mark_last and len(tiles) > 1 else -1
    if first.crosswise:  # an opening double lies across: four arms
        rects.append((-0.5, -1.0, 1.0, 2.0))
        out.append((-0.5, -1.0, True, first.tile.low, first.tile.high, False))
        arms = {0: ("W", -0.5, 0.0), 1: ("E", 0.5, 0.0), 2: ("N", 0.0, -1.0), 3: ("S", 0.0, 1.0)}
        next_arm = 4
    else:
        rects.append((-1.0, -0.5, 2.0, 1.0))
        out.append((-1.0, -0.5, False, first.tile.low, first.tile.high, False))
        arms = {0: ("W", -1.0, 0.0), 1: ("E", 1.0, 0.0)}
        next_arm = 2
    for p in tiles[1:]:
        if p.arm not in arms:
            return None
        direction, ax, ay = arms[p.arm]
        dx, dy = _STEP[direction]
        along_x = direction in ("E", "W")
        length = 1.0 if p.crosswise else 2.0  # size along the arm
        across = 2.0 if p.crosswise else 1.0
        # the near edge's centre sits GAP beyond the attach point
        cx = ax + dx * (GAP + length / 2)
        cy = ay + dy * (GAP + length / 2)
        if along_x:
            w, h = length, across
        else:
            w, h = across, length
        rect = (cx - w / 2, cy - h / 2, w, h)
        if any(_overlap(rect, r) for r in rects):
            return None
        rects.append(rect)
        vertical = h > w
        if p.crosswise or p.inner == p.outer or direction in ("E", "S"):
            first_v, second_v = p.inner, p.outer
        else:
            first_v, second_v = p.outer, p.inner
        out.append((rect[0], rect[1], vertical, first_v, second_v, p.order == last_order))
        arms[p.arm] = (direction, cx + dx * length / 2, cy + dy * length / 2)
        if p.crosswise:
            for side in _TURN[direction]:
                sx, sy = _STEP[side]
                arms[next_arm] = (side, cx + sx * across / 2, cy + sy * across / 2)
                next_arm += 1
    ends = []
    for end in board.ends:
        if end.arm in arms:
            direction, ax, ay = arms[end.arm]
            ends.append((ax, ay, direction))
    return PlacedTiles(tiles=tuple(out), ends=tuple(ends))
