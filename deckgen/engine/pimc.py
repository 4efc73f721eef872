"""The ``pimc`` bot: perfect-information Monte Carlo over sampled worlds.

Takes a :class:`~deckgen.engine.players.PlayerView` whose ``round`` is the kernel's
:class:`~deckgen.engine.state.RoundState`; gives one of the legal moves. At a decision
with a real choice it

1. works out what it may know (:func:`knowledge`): the tiles it cannot see (neither in
   its hand nor on the table), how many tiles each other seat and the stock hold, and
   per seat the numbers that seat cannot hold (it passed on them, or had to draw);
2. deals those tiles anew, ``worlds`` times, as that allows (:func:`sample_world`),
   into copies of the round: the kernel's own state, so the rules are never copied;
3. plays every legal move in every world to the end: with a fast greedy rollout, or
   by exact search when at most ``endgame`` tiles are left in the hands and nothing
   more can be drawn (each seat then plays for its own side's margin);
4. picks the move with the best average margin: its side's points minus the mean of
   the other sides' points, as the rules file scores the round (ties: the first move
   in engine order).

It reads only its own hand and what every player sees (the table, the counts, the
passes, the history of a recorded round with others' drawn tiles hidden); the same
seed gives the same choices (``tests/engine/test_pimc.py`` deals the hidden tiles
differently and checks the choice does not change).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from deckgen.engine.layouts import Layout, new_layout
from deckgen.engine.moves import Move
from deckgen.engine.players import PlayerView, SmartBot
from deckgen.engine.results import Action
from deckgen.engine.scoring import score_round
from deckgen.engine.state import RoundState
from deckgen.engine.tables import Tables, bits
from deckgen.errors import InputError

WORLDS_RANGE = (1, 10_000)
ENDGAME_RANGE = (0, 12)
DEFAULT_WORLDS = 100
DEFAULT_ENDGAME = 6
_DEFAULTS = {"worlds": DEFAULT_WORLDS, "endgame": DEFAULT_ENDGAME}


@dataclass(frozen=True, slots=True)
class PimcParams:
    """How hard the bot thinks."""

    worlds: int = DEFAULT_WORLDS
    """Worlds (deals of the hidden tiles) sampled per decision."""
    endgame: int = DEFAULT_ENDGAME
    """Search exactly when at most this many tiles are left in all hands together
    and nothing more can be drawn (0: always roll out)."""

    def __post_init__(self) -> None:
        for name, (lo, hi) in (("worlds", WORLDS_RANGE), ("endgame", ENDGAME_RANGE)):
            value = getattr(self, name)
            if not lo <= value <= hi:
                raise InputError(
                    f"pimc {name}={value} is out of range",
                    where="option --bots",
                    fix=f"use {name} from {lo} to {hi}, e.g. 'pimc:{name}={_DEFAULTS[name]}'",
                )


def parse_options(text: str) -> PimcParams:
    """``worlds=50:endgame=4`` (either, both or neither) as :class:`PimcParams`."""
    values: dict[str, int] = {}
    for part in filter(None, text.split(":")):
        key, eq, raw = part.partition("=")
        key = key.strip()
        if key not in ("worlds", "endgame") or not eq:
            raise InputError(
                f"unknown pimc option '{part}'",
                where="option --bots",
                fix="write options as 'pimc:worlds=100:endgame=6'",
            )
        try:
            values[key] = int(raw)
        except ValueError:
            raise InputError(
                f"pimc {key} must be a whole number, not '{raw}'",
                where="option --bots",
                fix=f"write e.g. 'pimc:{key}={_DEFAULTS[key]}'",
            ) from None
    return PimcParams(**values)


# ---------------------------------------------------------------------- knowledge
@dataclass(frozen=True, slots=True)
class Knowledge:
    """What the seat to move may know about the tiles it cannot see."""

    seat: int
    unseen: int
    """Bitmask of the tiles neither in its hand nor on the table."""
    counts: tuple[int, ...]
    """Tiles in each seat's hand."""
    stock: int
    """Tiles in the stock."""
    voids: tuple[int, ...]
    """Per seat, a bitmask of the values none of its tiles carries."""


def knowledge(view: PlayerView, board: int, turned_up: int) -> Knowledge:
    """What the player of ``view`` knows; ``board`` and ``turned_up`` are public."""
    t = view.tables
    return Knowledge(
        seat=view.seat,
        unseen=t.full_mask & ~view.hand & ~board,
        counts=view.hand_counts,
        stock=view.stock_count,
        voids=(voids_from_history(t, view.history, turned_up) if view.history else view.passed_on),
    )


def voids_from_history(t: Tables, history: Sequence[Action], turned_up: int) -> tuple[int, ...]:
    """Per seat, the values none of its tiles carries, read from a round's actions.

    A seat that passes without drawing holds nothing for the open ends; a seat that
    drew holds nothing for the ends it drew on, except the tile it then laid (so
    what was known before the draw no longer holds for the new tiles); after drawing
    and passing where the rules let a fitting drawn tile be kept, nothing is known.
    """
    layout = new_layout(t.shape)
    if turned_up >= 0:
        layout.start(t, turned_up)
    n = t.players
    voids = [0] * n
    drew_on = [-1] * n
    for a in history:
        s = a.seat
        if a.kind == "draw":
            if drew_on[s] < 0:
                drew_on[s] = _mask(layout.ends)
            continue
        if a.kind == "pass":
            if drew_on[s] >= 0:
                voids[s] = drew_on[s] if t.must_play_drawn else 0
            else:
                voids[s] |= _mask(layout.ends)
        else:
            if drew_on[s] >= 0:
                voids[s] = drew_on[s]
            if a.kind == "lead":
                layout.start(t, a.tile)
            else:
                layout.place(t, a.tile, a.end)
        drew_on[s] = -1
    for s in range(n):
        if drew_on[s] >= 0:  # drawing now (the seat to move): a drawn tile fits
            voids[s] = 0
    return tuple(voids)


def _mask(values: Sequence[int]) -> int:
    m = 0
    for v in values:
        m |= 1 << v
    return m


def sample_world(k: Knowledge, t: Tables, rng: random.Random) -> tuple[list[int], list[int]]:
    """Deal the unseen tiles: a hand (bitmask) per seat (0 for the seat that knows) and
    the stock (a list, drawn from its end), each seat avoiding its void values.

    The most constrained seat is dealt first; when a seat cannot be served (the voids
    may be out of date in an unrecorded round with limited drawing), a few new tries
    are made and then the voids are dropped. Uses only ``k`` and ``rng``.
    """
    n = t.players
    suit = t.suit
    seats = [s for s in range(n) if s != k.seat and k.counts[s]]
    forbid = [0] * n
    for s in seats:
        for v in bits(k.voids[s]):
            forbid[s] |= suit[v]
    order = sorted(seats, key=lambda s: ((k.unseen & ~forbid[s]).bit_count() - k.counts[s], s))
    for attempt in range(9):
        if attempt == 8:
            forbid = [0] * n
        left = k.unseen
        hands = [0] * n
        for s in order:
            cand = bits(left & ~forbid[s])
            c = k.counts[s]
            if len(cand) < c:
                break
            h = 0
            for i in rng.sample(cand, c):
                h |= 1 << i
            hands[s] = h
            left &= ~h
        else:
            rest = bits(left)
            rng.shuffle(rest)
            return hands, rest[: k.stock]
    raise ValueError("the unseen tiles cannot fill the hands")  # counts exceed the pool


# ---------------------------------------------------------------------- the bot
class PimcBot:
    """Perfect-information Monte Carlo; see the module docstring."""

    name = "pimc"

    def __init__(self, rng: random.Random, params: PimcParams | None = None) -> None:
        self.rng = rng
        self.params = params or PimcParams()
        if self.params != PimcParams():
            self.name = f"pimc:worlds={self.params.worlds}:endgame={self.params.endgame}"
        self._fallback = SmartBot(rng)
        self._scores: dict[tuple[str, int, tuple[int, ...]], tuple[float, ...]] = {}
        self._weights: dict[int, list[int]] = {}

    def choose(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        if len(moves) == 1:
            return moves[0]
        state = cast("RoundState | None", view.round)
        if state is None:  # a view built without its round: no look-ahead possible
            return self._fallback.choose(view, moves)
        t = view.tables
        k = knowledge(view, state.board, state.setup.turned_up)
        base = state.copy()
        base.actions = None
        base.check = False
        me = view.seat
        side = t.side_of[me]
        exact = sum(k.counts) <= self.params.endgame and (t.draw == "none" or k.stock == 0)
        totals = [0.0] * len(moves)
        memo: dict[tuple[int, ...], list[float]] = {}
        rng = self.rng
        for _ in range(self.params.worlds):
            hands, stock = sample_world(k, t, rng)
            if exact:
                key = tuple(hands)
                got = memo.get(key)
                if got is None:
                    got = memo[key] = self._search_moves(base, hands, stock, moves, side)
                for j, v in enumerate(got):
                    totals[j] += v
                continue
            w = base.copy()
            wh = w.hands
            for s in range(t.players):
                if s != me:
                    wh[s] = hands[s]
            w.stock = stock
            for j, m in enumerate(moves):
                x = w.copy()
                x.step(m)
                totals[j] += self._rollout(x)[side]
        best = 0
        for j in range(1, len(moves)):
            if totals[j] > totals[best]:
                best = j
        return moves[best]

    # ------------------------------------------------------------------ play-outs
    def _margins(self, x: RoundState) -> tuple[float, ...]:
        """Per side: its points minus the mean of the other sides' points."""
        hv = x.finisher.hand_values(x.hands)
        key = (x.end, x.out_seat, hv)
        got = self._scores.get(key)
        if got is None:
            t = x.t
            points = score_round(t, t.scoring, x.end, x.out_seat, hv)[1]
            total = sum(points)
            others = max(len(points) - 1, 1)
            got = tuple(p - (total - p) / others for p in points)
            if len(self._scores) < 1 << 16:
                self._scores[key] = got
        return got

    def _rollout(self, x: RoundState) -> tuple[float, ...]:
        """Play ``x`` to the end, every seat laying its heaviest tile (a double first
        among equal values, then the lowest deck index) on the first end it fits."""
        t = x.t
        weight = self._weights.get(id(t))
        if weight is None:
            weight = [2 * v + (1 if d else 0) for v, d in zip(t.value, t.is_double, strict=True)]
            self._weights = {id(t): weight}
        lo, hi = t.lo, t.hi
        plain = type(x.layout).moves is Layout.moves  # else the layout's own move list
        while not x.end:
            ends = x.layout.ends
            if plain and ends:
                legal = x.legal  # never empty while the state waits for a move
                best, bw = -1, -1
                while legal:
                    low = legal & -legal
                    i = low.bit_length() - 1
                    if weight[i] > bw:
                        best, bw = i, weight[i]
                    legal ^= low
                a, b = lo[best], hi[best]
                for k, v in enumerate(ends):
                    if v in (a, b):
                        x.step(Move(best, k, v))
                        break
                continue
            moves = x.legal_moves()
            mv = moves[0]
            bw = -1 if mv.tile < 0 else weight[mv.tile]
            for m in moves:
                if m.tile >= 0 and weight[m.tile] > bw:
                    mv, bw = m, weight[m.tile]
            x.step(mv)
        return self._margins(x)

    def _search_moves(
        self,
        base: RoundState,
        hands: list[int],
        stock: list[int],
        moves: Sequence[Move],
        side: int,
    ) -> list[float]:
        w = base.copy()
        me = base.seat
        for s in range(base.t.players):
            if s != me:
                w.hands[s] = hands[s]
        w.stock = stock
        out = []
        for m in moves:
            x = w.copy()
            x.step(m)
            out.append(self._search(x)[side])
        return out

    def _search(self, x: RoundState) -> tuple[float, ...]:
        """Exact play-out: each seat picks the move best for its own side (max-n)."""
        if x.end:
            return self._margins(x)
        moves = x.legal_moves()
        side = x.t.side_of[x.seat]
        best: tuple[float, ...] | None = None
        for m in moves:
            y = x.copy()
            y.step(m)
            v = self._search(y)
            if best is None or v[side] > best[side]:
                best = v
        assert best is not None
        return best
