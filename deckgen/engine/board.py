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

from deckgen.engine.layouts import new_layout
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


@dataclass(frozen=True, slots=True)
class _Facts:
    """The tile facts a layout reads, from a tile sequence (see ``layouts.TileTable``)."""

    lo: tuple[int, ...]
    hi: tuple[int, ...]
    pipsum: tuple[int, ...]
    is_double: tuple[bool, ...]
    suit: tuple[int, ...]

    @staticmethod
    def of(tiles: Sequence[Tile]) -> _Facts:
        top = max((t.high for t in tiles), default=0)
        suit = [0] * (top + 1)
        for i, t in enumerate(tiles):
            suit[t.low] |= 1 << i
            suit[t.high] |= 1 << i
        return _Facts(
            tuple(t.low for t in tiles),
            tuple(t.high for t in tiles),
            tuple(t.low + t.high for t in tiles),
            tuple(t.is_double for t in tiles),
            tuple(suit),
        )


def build_board(
    shape: LayoutShape,
    tiles: Sequence[Tile],
    first_tile: int,
    first_seat: int,
    placements: Sequence[Action],
) -> Board:
    """Lay ``first_tile`` and then every ``play`` action of ``placements`` in order.

    The tiles are laid by the kernel's layout (:mod:`deckgen.engine.layouts`), which
    decides the open ends and which doubles lie across; this adds where they lie (arms,
    positions, parents). ``tiles`` maps deck indices to tiles; actions other than
    ``play`` are ignored. Raises ValueError when a placement does not fit its end (a
    broken record).
    """
    facts = _Facts.of(tiles)
    layout = new_layout(shape)
    t0 = tiles[first_tile]
    cross = layout.start(facts, first_tile)
    placed = [PlacedTile(0, t0, first_seat, -1, 0, -1, t0.low, t0.high, cross)]
    spinner = 0 if cross else -1
    # per open end (the layout's end order): arm, tile order, position
    where = [[arm, 0, 0] for arm in range(len(layout.ends))]
    next_arm = len(where)
    for act in placements:
        if act.kind != "play":
            continue
        tile = tiles[act.tile]
        if not 0 <= act.end < len(layout.ends):
            raise ValueError(f"no open end {act.end} for {tile}")
        if not layout.can_place(facts, act.tile, act.end):
            raise ValueError(f"{tile} does not fit the open end {layout.ends[act.end]}")
        value = layout.ends[act.end]
        arm, parent, pos = where[act.end]
        crosswise = layout.place(facts, act.tile, act.end)
        order = len(placed)
        placed.append(
            PlacedTile(
                order, tile, act.seat, arm, pos + 1, parent, value, tile.other(value), crosswise
            )
        )
        where[act.end] = [arm, order, pos + 1]
        if crosswise and spinner < 0:
            spinner = order
        while len(where) < len(layout.ends):  # the ends a crosswise double opened
            where.append([next_arm, order, 0])
            next_arm += 1
    return Board(
        shape=shape,
        tiles=tuple(placed),
        ends=tuple(
            OpenEnd(i, v, w[0], w[1])
            for i, (v, w) in enumerate(zip(layout.ends, where, strict=True))
        ),
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
