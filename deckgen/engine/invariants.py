"""Run-time invariant checks (``--check-invariants``): an engine bug stops play loudly.

Takes the engine's state after a step; raises :class:`InvariantError` naming what is
wrong. Checked: every tile is in exactly one place (a hand, the stock, the board, the
dead tiles); a placed tile carries the number of the end it joins and came from the
mover's hand; a round's result agrees with its end (a player who goes out wins the
round, or the team does), its scores agree with an independent recount, and its
counts add up.
"""

from __future__ import annotations

from functools import reduce
from operator import or_

from deckgen.engine.layouts import Layout
from deckgen.engine.results import END_OUT, InvariantError, RoundResult
from deckgen.engine.tables import Tables


def check_tiles(t: Tables, hands: list[int], stock: list[int], board: int, dead: int) -> None:
    """Every tile is in exactly one place: the places together hold every tile, and their
    sizes add up to the number of tiles (so no two places share one; the stock, a list,
    holds no tile twice)."""
    in_stock = reduce(or_, map((1).__lshift__, stock), 0)
    seen = board | dead | in_stock
    count = board.bit_count() + dead.bit_count() + len(stock)
    for mask in hands:
        seen |= mask
        count += mask.bit_count()
    if seen != t.full_mask or count != len(t.tiles) or in_stock.bit_count() != len(stock):
        _name_misplaced(t, hands, stock, board, dead)


def _name_misplaced(t: Tables, hands: list[int], stock: list[int], board: int, dead: int) -> None:
    """Raise the :class:`InvariantError` that names the first tile out of place."""
    seen = 0
    count = 0
    places = [(f"hand {s}", h) for s, h in enumerate(hands)] + [("board", board), ("dead", dead)]
    for where, mask in places:
        if seen & mask:
            raise InvariantError(f"a tile in {where} is also somewhere else")
        seen |= mask
        count += mask.bit_count()
    for i in stock:
        if seen >> i & 1:
            raise InvariantError(f"stock tile {t.tiles[i]} is also somewhere else")
        seen |= 1 << i
        count += 1
    raise InvariantError(f"{len(t.tiles) - count} tiles are missing or doubled")


def check_placement(t: Tables, layout: Layout, tile: int, end: int, hand: int) -> None:
    """The tile comes from the mover's hand and the layout lets it go on ``end``."""
    if not hand >> tile & 1:
        raise InvariantError(f"tile {t.tiles[tile]} is not in the mover's hand")
    if not layout.can_place(t, tile, end):
        raise InvariantError(f"tile {t.tiles[tile]} does not fit open end {end} of {layout.ends}")


def check_round(t: Tables, r: RoundResult, hands: list[int], dead: int = -1) -> None:
    """The result agrees with the final hands and the rules (``dead``: the tiles out of
    play, when known)."""
    hv = tuple(sum(t.value[i] for i in range(len(t.tiles)) if h >> i & 1) for h in hands)
    if hv != r.hand_values:
        raise InvariantError(f"hand values {r.hand_values} but the hands hold {hv}")
    if r.end == END_OUT:
        if hands[r.out_seat] != 0:
            raise InvariantError("the player who went out still holds tiles")
        if r.winners != (t.side_of[r.out_seat],):
            raise InvariantError("the side that went out did not win the round")
    elif any(h == 0 for h in hands):
        raise InvariantError("a player has no tiles but the round did not end by going out")
    sc = t.scoring
    sv = [sum(hv[s] for s in side) for side in t.sides]
    during = r.play_points or (0,) * len(r.points)
    if any(p < 0 or (p and p % t.ends_multiple) for p in during):
        raise InvariantError(f"points scored during play {during} are not multiples")
    end_points = [p - d for p, d in zip(r.points, during, strict=True)]
    if sc.round_to and any(p % sc.round_to for p in end_points):
        raise InvariantError(f"round points {end_points} are not rounded to {sc.round_to}")
    if sc.method == "penalty":
        for i, p in enumerate(end_points):
            bonus = sc.out_bonus if (r.end == END_OUT and i in r.winners) else 0
            if p != bonus - sv[i]:
                raise InvariantError(f"side {i} scored {p}, expected {bonus - sv[i]}")
    else:
        for i, p in enumerate(end_points):
            if i not in r.winners and p != 0:
                raise InvariantError(f"side {i} did not win but scored {p}")
            if i in r.winners and p < 0:
                raise InvariantError(f"winning side {i} scored {p}")
    dealt = t.hand_size * t.players
    station = r.turned_up >= 0 and t.opening.lead == "station"
    if station and dead >= 0 and dead.bit_count() == len(t.tiles) - dealt:
        dealt -= 1  # the station double left a hand, and no stock could replace it
    board = r.tiles_played + (1 if r.turned_up >= 0 else 0)
    held = sum(h.bit_count() for h in hands)
    if dealt + r.draws != held + r.tiles_played:
        raise InvariantError(
            f"{dealt} dealt + {r.draws} drawn != {held} held + {r.tiles_played} played"
        )
    if board < 1:
        raise InvariantError("the board is empty at the end of a round")
