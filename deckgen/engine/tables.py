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
from deckgen.rulespec.model import Opening, Scoring
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
    shape: str
    draw: str
    draw_limit: int
    """0 when drawing is not limited."""
    must_play_drawn: bool
    double_index: tuple[int, ...]
    """Deck index of the double ``v-v`` by ``v``."""
    tile_bits: tuple[int, ...]
    """``1 << i`` per tile."""
    special_mask: int
    """Tiles with a special scoring value (``scoring.tile_values``)."""
    opening: Opening
    scoring: Scoring
    ends_multiple: int = 0
    """Scoring during play: the open ends' count scores when a multiple of this (0: no)."""
    draw_per_turn: bool = False
    """The other reading of ``play.draw_limit`` (:mod:`deckgen.rulecheck.readings`): the
    limit counts the whole turn, so a player who drew the double they laid may not draw
    again to cover it. False (the rules files' reading): one draw for each tile to lay."""
    reserve_pass: bool = False
    """The other reading of ``end.reserve``: a player whose own draws have just brought
    the stock down to the reserve, with nothing that fits, passes, and the round ends
    when the next player cannot lay a tile. False (the rules files' reading): the round
    ends at once."""
    block_on_passes: bool = False
    """The other reading of ``end.blocked``: the round ends after a full circle of passes
    with nothing to draw, even when a pass opened a train an earlier passer could play
    on now. False (the rules files' reading): only when nobody can play."""


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
        double_index=tuple(spec.dset.index(Tile(v, v)) for v in spec.dset.values),
        tile_bits=tuple(1 << i for i in range(len(tiles))),
        special_mask=sum(1 << i for i, t in enumerate(tiles) if str(t) in special),
        opening=p.opening,
        scoring=p.scoring,
        ends_multiple=p.scoring.ends_multiple or 0,
    )


def bits(mask: int) -> list[int]:
    """The set bit positions of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
