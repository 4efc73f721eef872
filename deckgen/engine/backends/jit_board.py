"""The one compiled engine for the line and the board games (spinner, every double
crosswise), scoring during play and rounded points included; Mexican Train and Chicken
Foot have their own (:mod:`deckgen.engine.backends.jit_trains`).

Takes the engine's :class:`~deckgen.engine.tables.Tables` of a rules file that the
registry (:mod:`deckgen.engine.backends.registry`) gives it and the seats' bots
(``random`` or ``greedy``); gives :class:`~deckgen.engine.backends.rounds.Rounds` from the
calls of :class:`~deckgen.engine.backends.numpy_line.FastLine` (``deal``,
``first_rule``, ``play``). The deal, the starter rule and the play run as machine code
(:func:`deckgen.engine.backends.jit.njit`), one round after another, with the decision
numbers drawn inside the compiled code from the numpy generator; without numba the same
source runs as Python (far too slow for the check: there the kernel plays).

It follows the kernel (:class:`~deckgen.engine.state.RoundState`) step for step: the
layout's open ends in the kernel's end order (:mod:`deckgen.engine.layouts`: a double
laid across keeps its end and appends two), the kernel's move order (for each distinct
open end, by its first end, the tiles carrying its number by deck index; ends are
distinct by number, or with scoring in play by kind, ``EndCount.kinds``; after a draw only
the drawn tile, and a pass when the rules let a player keep it), ``random`` picking
``moves[floor(u * len(moves))]`` and ``greedy`` the first of the heaviest moves; drawing,
the reserve, passing and the block as :mod:`deckgen.engine.turn` says; the count of the
open ends after every tile laid and its points (:mod:`deckgen.engine.endcount`,
``score.ends``) for the side that laid it. Given the kernel's deals and one stream of
decision numbers per round (:class:`~deckgen.engine.backends.rounds.RoundStreams`) it gives
the kernel's round results exactly (``tests/engine/test_conformance.py``).
The round's end is scored by :meth:`FastLine.score`, rounded (``score.rounding``), and the
points scored during play are added, as :mod:`deckgen.engine.finish` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from deckgen.engine.backends.arrays import Hands
from deckgen.engine.backends.deal import (
    DREW_FIT,
    DREW_OUT,
    blocked,
    deal_order,
    draw_tiles,
    kth,
    lowest,
    popcount,
)
from deckgen.engine.backends.jit import leaf, njit
from deckgen.engine.backends.numpy_line import FastLine, rowwise
from deckgen.engine.backends.protocol import Replay
from deckgen.engine.backends.rounds import Deals, Rounds, RoundStreams, clause_bit, put_back_doubles
from deckgen.engine.state import MAX_TURNS
from deckgen.engine.tables import Tables
from deckgen.rulespec import RuleSpec

I64 = NDArray[np.int64]

# ---------------------------------------------------------------- the config array
C_N = 0
"""Players."""
C_T = 1
"""Tiles in the set."""
C_NV = 2
"""Numbers on the tiles (max pip + 1)."""
C_SHAPE = 3
"""0 line, 1 spinner, 2 every double across."""
C_DRAW = 4
"""1: a player who cannot lay a tile draws."""
C_RESERVE = 5
C_LIMIT = 6
"""Tiles a player may draw in a turn (0: no limit)."""
C_MUST = 7
"""1: a drawn tile that fits must be laid."""
C_MULTIPLE = 8
"""The open ends score when their count is a multiple of this (0: no scoring in play)."""
C_SIDES = 9
C_HAND = 10
"""Tiles per hand."""
C_REDEAL_K = 11
"""A hand with this many doubles is dealt again (0: never)."""
C_NEED = 12
"""Deals under the first-round rule are dealt again when they hold no double (1), or
not the double ``C_NEED_TILE`` (2); 0: never."""
C_NEED_TILE = 13
C_FIRST = 14
"""The first-round starter: 0 seat 0, 1 the highest double, 2 a required double."""
C_LEAD_DOUBLE = 15
"""1: the starter must lead the double that made them starter."""
C_LAZY = 16
"""1: the stock is shuffled as it is drawn (:class:`LazyDeals`)."""
C_SKIP = 17
"""1: a double turned up goes back into the stock (``opening.turned_up_doubles``)."""
C_SEATS = 18
"""Then per seat: 1 when its bot is ``random``; then per seat its side."""

SHAPES = {"line": 0, "spinner": 1, "cross_doubles": 2}

# ---------------------------------------------------------------- the tile table rows
T_LO, T_HI, T_VALUE, T_DOUBLE = 0, 1, 2, 3

# ---------------------------------------------------------------- the result columns
O_END, O_OUT, O_TURNS, O_DRAWS, O_PASSES, O_PLAYED = 0, 1, 2, 3, 4, 5
O_HANDS = 6
"""Then per seat the value left in its hand, then per side its points scored in play."""

# ---------------------------------------------------------------- the start columns
S_STARTER, S_LEAD, S_TURNED = 0, 1, 2


# ================================================================ compiled code
@njit
def deal_rounds(
    rng: np.random.Generator,
    cfg: I64,
    tab: I64,
    first_rule: NDArray[np.bool_],
    hands: I64,
    rest: I64,
    redeals: I64,
) -> None:
    """Shuffle one deal per row of ``hands`` (rounds, players, hand size: deck indices)
    and ``rest`` (the stock in draw order), dealt again while the redeal rules say so
    (``first_rule`` marks the deals whose starter the first-round rule picks).

    With ``C_LAZY`` only the hands are shuffled (Fisher-Yates from the front): ``rest``
    holds the other tiles in no particular order, and the play shuffles on as it draws.
    """
    n = cfg[C_N]
    nt = cfg[C_T]
    h = cfg[C_HAND]
    dealt = n * h
    count = min(dealt, nt - 1) if cfg[C_LAZY] == 1 else nt - 1
    is_double = tab[T_DOUBLE].copy()
    rules = np.array([n, h, cfg[C_REDEAL_K], cfg[C_NEED], cfg[C_NEED_TILE]])
    perm = np.arange(nt)
    for g in range(hands.shape[0]):
        redeals[g] = deal_order(rng, perm, count, rules, is_double, first_rule[g])
        for s in range(n):
            for q in range(h):
                hands[g, s, q] = perm[s * h + q]
        for q in range(dealt, nt):
            rest[g, q - dealt] = perm[q]


@njit
def first_rule_rounds(
    cfg: I64, hands: I64, doubles: I64, heavy: I64, lead_any: bool, out: I64
) -> None:
    """(starter, forced lead tile or -1) per deal under the first-round rule, into the
    rows of ``out``: the holder of the highest (or the required) double, else of the
    heaviest tile (``doubles``: the double tiles by number; ``heavy``: every tile,
    heaviest first)."""
    n = cfg[C_N]
    h = hands.shape[2]
    mode = cfg[C_FIRST]
    lead_double = cfg[C_LEAD_DOUBLE] == 1 and not lead_any
    owner = np.full(cfg[C_T], -1, dtype=np.int64)
    for g in range(hands.shape[0]):
        starter = 0
        lead = -1
        if mode != 0:
            for s in range(n):
                for q in range(h):
                    owner[hands[g, s, q]] = s
            starter = -1
            if mode == 1:
                for v in range(doubles.shape[0] - 1, -1, -1):
                    if owner[doubles[v]] >= 0:
                        starter = owner[doubles[v]]
                        lead = doubles[v]
                        break
            elif owner[cfg[C_NEED_TILE]] >= 0:
                lead = cfg[C_NEED_TILE]
                starter = owner[lead]
            if starter < 0:  # nobody holds the double: the heaviest tile's holder starts
                for tile in heavy:
                    if owner[tile] >= 0:
                        starter = owner[tile]
                        lead = tile
                        break
            if not lead_double:
                lead = -1
            for s in range(n):
                for q in range(h):
                    owner[hands[g, s, q]] = -1
        out[g, 0] = starter
        out[g, 1] = lead


@leaf
def ends_score(ends: I64, double_at: I64, live: I64, ne: int, shared: bool, multiple: int) -> int:
    """What the open ends score (``score.ends``, :mod:`deckgen.engine.endcount`): their
    count (a double across an end counts both halves, an end not yet live nothing, the
    first double's two ends once) when it is a multiple of ``multiple``, else 0."""
    total = 0
    for e in range(ne):
        if live[e] == 1:
            total += 2 * ends[e] if double_at[e] == 1 else ends[e]
    if shared:
        total -= 2 * ends[0]
    return total if total != 0 and total % multiple == 0 else 0


@njit
def play_rounds(
    cfg: I64,
    tab: I64,
    hands: I64,
    rest: I64,
    start: I64,
    numbers: NDArray[np.float64],
    rng: np.random.Generator,
    out: I64,
) -> None:
    """Play one round from each deal; write each round's outcome into its row of ``out``.

    ``hands`` (rounds, players, hand size) and ``rest`` hold deck indices as
    :meth:`JitBoard.deal` gives them; ``start`` holds per round the starter, the tile
    they must lead (-1: free choice) and whether the start tile is turned up (the first
    tile of ``rest``, or of a lazy stock a uniform one). A random bot's k-th decision of
    round ``g`` uses ``numbers[g, k]`` when ``numbers`` has columns, else the next number
    of ``rng``.
    With ``C_LAZY`` the stock is shuffled (in place) as it is drawn, from ``rng``.

    Per seat and number the tiles of the hand carrying it are one word of bits (bit
    ``q``: the number's ``q``-th tile by deck index), so a turn costs a few steps per
    distinct open end; the distinct ends (the first of each number, or of
    each kind with scoring in play) are found again only after a tile was laid.
    """
    n = cfg[C_N]
    nt = cfg[C_T]
    nv = cfg[C_NV]
    shape = cfg[C_SHAPE]
    can_draw = cfg[C_DRAW] == 1
    reserve = cfg[C_RESERVE]
    limit = cfg[C_LIMIT]
    must = cfg[C_MUST] == 1
    multiple = cfg[C_MULTIPLE]
    nsides = cfg[C_SIDES]
    lo = tab[T_LO]
    hi = tab[T_HI]
    val = tab[T_VALUE]
    dbl = tab[T_DOUBLE]
    lazy = cfg[C_LAZY] == 1
    given = numbers.shape[1] > 0
    size = rest.shape[1]
    h = hands.shape[2]
    # the tiles carrying each number, by deck index (a double once), and each tile's
    # bit in the words of its low and its high number (0 for a double's second)
    carry = np.zeros((nv, nt), dtype=np.int64)
    ncarry = np.zeros(nv, dtype=np.int64)
    bit_lo = np.zeros(nt, dtype=np.uint64)
    bit_hi = np.zeros(nt, dtype=np.uint64)
    carries = (1 << lo) | (1 << hi)
    rule = (reserve, limit, lazy)
    for i in range(nt):
        a = lo[i]
        b = hi[i]
        carry[a, ncarry[a]] = i
        bit_lo[i] = np.uint64(1) << np.uint64(ncarry[a])
        ncarry[a] += 1
        if b != a:
            carry[b, ncarry[b]] = i
            bit_hi[i] = np.uint64(1) << np.uint64(ncarry[b])
            ncarry[b] += 1
    max_ends = 4 + 2 * nv
    word = np.zeros((n, nv), dtype=np.uint64)
    """Per seat and number: the tiles of the hand carrying it, as bits."""
    held = np.zeros(n, dtype=np.int64)
    hv = np.zeros(n, dtype=np.int64)
    ends = np.zeros(max_ends, dtype=np.int64)
    double_at = np.zeros(max_ends, dtype=np.int64)
    live = np.zeros(max_ends, dtype=np.int64)
    first_kind = np.full(4 * nv, -1, dtype=np.int64)
    """With scoring in play: per kind of end (number, double at it, counts yet), its
    first end, or -1."""
    shown = np.zeros(max_ends, dtype=np.int64)
    """Per distinct end (a move's place): the number it shows ..."""
    at = np.zeros(max_ends, dtype=np.int64)
    """... the end ..."""
    kind = np.zeros(max_ends, dtype=np.int64)
    """... and its kind (scoring in play) or number."""
    per = np.zeros(max_ends, dtype=np.int64)
    points = np.zeros(nsides, dtype=np.int64)
    for g in range(hands.shape[0]):
        for s in range(n):
            held[s] = h
            hv[s] = 0
            for v in range(nv):
                word[s, v] = 0
            for q in range(h):
                i = hands[g, s, q]
                hv[s] += val[i]
                word[s, lo[i]] |= bit_lo[i]
                word[s, hi[i]] |= bit_hi[i]
        for k in range(nsides):
            points[k] = 0
        seat = start[g, S_STARTER]
        used = 0  # decision numbers
        stock = rest[g]
        spin_open = shape == 1
        turns = 0
        draws = 0
        passes = 0
        played = 0
        forced = 0
        end = -1
        out_seat = -1
        top = 0
        # ------------------------------------------------ the start tile or the lead
        if start[g, S_TURNED] == 1:
            if lazy:  # a uniform tile of the stock comes up (a double goes back)
                while True:
                    j = int(rng.random() * size)
                    if cfg[C_SKIP] == 0 or dbl[stock[j]] == 0:
                        break
                tile = stock[j]
                stock[j] = stock[0]
                stock[0] = tile
            tile = stock[0]
            top = 1
            lead_seat = -1
        else:
            turns = 1
            tile = start[g, S_LEAD]
            lead_seat = seat
            if cfg[C_SEATS + seat] == 1:  # random: the k-th tile of the hand
                k = int((numbers[g, used] if given else rng.random()) * held[seat])
                used += 1
                if tile < 0:
                    for i in range(nt):
                        if word[seat, lo[i]] & bit_lo[i]:
                            if k == 0:
                                tile = i
                                break
                            k -= 1
            elif tile < 0:  # greedy: the first of the heaviest tiles
                best = -1
                for i in range(nt):
                    if word[seat, lo[i]] & bit_lo[i] and val[i] > best:
                        best = val[i]
                        tile = i
            held[seat] -= 1
            hv[seat] -= val[tile]
            word[seat, lo[tile]] ^= bit_lo[tile]
            word[seat, hi[tile]] ^= bit_hi[tile]
            played = 1
        across = (dbl[tile] == 1) & ((shape == 2) | spin_open)
        a = lo[tile]
        ends[0] = a
        ends[1] = a if across else hi[tile]
        ne = 2
        double_at[0] = dbl[tile]
        double_at[1] = dbl[tile]
        live[0] = 1
        live[1] = 1
        shared = dbl[tile] == 1
        if across:
            ends[2] = a
            ends[3] = a
            double_at[2] = 0
            double_at[3] = 0
            live[2] = 0
            live[3] = 0
            ne = 4
            spin_open = False
        if lead_seat >= 0:
            if multiple > 0:
                score = ends_score(ends, double_at, live, ne, shared, multiple)
                points[cfg[C_SEATS + n + lead_seat]] += score
            if held[lead_seat] == 0:
                end = 0
                out_seat = lead_seat
            seat = seat + 1 if seat + 1 < n else 0
        # ------------------------------------------------ turns
        nd = 0
        showing = 0
        """The numbers the open ends show, as bits (what a drawn tile must fit)."""
        laid = True
        while end < 0:
            turns += 1
            if turns > MAX_TURNS:  # as the engine: a bug, never a hang
                raise RuntimeError("a round ran past 100000 turns")
            if laid and ne == 2 and multiple == 0:  # the distinct open ends of a line
                shown[0] = ends[0]
                shown[1] = ends[1]
                at[1] = 1
                nd = 1 if ends[1] == ends[0] else 2
                showing = (1 << ends[0]) | (1 << ends[1])
                laid = False
            elif laid:  # the distinct open ends, by their first end (first_kind is
                for j in range(nd):  # clear: the line's branch above never fills it)
                    first_kind[kind[j]] = -1
                nd = 0
                showing = 0
                for e in range(ne):  # without branches: the outcome is a coin toss
                    v = ends[e]
                    showing |= 1 << v
                    # with scoring in play an end is distinct by its kind (endcount.kinds)
                    key = v * 4 + double_at[e] * 2 + live[e] if multiple > 0 else v
                    new = first_kind[key] < 0
                    first_kind[key] = e if new else first_kind[key]
                    shown[nd] = v
                    at[nd] = e
                    kind[nd] = key
                    nd += 1 if new else 0
                laid = False
            moves = 0
            for j in range(nd):
                c = popcount(word[seat, shown[j]])
                per[j] = c
                moves += c
            drew = 0
            drawn = -1
            if moves == 0:
                if can_draw:
                    drew, why = draw_tiles(rng, stock, top, size - top, rule, carries, showing)
                    for q in range(top, top + drew):
                        i = stock[q]
                        held[seat] += 1
                        hv[seat] += val[i]
                        word[seat, lo[i]] |= bit_lo[i]
                        word[seat, hi[i]] |= bit_hi[i]
                    top += drew
                    draws += drew
                    if why == DREW_OUT and reserve > 0:  # end.reserve
                        end = 2
                        break
                    drawn = stock[top - 1] if why == DREW_FIT else -1
                if drawn < 0:
                    passes += 1
                    forced += 1
                    if blocked(forced, n, can_draw, reserve, size - top):
                        end = 1
                        break
                    seat = seat + 1 if seat + 1 < n else 0
                    continue
                for j in range(nd):  # only the drawn tile may be laid
                    v = shown[j]
                    per[j] = 1 if lo[drawn] == v or hi[drawn] == v else 0
                    moves += per[j]
            tile = -1
            v = -1
            if cfg[C_SEATS + seat] == 1:
                may = int((drew > 0) & (not must))  # no branches: a coin toss
                k = int((numbers[g, used] if given else rng.random()) * (moves + may))
                used += 1
                if k == moves:  # kept the drawn tile and passed
                    passes += 1
                    forced = 0
                    seat = seat + 1 if seat + 1 < n else 0
                    continue
                j = -1
                for jj in range(nd):  # the number holding move k, and k within it
                    c = per[jj]
                    take = j < 0 and k < c
                    j = jj if take else j
                    k = k if j >= 0 else k - c
                v = shown[j]
                e = at[j]
                tile = drawn if drawn >= 0 else carry[v, kth(word[seat, v], k)]
            else:  # greedy: the first of the heaviest moves
                best = -1
                e = -1
                for j in range(nd):
                    if per[j] == 0:
                        continue
                    w = shown[j]
                    if drawn >= 0:
                        if val[drawn] > best:
                            best = val[drawn]
                            tile = drawn
                            v = w
                            e = at[j]
                        continue
                    x = word[seat, w]
                    while x != 0:
                        i = carry[w, lowest(x)]
                        x &= x - np.uint64(1)
                        if val[i] > best:
                            best = val[i]
                            tile = i
                            v = w
                            e = at[j]
            # ---------------------------------------------- lay the tile on end e (the
            # first of its kind); a double across keeps its end and opens two more
            held[seat] -= 1
            hv[seat] -= val[tile]
            word[seat, lo[tile]] ^= bit_lo[tile]
            word[seat, hi[tile]] ^= bit_hi[tile]
            ends[e] = lo[tile] + hi[tile] - v
            across = (dbl[tile] == 1) & ((shape == 2) | spin_open)
            laid = True
            if across:
                ends[ne] = v
                ends[ne + 1] = v
                spin_open = False
            if multiple > 0:  # the open ends' count (score.ends)
                double_at[e] = dbl[tile]
                live[e] = 1
                if e < 2:
                    shared = False
                if across:
                    double_at[ne] = 0
                    double_at[ne + 1] = 0
                    live[ne] = 0
                    live[ne + 1] = 0
            if across:
                ne += 2
            if multiple > 0:
                score = ends_score(ends, double_at, live, ne, shared, multiple)
                points[cfg[C_SEATS + n + seat]] += score
            played += 1
            forced = 0
            if held[seat] == 0:
                end = 0
                out_seat = seat
                break
            seat = seat + 1 if seat + 1 < n else 0
        for j in range(nd):
            first_kind[kind[j]] = -1
        out[g, O_END] = end
        out[g, O_OUT] = out_seat
        out[g, O_TURNS] = turns
        out[g, O_DRAWS] = draws
        out[g, O_PASSES] = passes
        out[g, O_PLAYED] = played
        for s in range(n):
            out[g, O_HANDS + s] = hv[s]
        for k in range(nsides):
            out[g, O_HANDS + n + k] = points[k]


# ================================================================ the engine
@dataclass
class LazyDeals(Deals):
    """Deals whose stock is shuffled only as it is drawn: ``rest`` holds the undealt
    tiles in no particular order, and :meth:`JitBoard.play` turns up and draws each tile
    uniformly from those left (a turned-up double that goes back is never taken; moving
    each to the front: afterwards ``rest`` starts with the tiles in
    the order they were drawn). Saves shuffling the tiles nobody draws."""


class JitBoard(FastLine):
    """Plays batches of rounds of one rules file and player count as machine code.

    Deals, starters and play are compiled; the end of a round is scored by
    :meth:`FastLine.score` (numpy, over the whole batch), as the numpy line engine scores.
    """

    def __init__(self, spec: RuleSpec, t: Tables) -> None:
        self.spec = spec
        self.t = t
        n = self.n = t.players
        self.ntiles = len(t.tiles)
        self.is_double = np.array(t.is_double, dtype=bool)
        self.values = spec.dset.max_pip + 1
        self.nsides = len(t.sides)
        self.side_of = np.array(t.side_of, dtype=np.int64)
        p = spec.params
        self.opening = p.opening
        self.scoring = p.scoring
        self.double_index = list(t.double_index)
        self.heavy_order = sorted(
            range(self.ntiles), key=lambda i: (t.lo[i] + t.hi[i], t.hi[i]), reverse=True
        )
        op = p.opening
        cfg = np.zeros(C_SEATS + 2 * n, dtype=np.int64)
        cfg[C_N] = n
        cfg[C_T] = self.ntiles
        cfg[C_NV] = self.values
        cfg[C_SHAPE] = SHAPES[t.shape]
        cfg[C_DRAW] = 1 if t.draw != "none" else 0
        cfg[C_RESERVE] = t.reserve
        cfg[C_LIMIT] = t.draw_limit
        cfg[C_MUST] = 1 if t.must_play_drawn else 0
        cfg[C_MULTIPLE] = t.ends_multiple
        cfg[C_SIDES] = self.nsides
        cfg[C_HAND] = t.hand_size
        cfg[C_REDEAL_K] = t.redeal_doubles
        if op.first_starter == "highest_double":
            cfg[C_FIRST] = 1
        elif op.first_starter == "required_double":
            assert op.required_double is not None
            cfg[C_FIRST] = 2
            cfg[C_NEED_TILE] = self.double_index[op.required_double]
        if op.no_double == "redeal" and op.first_starter != "seat":
            cfg[C_NEED] = cfg[C_FIRST]
        cfg[C_LEAD_DOUBLE] = 1 if op.lead == "starter_double" else 0
        cfg[C_SKIP] = 1 if op.turned_up_doubles == "skip" else 0
        cfg[C_SEATS + n : C_SEATS + 2 * n] = self.side_of
        self.cfg = cfg
        self.tab = np.array([t.lo, t.hi, t.value, t.is_double], dtype=np.int64)
        self.doubles = np.array(self.double_index, dtype=np.int64)
        self.heavy = np.array(self.heavy_order, dtype=np.int64)
        self.round_to = p.scoring.round_to

    def deal(self, rng: Any, count: int, first_rule: np.ndarray | None = None) -> Deals:
        """``count`` uniformly shuffled deals, each dealt again while the redeal rules
        say so (``first_rule`` marks the deals whose starter the first-round rule picks).

        The hands come as deck indices (rounds, players, hand size), not as masks."""
        if first_rule is None:
            first_rule = np.ones(count, dtype=bool)
        h = self.t.hand_size
        hands = np.zeros((count, self.n, h), dtype=np.int64)
        rest = np.zeros((count, self.ntiles - self.n * h), dtype=np.int64)
        redeals = np.zeros(count, dtype=np.int64)
        cfg = self.cfg.copy()
        cfg[C_LAZY] = 1
        deal_rounds(rng, cfg, self.tab, first_rule.astype(bool), hands, rest, redeals)
        return LazyDeals(hands, rest, redeals)

    def hands_of(self, given: Replay) -> Hands:
        """The kernel's dealt hands as deck indices (rounds, players, hand size)."""
        return np.array([d.hands for d in given.deals], dtype=np.int64)

    def indices(self, hands: np.ndarray) -> I64:
        """Hands as deck indices (rounds, players, hand size)."""
        return np.ascontiguousarray(hands, dtype=np.int64)

    def first_rule(self, hands: np.ndarray, lead_any: bool) -> tuple[np.ndarray, np.ndarray]:
        """(starter, forced lead tile or -1) per deal under the first-round rule."""
        out = np.zeros((hands.shape[0], 2), dtype=np.int64)
        idx = self.indices(hands)
        first_rule_rounds(self.cfg, idx, self.doubles, self.heavy, bool(lead_any), out)
        return out[:, 0].copy(), out[:, 1].copy()

    def play(
        self,
        deals: Deals,
        starter: np.ndarray,
        lead_tile: np.ndarray,
        lead_any: np.ndarray,
        kinds: tuple[str, ...],
        rng: Any,
    ) -> Rounds:
        """Play one round from each deal (see :meth:`FastLine.play`)."""
        n = self.n
        g = deals.hands.shape[0]
        cfg = self.cfg.copy()
        cfg[C_SEATS : C_SEATS + n] = [1 if k == "random" else 0 for k in kinds]
        cfg[C_LAZY] = 1 if isinstance(deals, LazyDeals) else 0
        start = np.zeros((g, 3), dtype=np.int64)
        start[:, S_STARTER] = starter
        start[:, S_LEAD] = lead_tile
        rest = deals.rest
        if self.opening.lead == "turned_up":
            turned = ~np.asarray(lead_any, dtype=bool)
            start[:, S_TURNED] = turned
            skip = self.opening.turned_up_doubles == "skip"
            put_back = not isinstance(rng, RoundStreams) and not isinstance(deals, LazyDeals)
            if skip and turned.any() and put_back:
                idx = np.nonzero(turned)[0]
                rest = rest.copy()
                rest[idx] = put_back_doubles(rest[idx], self.is_double, rng)
        if isinstance(rng, RoundStreams):
            numbers = np.ascontiguousarray(rng.numbers, dtype=np.float64)
            gen = np.random.default_rng(0)
        else:
            numbers = np.zeros((g, 0), dtype=np.float64)
            gen = rng
        out = np.zeros((g, O_HANDS + n + self.nsides), dtype=np.int64)
        hands = self.indices(deals.hands)
        rest = np.ascontiguousarray(rest, dtype=np.int64)  # in place: a lazy stock is shuffled
        play_rounds(cfg, self.tab, hands, rest, start, numbers, gen, out)
        return self.results(out, np.asarray(starter, dtype=np.int64), deals)

    def results(self, out: I64, starter: I64, deals: Deals) -> Rounds:
        """The rounds' outcome from the compiled play's rows: the end scored as the
        engine scores it, rounded, plus the points scored during play."""
        n = self.n
        end = out[:, O_END].copy()
        out_seat = out[:, O_OUT].copy()
        hv = out[:, O_HANDS : O_HANDS + n].copy()
        winners, points = self.score(end, out_seat, hv)
        during = out[:, O_HANDS + n :]
        clauses = np.where(rowwise(np.logical_or, during != 0), clause_bit("score.ends"), 0)
        m = self.round_to
        if m is not None:
            rounded = rowwise(np.logical_or, points != 0)  # the engine rounds only points scored
            clauses |= np.where(rounded, clause_bit("score.rounding"), 0)
            points = (points + m // 2) // m * m
        points = points + during
        g = end.shape[0]
        redeals = deals.redeals if deals.redeals is not None else np.zeros(g, dtype=np.int64)
        return Rounds(
            end,
            out_seat,
            starter,
            out[:, O_TURNS].copy(),
            out[:, O_DRAWS].copy(),
            out[:, O_PASSES].copy(),
            out[:, O_PLAYED].copy(),
            hv,
            points,
            winners,
            redeals,
            clauses.astype(np.int64),
        )
