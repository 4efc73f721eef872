"""The compiled fast path for the layouts with owned arms: Mexican Train (``trains``) and
Chicken Foot (``chicken_foot``).

Takes the engine's compiled :class:`~deckgen.engine.tables.Tables` of a rules file that
the registry accepts (:mod:`deckgen.engine.backends.registry`); gives the outcome of every
round as :class:`~deckgen.engine.backends.rounds.Rounds`, and whole matches
(:meth:`JitTrains.play_matches`). One compiled
function, :func:`play_batch`, deals, sets out the round's station double, plays the
round with random and greedy bots and scores it, one round after the other, all inside
numba (:mod:`deckgen.engine.backends.jit`); without numba it runs as plain Python (slow, but
the same source, so the tests prove it too).

It follows the kernel (:class:`~deckgen.engine.state.RoundState` with
:class:`~deckgen.engine.trains.Trains` or :class:`~deckgen.engine.chickenfoot.ChickenFoot`)
step for step:

- the deal is :func:`~deckgen.engine.setup.deal_tiles`' partial Fisher-Yates shuffle
  (``floor(u * size)`` picks), then :func:`~deckgen.engine.trains.take_station`: the
  round's double goes to the middle, a player dealt it takes the first stock tile;
- turns: the ends the seat to move may use, the tiles that fit, drawing (up to the draw
  limit, stopping at the reserve), passing, a blocked round (Mexican Train: only when
  nobody can play, since a pass opens the passer's train to the others);
- the moves in the kernel's order: Mexican Train: for each end the seat may use (own
  train, open trains, the Mexican Train; only the double's end while a double waits), the
  fitting tiles by deck index; Chicken Foot: for each distinct value among the ends open
  now (only the next missing arm or toe while one is missing), the fitting tiles by deck
  index. ``random`` picks ``moves[floor(u * len(moves))]``, ``greedy`` the first move
  with the heaviest tile;
- a train's double: the same seat moves again to satisfy it; passing opens the seat's
  train, playing on it closes it; Chicken Foot: six arms on the centre double, three toes
  on every later double, each laid before play goes on elsewhere;
- scoring ``penalty`` (every side loses its own pips, ``out_bonus`` to the side out) by
  the numpy scoring every fast engine shares
  (:func:`~deckgen.engine.backends.numpy_line.score_rounds`).

Given the kernel's deals and one array of decision numbers per round, it gives the
kernel's round results exactly (``tests/engine/test_conformance.py``);
in the rules check it deals and decides from one numpy generator inside the compiled code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from deckgen.engine.backends.deal import (
    DREW_FIT,
    DREW_LIMIT,
    DREW_OUT,
    blocked,
    draw_tiles,
    kth,
    lowest,
    popcount,
    shuffle_front,
)
from deckgen.engine.backends.jit import leaf, njit
from deckgen.engine.backends.numpy_line import score_rounds
from deckgen.engine.backends.rounds import Rounds, clause_bit
from deckgen.engine.state import MAX_TURNS
from deckgen.engine.tables import Tables
from deckgen.rulespec import RuleSpec
from deckgen.tiles import Tile

if TYPE_CHECKING:
    from deckgen.engine.backends.matches import Matches
    from deckgen.engine.backends.protocol import Replay

MAX_ENDS = 256
CENTRE_ARMS = 6
TOES = 3

# cfg slots
C_N, C_T, C_V, C_HAND, C_SHAPE, C_RESERVE, C_LIMIT, C_DRAW, C_LATER, C_SIZE = range(10)
# res columns
R_END, R_OUT, R_STARTER, R_TURNS, R_DRAWS, R_PASSES, R_PLAYED, R_ERROR = range(8)
R_SATISFIED, R_FEET = 8, 9  # tiles laid on a double to satisfy it; arms and toes started
R_DOUBLES, R_DRAWN_PLAYED, R_LIMIT = 10, 11, 12  # doubles laid; drawn tiles laid; limits hit
R_COLS = 13


class Rules(NamedTuple):
    """The rules as arrays for the compiled code."""

    tiles: NDArray[np.int64]
    """(tiles, 4): low half, high half, scoring value, is a double."""
    suits: NDArray[np.uint64]
    """(values, 2): the tiles carrying each value, as two 64-bit words."""
    bits: NDArray[np.uint64]
    """(tiles, 2): each tile's bit as two 64-bit words (one of them 0)."""
    carries: NDArray[np.int64]
    """(tiles,): each tile's two values as bits."""
    doubles: NDArray[np.int64]
    """(values,): deck index of the double ``v-v``."""
    greedy: NDArray[np.int64]
    """(players,): 1 where the seat's bot is ``greedy``."""
    cfg: NDArray[np.int64]


class Given(NamedTuple):
    """Per round: its number in the match (which station double), its starter, and
    the kernel's deal and decision numbers, or empty arrays: dealt and decided inside
    from the generator."""

    round_no: NDArray[np.int64]
    starter: NDArray[np.int64]
    hands: NDArray[np.uint64]
    """(rounds, players, 2), or empty: deal inside."""
    rest: NDArray[np.int64]
    """(rounds, width): the undealt tiles in draw order, -1 padded (before the station)."""
    numbers: NDArray[np.float64]
    """(rounds, k): the k-th random decision of a round uses ``numbers[g, k]``; empty:
    decide from the generator."""


class Out(NamedTuple):
    """Per round: ``res`` (rounds, ``R_COLS``) end, out seat, starter, turns, draws,
    passes, played, error and the clauses' counts; hand values (rounds, players)."""

    res: NDArray[np.int64]
    hv: NDArray[np.int64]


@leaf
def _deal(
    cfg: NDArray[np.int64],
    bits: NDArray[np.uint64],
    rng: Any,
    pool: NDArray[np.int64],
    hands: NDArray[np.uint64],
    stk: NDArray[np.int64],
    lazy: bool,
) -> int:
    """Deal as :func:`deckgen.engine.setup.deal_tiles` does, by the shared compiled
    deal (:func:`~deckgen.engine.backends.deal.shuffle_front`); return the stock size
    (``stk`` in draw order; unshuffled when ``lazy``). Arrays, not :class:`Rules`:
    every array passed costs a reference count."""
    n = cfg[C_N]
    nt = cfg[C_T]
    dealt = n * cfg[C_HAND]
    for i in range(nt):
        pool[i] = i
    shuffle_front(rng, pool, min(dealt, nt - 1) if lazy else nt - 1)
    for s in range(n):
        w0 = np.uint64(0)
        w1 = np.uint64(0)
        for q in range(s * cfg[C_HAND], (s + 1) * cfg[C_HAND]):
            w0 |= bits[pool[q], 0]
            w1 |= bits[pool[q], 1]
        hands[s, 0] = w0
        hands[s, 1] = w1
    for q in range(dealt, nt):
        stk[q - dealt] = pool[q]
    return int(nt - dealt)


@leaf
def _station(
    bits: NDArray[np.uint64], carries: NDArray[np.int64], d: int, hands: NDArray[np.uint64],
    stk: NDArray[np.int64], m: int, lazy: bool, rng: Any,
) -> tuple[int, int]:  # fmt: skip
    """:func:`deckgen.engine.trains.take_station`: return (stock start, stock size) after
    the round's double ``d`` went to the middle (a player dealt it draws one tile)."""
    wd = d >> 6
    b = bits[d, wd]
    for s in range(hands.shape[0]):
        if hands[s, wd] & b:
            hands[s, wd] ^= b
            if m > 0:
                draw_tiles(rng, stk, 0, m, (0, 1, lazy), carries, 0)
                i = stk[0]
                hands[s, 0] |= bits[i, 0]
                hands[s, 1] |= bits[i, 1]
                return 1, m - 1
            return 0, m
    p = 0
    while p < m and stk[p] != d:
        p += 1
    if p == m:  # out of play (not dealt, not in the stock): nothing to take
        return 0, m
    if lazy:
        stk[p] = stk[m - 1]
        return 0, m - 1
    for q in range(p, m - 1):
        stk[q] = stk[q + 1]
    return 0, m - 1


@leaf
def _someone_plays(
    hands: NDArray[np.uint64],
    suits: NDArray[np.uint64],
    ends: NDArray[np.int64],
    n: int,
    opened: int,
    pending: int,
) -> bool:
    """:meth:`deckgen.engine.trains.Trains.someone_can_play`: whether a seat holds a
    tile for a train it may use (its own, the open ones, the Mexican Train; only the
    double's while one waits)."""
    for s in range(n):
        for e in range(n + 1):
            mine = (e == n) | (e == s) | ((opened >> e) & 1 == 1)
            if (pending < 0 and mine) or e == pending:
                v = ends[e]
                if (hands[s, 0] & suits[v, 0]) | (hands[s, 1] & suits[v, 1]):
                    return True
    return False


@njit
def play_batch(r: Rules, given: Given, out: Out, rng: Any) -> int:
    """Play every round of the batch; write the results into ``out``. Returns the
    number of rounds with an error (a decision stream too short: 0 in the check)."""
    cfg = r.cfg
    n = cfg[C_N]
    nt = cfg[C_T]
    shape = cfg[C_SHAPE]
    reserve = cfg[C_RESERVE]
    limit = cfg[C_LIMIT]
    can_draw = cfg[C_DRAW] != 0
    tiles = r.tiles
    suits = r.suits
    bits = r.bits
    carries = r.carries
    g = given.round_no.shape[0]
    deal_inside = given.hands.shape[0] == 0
    rule = (reserve, limit, deal_inside)
    streams = given.numbers.shape[0] > 0
    nk = given.numbers.shape[1] if streams else 0
    pool = np.zeros(nt, dtype=np.int64)
    hands = np.zeros((n, 2), dtype=np.uint64)
    stk = np.zeros(nt + 1, dtype=np.int64)
    ends = np.zeros(MAX_ENDS, dtype=np.int64)
    closed = np.zeros(MAX_ENDS, dtype=np.bool_)
    allowed = np.zeros(MAX_ENDS, dtype=np.int64)
    cnt = np.zeros(MAX_ENDS, dtype=np.int64)
    mk = np.zeros((MAX_ENDS, 2), dtype=np.uint64)
    greedy = r.greedy
    numbers = given.numbers
    doubles = r.doubles
    round_nos = given.round_no
    starters = given.starter
    given_hands = given.hands
    given_rest = given.rest
    res = out.res
    hvs = out.hv
    errors = 0
    for gi in range(g):
        # ---------------------------------------------------------------- the deal
        if deal_inside:
            m = _deal(cfg, bits, rng, pool, hands, stk, True)
        else:
            for s in range(n):
                hands[s, 0] = given_hands[gi, s, 0]
                hands[s, 1] = given_hands[gi, s, 1]
            m = 0
            while m < given_rest.shape[1] and given_rest[gi, m] >= 0:
                stk[m] = given_rest[gi, m]
                m += 1
        nv = cfg[C_V]
        sv = nv - 1 - (round_nos[gi] - 1) % nv
        top, left = _station(bits, carries, doubles[sv], hands, stk, m, deal_inside, rng)
        # ---------------------------------------------------------------- the layout
        opened = 0
        if shape == 0:
            nends = n + 1
            for e in range(nends):
                ends[e] = sv
        else:
            nends = CENTRE_ARMS
            for e in range(nends):
                ends[e] = sv
                closed[e] = False
        pending = -1  # trains: the end of the double to satisfy
        miss_at = 0  # chicken foot: the next missing arm or toe ...
        miss_n = CENTRE_ARMS if shape == 1 else 0  # ... and how many are missing
        seat = starters[gi]
        turns = draws = passes = played = forced = 0
        satisfied = feet = doubles_laid = drawn_laid = limits = 0
        end = -1
        out_seat = -1
        k = 0  # decision numbers used
        err = 0
        while True:
            # ------------------------------------------------------------ a turn begins
            turns += 1
            drew_now = 0
            if turns > MAX_TURNS:
                err = 2
                end = 1
                break
            na = 0
            if shape == 0:
                if pending >= 0:
                    allowed[0] = pending
                    na = 1
                else:
                    y = np.uint64(opened | (1 << seat))
                    while y:
                        allowed[na] = lowest(y)
                        na += 1
                        y &= y - np.uint64(1)
                    allowed[na] = n
                    na += 1
            elif miss_n > 0:
                allowed[0] = miss_at
                na = 1
            else:
                seen = 0
                for e in range(nends):
                    if not closed[e]:
                        vb = 1 << ends[e]
                        if not seen & vb:  # distinct values by their first end
                            seen |= vb
                            allowed[na] = e
                            na += 1
            h0 = hands[seat, 0]
            h1 = hands[seat, 1]
            l0 = np.uint64(0)
            l1 = np.uint64(0)
            for a in range(na):  # the fitting tiles per end the seat may use
                v = ends[allowed[a]]
                x0 = h0 & suits[v, 0]
                x1 = h1 & suits[v, 1]
                mk[a, 0] = x0
                mk[a, 1] = x1
                l0 |= x0
                l1 |= x1
            if l0 == 0 and l1 == 0:
                if can_draw:  # the stock is unshuffled when dealt inside: lazy
                    fits = 0
                    for a in range(na):
                        fits |= 1 << ends[allowed[a]]
                    drawn, why = draw_tiles(rng, stk, top, left, rule, carries, fits)
                    for q in range(top, top + drawn):
                        hands[seat, 0] |= bits[stk[q], 0]
                        hands[seat, 1] |= bits[stk[q], 1]
                    top += drawn
                    left -= drawn
                    draws += drawn
                    drew_now = drawn
                    limits += 1 if why == DREW_LIMIT else 0  # play.draw_limit
                    if why == DREW_OUT and reserve > 0:
                        end = 2
                        break
                    if why == DREW_FIT:
                        i = stk[top - 1]
                        l0 = bits[i, 0]
                        l1 = bits[i, 1]
                        for a in range(na):  # only the drawn tile may be laid
                            v = ends[allowed[a]]
                            mk[a, 0] = suits[v, 0] & l0
                            mk[a, 1] = suits[v, 1] & l1
                if l0 == 0 and l1 == 0:
                    passes += 1
                    forced += 1
                    if shape == 0:
                        opened |= 1 << seat
                    stuck = blocked(forced, n, can_draw, reserve, left)
                    if stuck and shape == 0:  # end.blocked only when nobody can play:
                        stuck = not _someone_plays(hands, suits, ends, n, opened, pending)
                    if stuck:  # (a pass opens a train)
                        end = 1
                        break
                    seat = seat + 1 if seat + 1 < n else 0
                    continue
            # ------------------------------------------------------------ the decision
            total = 0
            for a in range(na):
                c = popcount(mk[a, 0]) + popcount(mk[a, 1])
                cnt[a] = c
                total += c
            if greedy[seat]:
                best = -1
                best_v = -1
                best_e = -1
                for a in range(na):
                    if cnt[a] == 0:
                        continue
                    x = mk[a, 0]
                    while x:
                        i = lowest(x)
                        if tiles[i, 2] > best_v:
                            best, best_v, best_e = i, tiles[i, 2], allowed[a]
                        x &= x - np.uint64(1)
                    x = mk[a, 1]
                    while x:
                        i = 64 + lowest(x)
                        if tiles[i, 2] > best_v:
                            best, best_v, best_e = i, tiles[i, 2], allowed[a]
                        x &= x - np.uint64(1)
                tile = best
                e = best_e
            else:
                if streams:
                    if k >= nk:
                        err = 1
                        end = 1
                        break
                    u = numbers[gi, k]
                else:
                    u = rng.random()
                k += 1
                j = int(u * total)
                a = 0
                while j >= cnt[a]:
                    j -= cnt[a]
                    a += 1
                e = allowed[a]
                x = mk[a, 0]
                c0 = popcount(x)
                if j < c0:  # noqa: SIM108 (numba types one branch at a time)
                    tile = kth(x, j)
                else:
                    tile = 64 + kth(mk[a, 1], j - c0)
            # ------------------------------------------------------------ the tile is laid
            hands[seat, 0] ^= bits[tile, 0]
            hands[seat, 1] ^= bits[tile, 1]
            v = ends[e]
            ends[e] = tiles[tile, 0] + tiles[tile, 1] - v
            double = tiles[tile, 3] != 0
            played += 1
            if double:  # play.doubles
                doubles_laid += 1
            if drew_now > 0:  # play.play_drawn
                drawn_laid += 1
            forced = 0
            if shape == 0:
                if e == seat:
                    opened &= ~(1 << e)
                if pending >= 0:  # play.satisfy_double
                    satisfied += 1
                pending = e if double else -1
            else:
                if miss_n > 0 and miss_at == e:  # play.chicken_foot
                    miss_at += 1
                    miss_n -= 1
                    feet += 1
                if double:
                    closed[e] = True
                    miss_at = nends
                    miss_n = TOES
                    for _q in range(TOES):
                        ends[nends] = v
                        closed[nends] = False
                        nends += 1
            if hands[seat, 0] == 0 and hands[seat, 1] == 0:
                end = 0
                out_seat = seat
                break
            if shape == 0 and double:
                continue  # the same seat satisfies its double
            seat = seat + 1 if seat + 1 < n else 0
        # ---------------------------------------------------------------- results
        res[gi, R_END] = end
        res[gi, R_OUT] = out_seat
        res[gi, R_STARTER] = starters[gi]
        res[gi, R_TURNS] = turns
        res[gi, R_DRAWS] = draws
        res[gi, R_PASSES] = passes
        res[gi, R_PLAYED] = played
        res[gi, R_ERROR] = err
        res[gi, R_SATISFIED] = satisfied
        res[gi, R_FEET] = feet
        res[gi, R_DOUBLES] = doubles_laid
        res[gi, R_DRAWN_PLAYED] = drawn_laid
        res[gi, R_LIMIT] = limits
        if err:
            errors += 1
        for s in range(n):
            hv = 0
            x = hands[s, 0]
            while x:
                hv += tiles[lowest(x), 2]
                x &= x - np.uint64(1)
            x = hands[s, 1]
            while x:
                hv += tiles[64 + lowest(x), 2]
                x &= x - np.uint64(1)
            hvs[gi, s] = hv
    return errors


class JitTrains:
    """Plays batches of rounds and whole matches of one rules file and player count."""

    def __init__(self, spec: RuleSpec, t: Tables) -> None:
        self.spec = spec
        self.t = t
        n = self.n = t.players
        self.nsides = len(t.sides)
        self.side_of = np.array(t.side_of, dtype=np.int64)
        dset = spec.dset
        nt = len(t.tiles)
        tiles = np.zeros((nt, 4), dtype=np.int64)
        bits = np.zeros((nt, 2), dtype=np.uint64)
        for i in range(nt):
            tiles[i] = (t.lo[i], t.hi[i], t.value[i], int(t.is_double[i]))
            bits[i, i >> 6] = np.uint64(1 << (i & 63))
        nv = dset.max_pip + 1
        suits = np.zeros((nv, 2), dtype=np.uint64)
        for v in range(nv):
            m = t.suit[v]
            suits[v, 0] = np.uint64(m & 0xFFFFFFFFFFFFFFFF)
            suits[v, 1] = np.uint64(m >> 64)
        p = spec.params
        cfg = np.zeros(C_SIZE + 1, dtype=np.int64)
        cfg[C_N] = n
        cfg[C_T] = nt
        cfg[C_V] = nv
        cfg[C_HAND] = t.hand_size
        cfg[C_SHAPE] = ("trains", "chicken_foot").index(t.shape)
        cfg[C_RESERVE] = t.reserve
        cfg[C_LIMIT] = t.draw_limit
        cfg[C_DRAW] = int(t.draw != "none")
        cfg[C_LATER] = int(p.opening.later_starter == "next_seat")
        self._base = Rules(
            tiles,
            suits,
            bits,
            (1 << tiles[:, 0]) | (1 << tiles[:, 1]),
            np.array([dset.index(Tile(v, v)) for v in dset.values], dtype=np.int64),
            np.zeros(n, dtype=np.int64),
            cfg,
        )

    def rules(self, kinds: tuple[str, ...]) -> Rules:
        """The arrays for seats playing the bots ``kinds``."""
        greedy = np.array([int(k == "greedy") for k in kinds], dtype=np.int64)
        return self._base._replace(greedy=greedy)

    def play_rounds(self, given: Given, kinds: tuple[str, ...], rng: Any, fn: Any = None) -> Rounds:
        """Play the rounds ``given`` describes (``fn``: :func:`play_batch` or its Python
        source) and return their results."""
        g = given.round_no.shape[0]
        out = Out(np.zeros((g, R_COLS), dtype=np.int64), np.zeros((g, self.n), dtype=np.int64))
        errors = (fn or play_batch)(self.rules(kinds), given, out, rng)
        if errors:
            raise RuntimeError(f"{errors} rounds ran out of decision numbers or turns")
        res = out.res
        sc = self.spec.params.scoring
        winners, points = score_rounds(
            sc, self.side_of, self.nsides, res[:, R_END], res[:, R_OUT], out.hv
        )
        clauses = np.zeros(g, dtype=np.int64)
        clauses |= np.where(res[:, R_SATISFIED] > 0, clause_bit("play.satisfy_double"), 0)
        clauses |= np.where(res[:, R_FEET] > 0, clause_bit("play.chicken_foot"), 0)
        for col, cid in (
            (R_DOUBLES, "play.doubles"),
            (R_DRAWN_PLAYED, "play.play_drawn"),
            (R_LIMIT, "play.draw_limit"),
        ):
            clauses |= np.where(res[:, col] > 0, clause_bit(cid), 0)
        return Rounds(
            res[:, R_END].copy(),
            res[:, R_OUT].copy(),
            res[:, R_STARTER].copy(),
            res[:, R_TURNS].copy(),
            res[:, R_DRAWS].copy(),
            res[:, R_PASSES].copy(),
            res[:, R_PLAYED].copy(),
            out.hv,
            points,
            winners,
            np.zeros(g, dtype=np.int64),
            clauses,
        )

    def dealt(self, round_no: NDArray[np.int64], starter: NDArray[np.int64]) -> Given:
        """Rounds dealt and decided inside the compiled code."""
        return Given(
            round_no.astype(np.int64),
            starter.astype(np.int64),
            np.zeros((0, self.n, 2), dtype=np.uint64),
            np.zeros((0, 1), dtype=np.int64),
            np.zeros((0, 1), dtype=np.float64),
        )

    def replay(self, given: Replay, kinds: tuple[str, ...], fn: Any = None) -> Rounds:
        """The kernel's rounds again: its deals (before the station double is set out),
        round numbers, starters and decision numbers (``fn``: :func:`play_batch` or its
        Python source)."""
        g = len(given.deals)
        hands = np.zeros((g, self.n, 2), dtype=np.uint64)
        for k, d in enumerate(given.deals):
            for s, hand in enumerate(d.hands):
                for i in hand:
                    hands[k, s, i >> 6] |= np.uint64(1 << (i & 63))
        rest = given.rest(len(self.t.tiles) + 1, fill=-1)
        rno = np.asarray(given.round_no, dtype=np.int64)
        starter = np.asarray(given.starter, dtype=np.int64)
        numbers = np.ascontiguousarray(given.numbers, dtype=np.float64)
        dealt = Given(rno, starter, hands, rest, numbers)
        return self.play_rounds(dealt, kinds, np.random.default_rng(0), fn)

    def play_matches(
        self,
        rng: Any,
        matches: int,
        kinds: tuple[str, ...],
        per_match: float = 4.0,
        rounds: int = 0,
    ) -> Matches:
        """Every round of ``matches`` matches of the file's fixed number of rounds, in one
        compiled call (match-major order), as the kernel's
        :func:`~deckgen.engine.match.play_match` plays them: round ``k`` has the
        ``k``-th station double, the first starter is seat 0 and later ones follow
        ``later_starter``."""
        from deckgen.engine.backends.matches import fixed_matches

        per = self.spec.params.match.rounds or 1
        rno = np.tile(np.arange(per, dtype=np.int64), matches)
        starter = rno % self.n if self._base.cfg[C_LATER] else np.zeros_like(rno)
        return fixed_matches(self.play_rounds(self.dealt(rno + 1, starter), kinds, rng), matches)
