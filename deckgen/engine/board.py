"""The layout on the table as a diagram drawer needs it: placed tiles, arms, open ends.

Takes the board shape, the first tile and the placements of a round (from a
:class:`~deckgen.engine.results.RoundResult` played with ``record=True`` or from a game
record); gives a :class:`Board`. Nothing here draws: the booklet turns a ``Board`` into
SVG.

Geometry: the first tile is the centre (``order`` 0, ``arm`` -1). Each open end
belongs to an *arm*: on a line, arm 0 grows from the first tile's ``low`` side (end 0)
and arm 1 from its ``high`` side (end 1). A double laid crosswise where doubles open new
directions keeps its arm going straight on and starts two new arms at its short sides
(a crosswise opening double starts four arms: 0 and 1 along the line, 2 and 3 across).
``position`` counts tiles outward along an arm (1 = touching the tile it grows from).
``inner`` is the value touching the parent tile, ``outer`` the value facing outward.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deckgen.engine.results import Action, RoundResult
from deckgen.rulespec import RuleSpec
from deckgen.rulespec.model import LayoutShape
from deckgen.tiles import Tile


@dataclass(frozen=True, slots=True)
class PlacedTile:
    order: int
    """0 for the first tile, then 1, 2, ... in the order played."""
    tile: Tile
    seat: int
    """Who placed it (-1 for a tile turned up from the stock)."""
    arm: int
    """-1 for the first tile; else the arm it extends."""
    position: int
    """Tiles from the centre along the arm (0 for the first tile)."""
    parent: int
    """``order`` of the tile it touches (-1 for the first tile)."""
    inner: int
    outer: int
    crosswise: bool
    """A double lying across the line."""


@dataclass(frozen=True, slots=True)
class OpenEnd:
    index: int
    """The engine's end index (``Move.end``)."""
    value: int
    arm: int
    tile_order: int
    """The placed tile whose free side this end is."""


@dataclass(frozen=True, slots=True)
class Board:
    shape: LayoutShape
    tiles: tuple[PlacedTile, ...]
    ends: tuple[OpenEnd, ...]
    spinner: int
    """``order`` of the spinner (the first crosswise double) or -1."""

    def end_values(self) -> tuple[int, ...]:
        return tuple(e.value for e in self.ends)

    def as_dict(self) -> dict[str, object]:
        """Plain JSON-ready data (tiles as ``"a-b"``)."""
        return {
            "shape": self.shape,
            "spinner": self.spinner,
            "tiles": [
                {
                    "order": p.order,
                    "tile": str(p.tile),
                    "seat": p.seat,
                    "arm": p.arm,
                    "position": p.position,
                    "parent": p.parent,
                    "inner": p.inner,
                    "outer": p.outer,
                    "crosswise": p.crosswise,
                }
                for p in self.tiles
            ],
            "ends": [
                {"index": e.index, "value": e.value, "arm": e.arm, "tile_order": e.tile_order}
                for e in self.ends
            ],
        }


def build_board(
    shape: LayoutShape,
    tiles: Sequence[Tile],
    first_tile: int,
    first_seat: int,
    placements: Sequence[Action],
) -> Board:
    """Lay ``first_tile`` and then every ``play`` action of ``placements`` in order.

    ``tiles`` maps deck indices to tiles; actions other than ``play`` are ignored.
    Raises ValueError when a placement does not fit its end (a broken record).
    """
    placed: list[PlacedTile] = []
    # per end index: [value, arm, tile order, position]
    ends: list[list[int]] = []
    spinner = -1
    spinner_open = shape == "spinner"
    t0 = tiles[first_tile]
    cross = t0.is_double and (shape == "cross_doubles" or spinner_open)
    placed.append(PlacedTile(0, t0, first_seat, -1, 0, -1, t0.low, t0.high, cross))
    if cross:
        spinner = 0
        spinner_open = False
        ends = [[t0.low, arm, 0, 0] for arm in range(4)]
    else:
        ends = [[t0.low, 0, 0, 0], [t0.high, 1, 0, 0]]
    next_arm = len(ends)
    for act in placements:
        if act.kind != "play":
            continue
        tile = tiles[act.tile]
        if not 0 <= act.end < len(ends):
            raise ValueError(f"no open end {act.end} for {tile}")
        value, arm, parent, pos = ends[act.end]
        if not tile.has(value):
            raise ValueError(f"{tile} does not fit the open end {value}")
        outer = tile.other(value)
        crosswise = tile.is_double and (shape == "cross_doubles" or spinner_open)
        order = len(placed)
        placed.append(
            PlacedTile(order, tile, act.seat, arm, pos + 1, parent, value, outer, crosswise)
        )
        ends[act.end] = [outer, arm, order, pos + 1]
        if crosswise:
            if spinner < 0:
                spinner = order
            if shape == "spinner":
                spinner_open = False
            for _ in range(2):
                ends.append([value, next_arm, order, 0])
                next_arm += 1
    return Board(
        shape=shape,
        tiles=tuple(placed),
        ends=tuple(OpenEnd(i, e[0], e[1], e[2]) for i, e in enumerate(ends)),
        spinner=spinner,
    )


def board_after(spec: RuleSpec, result: RoundResult, upto: int | None = None) -> Board:
    """The board of a round played with ``record=True``, after its first ``upto`` actions
    (all of them when None): the state a diagram shows at that moment."""
    if result.actions is None:
        raise ValueError("the round was not played with record=True")
    actions = result.actions if upto is None else result.actions[:upto]
    if result.turned_up >= 0:
        first_seat = -1
    else:
        first_seat = result.actions[0].seat if result.actions else result.starter
    return build_board(
        spec.params.board.shape, spec.dset.tiles, result.lead_tile, first_seat, actions
    )
