"""The compiled fast path for line games: deal, starter and play of whole batches.

Takes a rules file with a ``line`` board that the registry accepts (any number of
tiles: hands are two 64-bit words, so double-twelve on a line fits too), the seats'
bots (``random`` or ``greedy``) and a numpy generator; gives the outcome of every round
as :class:`~deckgen.engine.backends.rounds.Rounds`, as
:class:`~deckgen.engine.backends.numpy_line.FastLine` does, with the same interface
(``deal``, ``first_rule``, ``play``), so the registry
(:mod:`deckgen.engine.backends.registry`) plays line games with it when
:data:`~deckgen.engine.backends.jit.HAVE_JIT`.

Each round is played to its end in one compiled loop (one round after the other, not
in lock-step): the same rules as the kernel (:class:`~deckgen.engine.state.RoundState`)
and the same contract as the numpy line engine's: the kernel's move order (the tiles
that fit end 0, lowest deck index first, then those that fit end 1 when it shows
another number), a random bot picks ``moves[floor(u * len(moves))]`` with one number
``u`` per decision (a forced lead too; one more move, "keep the drawn tile and pass",
when ``turn.play_drawn = "may"``), greedy lays the heaviest tile (end 0 first, lowest
index on ties). To prove the engine equal to the kernel, the numbers come from one
array per round (:class:`~deckgen.engine.backends.rounds.RoundStreams`, the k-th decision
uses the k-th number) with the kernel's deals; the rules check's own batches take them
from the numpy generator inside the compiled code, several choices from one number
(:data:`RECYCLE`), so their figures equal the numpy engine's statistically, not number
for number.

The deal is drawn inside the compiled code too: the kernel's partial Fisher-Yates
(``floor(u * size)`` per tile placed), dealt again while the redeal rules say so; the
stock of these deals (:class:`LazyDeals`) is shuffled one draw at a time during play
(:data:`P_LAZY`). Written in the subset of Python that numba compiles;
:func:`~deckgen.engine.backends.jit.python_source` runs the same source as plain Python (slow;
the tests use it on a few rounds).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from deckgen.engine.backends.deal import LOW53, RECYCLE, TWO53, deal_order, popcount
from deckgen.engine.backends.jit import njit
from deckgen.engine.backends.numpy_line import FastLine
from deckgen.engine.backends.rounds import Deals, Rounds, RoundStreams
from deckgen.engine.state import MAX_TURNS
from deckgen.engine.tables import Tables
from deckgen.rulespec import RuleSpec

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from deckgen.engine.backends.arrays import Hands
    from deckgen.engine.backends.protocol import Replay

# ---------------------------------------------------------------- parameter layout
# P (int64 vector): the rules as numbers
P_N, P_TILES, P_HAND, P_STOCK, P_RESERVE, P_REDEAL, P_DRAW, P_LIMIT = 0, 1, 2, 3, 4, 5, 6, 7
P_MUST, P_SIDES, P_METHOD, P_OUT_ALL, P_BLOCKED_ALL, P_TIE_ALL, P_BANDS, P_BONUS = (
    8, 9, 10, 11, 12, 13, 14, 15,
)  # fmt: skip
P_TURNED, P_SKIP, P_FIRST, P_REQUIRED, P_LEAD_DOUBLE, P_NO_DOUBLE_REDEAL, P_VALUES = (
    16, 17, 18, 19, 20, 21, 22,
)  # fmt: skip
P_LAZY = 23
"""1: the stock of a deal is not shuffled; each tile drawn is picked from it at random
(a Fisher-Yates step at the time of the draw: the same uniform stock, and tiles never
drawn cost nothing). Set for :meth:`JitLine.deal`'s own deals (:class:`LazyDeals`)."""
P_RANDOM = 32
"""P[P_RANDOM + seat]: 1 when the seat's bot is ``random`` (0: greedy)."""
P_SIDE_OF = 48
"""P[P_SIDE_OF + seat]: the seat's side."""
P_SIZE = 64
MAX_SEATS = 16

# tile table columns (int64, one row per tile)
T_LO, T_HI, T_VALUE, T_DOUBLE, T_DOUBLE_INDEX, T_HEAVY = 0, 1, 2, 3, 4, 5

# out columns (int64, one row per round); C_STARTER .. C_LEAD_ANY are inputs
C_STARTER, C_LEAD, C_LEAD_ANY, C_END, C_OUT, C_TURNS, C_DRAWS, C_PASSES, C_PLAYED = range(9)
C_HV = 9
"""then hand values (players); the points and winners are :meth:`FastLine.score`'s (numpy,
over the whole batch, the scoring every line and board engine shares)."""


FIRST_STARTERS = {"seat": 0, "highest_double": 1, "required_double": 2}


# ---------------------------------------------------------------- bit helpers
@njit
def _kth(m0: np.uint64, m1: np.uint64, k: int) -> int:
    """Deck index of the ``k``-th lowest set bit (from 0) of the two-word mask."""
    one = np.uint64(1)
    c0 = popcount(m0)
    w = 1 if k >= c0 else 0  # selects, not branches
    m = m1 if w else m0
    k -= c0 * w
    base = 64 * w
    for _ in range(k):
        m = m & (m - one)
    low = m ^ (m & (m - one))
    return base + popcount(low - one)


@njit
def _has(h: NDArray[np.uint64], i: int) -> bool:
    """Whether the two-word mask ``h`` holds tile ``i``."""
    if i < 64:
        return bool(((h[0] >> np.uint64(i)) & np.uint64(1)) != np.uint64(0))
    return bool(((h[1] >> np.uint64(i - 64)) & np.uint64(1)) != np.uint64(0))


@njit
def _flip(h: NDArray[np.uint64], i: int) -> None:
    """Add or take tile ``i`` to or from the two-word mask ``h``."""
    if i < 64:
        h[0] = h[0] ^ (np.uint64(1) << np.uint64(i))
    else:
        h[1] = h[1] ^ (np.uint64(1) << np.uint64(i - 64))


# ---------------------------------------------------------------- deal
@njit
def _deal(
    rng: Any, p: NDArray[np.int64], tiles: NDArray[np.int64], first: NDArray[np.bool_],
    hands: NDArray[np.uint64], rest: NDArray[np.int64], redeals: NDArray[np.int64],
) -> None:  # fmt: skip
    """Deals for every row of ``hands`` (rounds, players, 2) by the shared compiled deal
    (:func:`~deckgen.engine.backends.deal.deal_order`), dealt again while the rules say
    so (``first`` marks the rounds whose starter the first-round rule picks); the stock
    (``rest``) is shuffled only with ``P_LAZY`` off."""
    n = p[P_N]
    nt = p[P_TILES]
    h = p[P_HAND]
    dealt = n * h
    count = nt - 1 if p[P_STOCK] and not p[P_LAZY] else min(dealt, nt - 1)
    need = p[P_FIRST] if p[P_NO_DOUBLE_REDEAL] else 0
    rules = np.array([n, h, p[P_REDEAL], need, tiles[p[P_REQUIRED], T_DOUBLE_INDEX]])
    is_double = tiles[:, T_DOUBLE].copy()
    perm = np.arange(nt)
    one = np.uint64(1)
    for g in range(hands.shape[0]):
        redeals[g] = deal_order(rng, perm, count, RECYCLE, rules, is_double, first[g])
        for s in range(n):
            x0 = np.uint64(0)
            x1 = np.uint64(0)
            for q in range(s * h, (s + 1) * h):
                i = perm[q]
                if i < 64:
                    x0 |= one << np.uint64(i)
                else:
                    x1 |= one << np.uint64(i - 64)
            hands[g, s, 0] = x0
            hands[g, s, 1] = x1
        for q in range(dealt, nt):
            rest[g, q - dealt] = perm[q]


# ---------------------------------------------------------------- starter
@njit
def _holder(hands: NDArray[np.uint64], i: int) -> int:
    for s in range(hands.shape[0]):
        if _has(hands[s], i):
            return s
    return -1


@njit
def _first_rule(
    p: NDArray[np.int64], tiles: NDArray[np.int64], hands: NDArray[np.uint64],
    no_lead: bool, starter: NDArray[np.int64], lead: NDArray[np.int64],
) -> None:  # fmt: skip
    """(starter, forced lead tile or -1) per deal under the first-round rule."""
    rule = p[P_FIRST]
    nv = p[P_VALUES]
    ntiles = p[P_TILES]
    for g in range(hands.shape[0]):
        starter[g] = 0
        lead[g] = -1
        if rule == 0:
            continue
        seat = -1
        tile = -1
        if rule == 1:
            for v in range(nv - 1, -1, -1):
                d = tiles[v, T_DOUBLE_INDEX]
                seat = _holder(hands[g], d)
                if seat >= 0:
                    tile = d
                    break
        else:
            tile = tiles[p[P_REQUIRED], T_DOUBLE_INDEX]
            seat = _holder(hands[g], tile)
        if seat < 0:  # nobody holds the double: the heaviest tile's holder starts
            for r in range(ntiles):
                tile = tiles[r, T_HEAVY]
                seat = _holder(hands[g], tile)
                if seat >= 0:
                    break
        starter[g] = seat
        if not no_lead and p[P_LEAD_DOUBLE]:
            lead[g] = tile


# ---------------------------------------------------------------- play
@njit
def _greedy(tiles: NDArray[np.int64], a: NDArray[np.uint64], b: NDArray[np.uint64]) -> int:
    """The greedy bot's move as ``tile * 2 + end``: heaviest, end 0 first, lowest index."""
    best = -1
    bestv = -(1 << 62)
    for e in range(2):
        m = a if e == 0 else b
        for w in range(2):
            x = m[w]
            while x != np.uint64(0):
                low = x ^ (x & (x - np.uint64(1)))
                i = w * 64 + popcount(low - np.uint64(1))
                x = x ^ low
                v = tiles[i, T_VALUE]
                if v > bestv:
                    bestv = v
                    best = i * 2 + e
    return best


@njit
def _play(
    hands: NDArray[np.uint64], rest: NDArray[np.int64], tiles: NDArray[np.int64],
    masks: NDArray[np.uint64], p: NDArray[np.int64], rng: Any,
    numbers: NDArray[np.float64], out: NDArray[np.int64],
) -> None:  # fmt: skip
    """Play every round of the batch to its end; ``out`` holds each round's starter,
    lead tile and lead-any flag and receives its results (see the ``C_*`` columns).

    With ``numbers`` of at least one row, round ``g``'s k-th random decision uses
    ``numbers[g, k]`` (the kernel's deals, skipped doubles already put back); else the
    numbers come from ``rng``.
    """
    n = p[P_N]
    reserve = p[P_RESERVE]
    can_draw = p[P_DRAW] != 0
    limit = p[P_LIMIT]
    may = p[P_MUST] == 0
    stream = numbers.shape[0] > 0
    lazy = p[P_LAZY] != 0 and not stream
    size = rest.shape[1]
    zero = np.uint64(0)
    one = np.uint64(1)
    lo = tiles[:, T_LO].copy()
    hi = tiles[:, T_HI].copy()
    value = tiles[:, T_VALUE].copy()
    double = tiles[:, T_DOUBLE].copy()
    sm0 = masks[:, 0].copy()
    sm1 = masks[:, 1].copy()
    rnd = p[P_RANDOM : P_RANDOM + n].copy()
    h0 = np.zeros(n, dtype=np.uint64)
    h1 = np.zeros(n, dtype=np.uint64)
    pair = np.zeros(2, dtype=np.uint64)
    nob = np.zeros(2, dtype=np.uint64)
    for g in range(hands.shape[0]):
        for s in range(n):
            h0[s] = hands[g, s, 0]
            h1[s] = hands[g, s, 1]
        used = 0
        r = 0
        budget = RECYCLE
        seat = out[g, C_STARTER]
        turns = draws = passes = played = forced = 0
        end = -1
        out_seat = -1
        top = 0
        left = size
        if p[P_TURNED] and not out[g, C_LEAD_ANY]:
            if lazy:  # a uniform tile of the stock (a non-double where doubles are skipped)
                while True:
                    if budget * size > RECYCLE:
                        r = int(rng.random() * TWO53)
                        budget = 1
                    y = r * size
                    j = y >> 53
                    r = y & LOW53
                    budget *= size
                    if not (p[P_SKIP] and double[rest[g, j]]):
                        break
                d = rest[g, j]
                rest[g, j] = rest[g, 0]
                rest[g, 0] = d
            elif p[P_SKIP] and not stream:  # turned-up doubles go back into the stock
                while double[rest[g, 0]]:
                    d = rest[g, 0]
                    j = 1 + int(rng.random() * (size - 1))
                    for q in range(j):
                        rest[g, q] = rest[g, q + 1]
                    rest[g, j] = d
            first = rest[g, 0]
            top = 1
            left = size - 1
        else:
            x0 = h0[seat]
            x1 = h1[seat]
            if rnd[seat]:
                cnt = popcount(x0) + popcount(x1)
                if stream:
                    u = numbers[g, used]
                    used += 1
                    k = int(u * cnt)
                else:
                    if budget * cnt > RECYCLE:
                        r = int(rng.random() * TWO53)
                        budget = 1
                    y = r * cnt
                    k = y >> 53
                    r = y & LOW53
                    budget *= cnt
                first = _kth(x0, x1, k)
            else:
                pair[0] = x0
                pair[1] = x1
                first = _greedy(tiles, pair, nob) // 2
            if out[g, C_LEAD] >= 0:
                first = out[g, C_LEAD]
            if first < 64:
                x0 ^= one << np.uint64(first)
            else:
                x1 ^= one << np.uint64(first - 64)
            h0[seat] = x0
            h1[seat] = x1
            turns = 1
            played = 1
            if x0 == zero and x1 == zero:
                end = 0
                out_seat = seat
            seat = seat + 1 if seat + 1 < n else 0
        e0 = lo[first]
        e1 = hi[first]
        while end < 0:
            x0 = h0[seat]
            x1 = h1[seat]
            turns += 1
            if turns > MAX_TURNS:  # as the engine: a bug, never a hang
                raise RuntimeError("a round ran past 100000 turns")
            s00 = sm0[e0]
            s01 = sm1[e0]
            a0 = x0 & s00
            a1 = x1 & s01
            s10 = sm0[e1] if e1 != e0 else zero
            s11 = sm1[e1] if e1 != e0 else zero
            b0 = x0 & s10
            b1 = x1 & s11
            drew = 0
            if can_draw and (a0 | a1 | b0 | b1) == zero:
                while True:
                    if left <= reserve:  # checked first: end.reserve
                        if reserve:
                            end = 2
                        break
                    if limit and drew >= limit:
                        break
                    if lazy:  # pick the tile drawn from what is left
                        cnt = size - top
                        if budget * cnt > RECYCLE:
                            r = int(rng.random() * TWO53)
                            budget = 1
                        y = r * cnt
                        j = top + (y >> 53)
                        r = y & LOW53
                        budget *= cnt
                        i = rest[g, j]
                        rest[g, j] = rest[g, top]
                        rest[g, top] = i
                    i = rest[g, top]
                    top += 1
                    left -= 1
                    drew += 1
                    if i < 64:
                        bit = one << np.uint64(i)
                        x0 ^= bit
                        a0 = bit & s00
                        b0 = bit & s10
                    else:
                        bit = one << np.uint64(i - 64)
                        x1 ^= bit
                        a1 = bit & s01
                        b1 = bit & s11
                    if (a0 | a1 | b0 | b1) != zero:
                        break
                h0[seat] = x0
                h1[seat] = x1
                draws += drew
                if end >= 0:
                    break
            if (a0 | a1 | b0 | b1) == zero:
                passes += 1
                forced += 1
                if forced >= n and (not can_draw or (not reserve and left == 0)):
                    end = 1
                seat = seat + 1 if seat + 1 < n else 0
                continue
            if rnd[seat]:
                na = popcount(a0) + popcount(a1)
                nb = popcount(b0) + popcount(b1)
                total = na + nb
                if may and drew > 0:
                    total += 1
                if stream:
                    k = int(numbers[g, used] * total)
                    used += 1
                else:
                    if budget * total > RECYCLE:
                        r = int(rng.random() * TWO53)
                        budget = 1
                    y = r * total
                    k = y >> 53
                    r = y & LOW53
                    budget *= total
                if k >= na + nb:  # kept the drawn tile and passed
                    passes += 1
                    forced = 0
                    seat = seat + 1 if seat + 1 < n else 0
                    continue
                pe = 1 if k >= na else 0  # selects, not branches
                m0 = b0 if pe else a0
                m1 = b1 if pe else a1
                i = _kth(m0, m1, k - na * pe)
            else:
                pair[0] = a0
                pair[1] = a1
                nob[0] = b0
                nob[1] = b1
                best = _greedy(tiles, pair, nob)
                nob[0] = zero
                nob[1] = zero
                i = best // 2
                pe = best % 2
            if i < 64:
                x0 ^= one << np.uint64(i)
            else:
                x1 ^= one << np.uint64(i - 64)
            h0[seat] = x0
            h1[seat] = x1
            v = e1 if pe else e0
            new = hi[i] + lo[i] - v
            e0 = e0 if pe else new
            e1 = new if pe else e1
            played += 1
            forced = 0
            if x0 == zero and x1 == zero:
                end = 0
                out_seat = seat
            seat = seat + 1 if seat + 1 < n else 0
        out[g, C_END] = end
        out[g, C_OUT] = out_seat
        out[g, C_TURNS] = turns
        out[g, C_DRAWS] = draws
        out[g, C_PASSES] = passes
        out[g, C_PLAYED] = played
        for s in range(n):
            v = 0
            for w in range(2):
                x = h0[s] if w == 0 else h1[s]
                while x != zero:
                    low = x ^ (x & (x - one))
                    v += value[w * 64 + popcount(low - one)]
                    x = x ^ low
            out[g, C_HV + s] = v


# ---------------------------------------------------------------- the engine
def _words(mask: int) -> tuple[int, int]:
    return mask & 0xFFFFFFFFFFFFFFFF, mask >> 64


def _two_words(hands: NDArray[Any]) -> NDArray[np.uint64]:
    """Hands as (rounds, players, 2) words: as they are, or from one word each."""
    if hands.ndim == 3:
        return np.ascontiguousarray(hands, dtype=np.uint64)
    out = np.zeros((*hands.shape, 2), dtype=np.uint64)
    out[..., 0] = hands
    return out


class LazyDeals(Deals):
    """:meth:`JitLine.deal`'s deals: the stock (``rest``) is not in draw order; play
    picks each tile drawn from it at random (see :data:`P_LAZY`)."""


class JitLine(FastLine):
    """Plays batches of rounds of one line rules file and player count, compiled.

    The interface of :class:`~deckgen.engine.backends.numpy_line.FastLine` (``deal``,
    ``first_rule``, ``play``, ``n``, ``nsides``, ``side_of``, ``spec``); deals hold
    hands as (rounds, players, 2) 64-bit words.
    """

    def __init__(self, spec: RuleSpec, t: Tables) -> None:
        self.spec = spec
        self.t = t
        n = self.n = t.players
        self.ntiles = len(t.tiles)
        self.nsides = len(t.sides)
        self.side_of = np.array(t.side_of, dtype=np.int64)
        self.side_matrix = np.zeros((n, self.nsides), dtype=np.int64)
        for k, side in enumerate(t.sides):
            self.side_matrix[list(side), k] = 1
        op = spec.params.opening
        self.scoring = spec.params.scoring
        nv = len(t.double_index)
        p = np.zeros(P_SIZE, dtype=np.int64)
        p[P_N] = n
        p[P_TILES] = self.ntiles
        p[P_HAND] = t.hand_size
        p[P_STOCK] = t.stock_rest
        p[P_RESERVE] = t.reserve
        p[P_REDEAL] = t.redeal_doubles
        p[P_DRAW] = t.draw != "none"
        p[P_LIMIT] = t.draw_limit
        p[P_MUST] = t.must_play_drawn
        p[P_SIDES] = self.nsides
        p[P_TURNED] = op.lead == "turned_up"
        p[P_SKIP] = op.turned_up_doubles == "skip"
        p[P_FIRST] = FIRST_STARTERS[op.first_starter]
        p[P_REQUIRED] = op.required_double or 0
        p[P_LEAD_DOUBLE] = op.lead == "starter_double"
        p[P_NO_DOUBLE_REDEAL] = op.no_double == "redeal"
        p[P_VALUES] = nv
        p[P_SIDE_OF : P_SIDE_OF + n] = t.side_of
        self.params = p
        tiles = np.zeros((self.ntiles, 6), dtype=np.int64)
        tiles[:, T_LO] = t.lo
        tiles[:, T_HI] = t.hi
        tiles[:, T_VALUE] = t.value
        tiles[:, T_DOUBLE] = t.is_double
        tiles[:nv, T_DOUBLE_INDEX] = t.double_index
        heavy = sorted(range(self.ntiles), key=lambda i: (t.lo[i] + t.hi[i], t.hi[i]), reverse=True)
        tiles[:, T_HEAVY] = heavy
        self.tiles = tiles
        # masks: suit[v] for each value v (rows 0 .. nv-1), then the doubles
        masks = np.zeros((nv + 1, 2), dtype=np.uint64)
        for v in range(nv):
            masks[v] = _words(t.suit[v])
        masks[nv] = _words(t.double_mask)
        self.masks = masks
        self.rest_width = self.ntiles - n * t.hand_size
        self.dtype: Any = np.uint64
        """One-word hands (rounds, players) are taken too, where the deck fits in 64 bits."""

    def hands_of(self, given: Replay) -> Hands:
        """The kernel's dealt hands as (rounds, players, 2) 64-bit words."""
        out = np.zeros((len(given.deals), self.n, 2), dtype=np.uint64)
        for g, d in enumerate(given.deals):
            for s, h in enumerate(d.hands):
                mask = sum(1 << i for i in h)
                out[g, s] = (mask & 0xFFFFFFFFFFFFFFFF, mask >> 64)
        return out

    def _params(self, kinds: tuple[str, ...], lazy: bool) -> NDArray[np.int64]:
        p = self.params.copy()
        for s, k in enumerate(kinds):
            p[P_RANDOM + s] = k == "random"
        p[P_LAZY] = lazy
        return p

    def deal(self, rng: Any, count: int, first_rule: NDArray[np.bool_] | None = None) -> Deals:
        """``count`` shuffled deals, dealt again while the redeal rules say so."""
        hands = np.zeros((count, self.n, 2), dtype=np.uint64)
        rest = np.zeros((count, self.rest_width), dtype=np.int64)
        redeals = np.zeros(count, dtype=np.int64)
        first = np.ones(count, dtype=np.bool_) if first_rule is None else first_rule
        p = self._params((), lazy=True)
        _deal(rng, p, self.tiles, first, hands, rest, redeals)
        return LazyDeals(hands, rest, redeals)

    def first_rule(
        self, hands: Hands, lead_any: bool
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """(starter, forced lead tile or -1) per deal under the first-round rule."""
        g = hands.shape[0]
        starter = np.zeros(g, dtype=np.int64)
        lead = np.zeros(g, dtype=np.int64)
        _first_rule(self.params, self.tiles, _two_words(hands), lead_any, starter, lead)
        return starter, lead

    def play(
        self,
        deals: Deals,
        starter: NDArray[np.int64],
        lead_tile: NDArray[np.int64],
        lead_any: NDArray[np.bool_],
        kinds: tuple[str, ...],
        rng: Any,
    ) -> Rounds:
        """Play one round from each deal (see ``FastLine.play``)."""
        g = deals.hands.shape[0]
        n = self.n
        out = np.zeros((g, C_HV + n), dtype=np.int64)
        out[:, C_STARTER] = starter
        out[:, C_LEAD] = lead_tile
        out[:, C_LEAD_ANY] = lead_any
        if isinstance(rng, RoundStreams):
            numbers = np.ascontiguousarray(rng.numbers, dtype=np.float64)
            gen = np.random.default_rng(0)
        else:
            numbers = np.zeros((0, 0), dtype=np.float64)
            gen = rng
        hands = _two_words(deals.hands)
        rest = np.ascontiguousarray(deals.rest, dtype=np.int64)
        p = self._params(kinds, lazy=isinstance(deals, LazyDeals))
        _play(hands, rest, self.tiles, self.masks, p, gen, numbers, out)
        redeals = deals.redeals if deals.redeals is not None else np.zeros(g, dtype=np.int64)
        hv = out[:, C_HV:]
        winners, points = self.score(out[:, C_END], out[:, C_OUT], hv)  # shared, numpy
        return Rounds(
            end=out[:, C_END],
            out_seat=out[:, C_OUT],
            starter=out[:, C_STARTER],
            turns=out[:, C_TURNS],
            draws=out[:, C_DRAWS],
            passes=out[:, C_PASSES],
            played=out[:, C_PLAYED],
            hand_values=hv,
            points=points,
            winners=winners,
            redeals=redeals,
        )
