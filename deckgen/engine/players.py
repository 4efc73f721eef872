"""Players: one method, ``choose(view, moves)``, that picks one of the legal moves.

A player sees a :class:`PlayerView`: its own hand, the open ends, how many tiles each
other player holds, the stock size, the values each player was seen to pass on, and
the totals; never another hand. Bots:

- ``random``: uniform over the distinct legal placements (two placements that give the
  same board, such as one tile on two ends showing the same number, count once);
- ``greedy``: the heaviest tile first (the first such move on a tie);
- ``smart``: a heuristic of ours: shed heavy tiles and doubles, keep numbers it can
  follow, open numbers that opponents passed on, and not those its partner passed on;
- ``pimc``: perfect-information Monte Carlo (:mod:`deckgen.engine.pimc`): deals the
  hidden tiles anew as what it saw allows, plays each such world out and picks the
  move with the best average points (options: ``pimc:worlds=100:endgame=6``).

Each bot owns a ``random.Random`` seeded from the match seed and its seat, so a seeded
match is reproducible and the deal does not depend on which bots play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from math import floor
from typing import Protocol

from deckgen.engine.moves import Move
from deckgen.engine.results import Action
from deckgen.engine.tables import Tables


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What the player to move may know."""

    seat: int
    hand: int
    """Bitmask of the player's own tiles (deck indices)."""
    ends: tuple[int, ...]
    """The values of the open ends (empty before the lead)."""
    board_count: int
    stock_count: int
    hand_counts: tuple[int, ...]
    passed_on: tuple[int, ...]
    """Per seat, a bitmask of values that seat could not play on this round."""
    totals: tuple[int, ...]
    """Match points per side so far."""
    drew: int
    """Tiles drawn in this turn before choosing."""
    tables: Tables
    history: tuple[Action, ...] = ()
    """The round's actions so far when the round is recorded (others' drawn tiles
    hidden: ``tile = -1``); empty otherwise."""
    round: object = None
    """The round itself (a :class:`deckgen.engine.state.RoundState`, typed loosely here:
    the state builds the views, so naming its class would be an import cycle), for
    search bots that play sampled worlds out on copies. Such a bot may read only what
    every player sees (the board, the layout, the counts, the passes) and must deal the
    hidden tiles anew before it looks ahead (:mod:`deckgen.engine.pimc`;
    ``tests/engine/test_pimc.py`` checks it does)."""


class Player(Protocol):
    """Anything that can choose a move."""

    name: str

    def choose(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        """Return one element of ``moves`` (never empty)."""
        ...


class RandomBot:
    """Uniform over the distinct legal moves."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        return moves[floor(self.rng.random() * len(moves))]  # = int(), for values >= 0


class GreedyBot:
    """The heaviest tile first; among equal ones the first legal move."""

    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        value = view.tables.value
        best = moves[0]
        best_v = -1 if best.tile < 0 else value[best.tile]
        for m in moves[1:]:
            v = -1 if m.tile < 0 else value[m.tile]  # a pass counts -1
            if v > best_v:
                best, best_v = m, v
        return best


class SmartBot:
    """A one-ply heuristic; see the module docstring."""

    name = "smart"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        t = view.tables
        best = moves[0]
        best_score = float("-inf")
        n = len(view.hand_counts)
        my_side = t.side_of[view.seat]
        rand = self.rng.random
        score_of = self._score
        for m in moves:
            score = -5.0 if m.tile < 0 else score_of(view, m, t, n, my_side)  # -5: a pass
            score += rand() * 0.01
            if score > best_score:
                best, best_score = m, score
        return best

    @staticmethod
    def _score(view: PlayerView, m: Move, t: Tables, n: int, my_side: int) -> float:
        i = m.tile
        rest = view.hand & ~(1 << i)
        if rest == 0:
            return 1000.0
        ends = list(view.ends)
        lo, hi = t.lo[i], t.hi[i]
        if m.end < 0:
            ends = [lo, hi]
        else:
            ends[m.end] = hi if lo == m.value else lo
        new_mask = 0  # the values open after the move, as a bitmask
        follow = 0
        suit = t.suit
        for v in ends:
            b = 1 << v
            if not new_mask & b:
                new_mask |= b
                follow += (rest & suit[v]).bit_count()
        score = t.value[i] + (3.0 if t.is_double[i] else 0.0) + 1.5 * min(follow, 4)
        passed_on = view.passed_on
        side_of = t.side_of
        me = view.seat
        for seat in range(n):
            if seat == me:
                continue
            hits = (passed_on[seat] & new_mask).bit_count()
            if side_of[seat] == my_side:
                score -= 2.0 * hits
            else:
                score += 3.0 * hits
        return score
