"""The rules compiled into flat tables for fast play.

Takes a :class:`~deckgen.rulespec.RuleSpec`; gives :class:`Tables`: per tile (by deck
index) its two values, its scoring value and whether it is a double, the suit masks
(``suit[v]``: bitmask of the tiles carrying value ``v``), and the rule parameters as
plain attributes, so the play loop reads locals instead of nested models. Hands, the
stock and the board are bitmasks over deck indices: legal tiles on a line with ends
``a`` and ``b`` are ``hand & (suit[a] | suit[b])``.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckgen.rulespec import RuleSpec
from deckgen.rulespec.model import LayoutShape
from deckgen.tiles import Tile


@dataclass(frozen=True, slots=True)
class Tables:
    """Flat, read-only data for one rules file and player count."""

    players: int
    tiles: tuple[Tile, ...]
    lo: tuple[int, ...]
    hi: tuple[int, ...]
    pipsum: tuple[int, ...]
    """``lo + hi`` per tile: the far end after matching value v is ``pipsum - v``."""
    value: tuple[int, ...]
    """Scoring value of each tile: its pips, or a special value from the rules."""
    is_double: tuple[bool, ...]
    double_mask: int
    suit: tuple[int, ...]
    full_mask: int
    hand_size: int
    stock_rest: bool
    reserve: int
    redeal_doubles: int
    """0 when no redeal rule."""
    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]
    shape: LayoutShape
    draw: str
    draw_limit: int
    """0 when drawing is not limited."""
    must_play_drawn: bool


def compile_tables(spec: RuleSpec, players: int) -> Tables:
    """Precompute everything the play loop needs for ``players`` players."""
    p = spec.params
    size = spec.hand_size(players)
    tiles = spec.dset.tiles
    special = dict(p.scoring.tile_values)
    sides = tuple(spec.teams(players))
    side_of = [0] * players
    for i, side in enumerate(sides):
        for seat in side:
            side_of[seat] = i
    double_mask = 0
    for i, t in enumerate(tiles):
        if t.is_double:
            double_mask |= 1 << i
    return Tables(
        players=players,
        tiles=tiles,
        lo=tuple(t.low for t in tiles),
        hi=tuple(t.high for t in tiles),
        pipsum=tuple(t.low + t.high for t in tiles),
        value=tuple(special.get(str(t), t.pips) for t in tiles),
        is_double=tuple(t.is_double for t in tiles),
        double_mask=double_mask,
        suit=spec.dset.suit_masks(),
        full_mask=(1 << len(tiles)) - 1,
        hand_size=size,
        stock_rest=p.deal.rest == "stock",
        reserve=p.deal.stock_reserve if p.deal.rest == "stock" else 0,
        redeal_doubles=p.deal.redeal_doubles or 0,
        sides=sides,
        side_of=tuple(side_of),
        shape=p.board.shape,
        draw=p.turn.draw if p.deal.rest == "stock" else "none",
        draw_limit=p.turn.draw_limit or 0,
        must_play_drawn=p.turn.play_drawn == "must",
    )


def bits(mask: int) -> list[int]:
    """The set bit positions of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
