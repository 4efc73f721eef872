"""The numpy line engine: many rounds of a line-board rules file played at once.

It stays for two uses: a small rules check of a line game (it starts at once, where
numba's start costs about 0.4 s: the registry takes it below
:func:`~deckgen.engine.backends.registry.numpy_limit` rounds per worker), and
line games where numba is missing (a Python that numba does not support yet, or
``DECKGEN_NO_JIT=1``). Its end-of-round scoring (:func:`score_rounds`) is every fast
engine's, and its ``replay`` and ``play_matches`` are every single-round engine's.

Takes the engine's compiled :class:`~deckgen.engine.tables.Tables` of a rules file that
the registry gives it, with a line board and at most 64 tiles, deals as arrays, and the
seats' bots (``random`` or ``greedy``); gives the outcome of every round as arrays
(:class:`Rounds`). Every
round of a batch takes one step per turn in lock-step, so the Python loop runs once per
turn for thousands of rounds.

It follows the kernel (:class:`~deckgen.engine.state.RoundState`) step for step: the
same deal layout, the same opening, drawing, passing, round end and scoring rules, the
same move order; ``random`` picks ``moves[floor(u * len(moves))]`` as the kernel's
random bots do. Given the kernel's deals and one stream of decision numbers per round
(:class:`RoundStreams`), it gives the kernel's round results exactly
(``tests/engine/test_conformance.py``); the rules check feeds it numbers straight
from a numpy generator. The kernel stays the judge of invariants, clause coverage and
gaps; this path only counts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from deckgen.engine.backends.rounds import (
    Deals,
    Rounds,
    RoundStreams,
    decision_numbers,
    put_back_doubles,
)
from deckgen.engine.setup import MAX_REDEALS
from deckgen.engine.state import MAX_TURNS
from deckgen.engine.tables import Tables
from deckgen.rulespec import RuleSpec
from deckgen.tiles import Tile

if TYPE_CHECKING:
    import numpy as np

    from deckgen.engine.backends.arrays import Flags, Hands, Ints, Masks, MaskType
    from deckgen.engine.backends.matches import Matches
    from deckgen.engine.backends.protocol import Replay
    from deckgen.rulespec.model import Scoring


class FastLine:
    """Plays batches of rounds of one rules file and player count."""

    def hands_of(self, given: Replay) -> Hands:
        """The kernel's dealt hands in this engine's layout: (rounds, players) masks."""
        import numpy as np

        out = np.zeros((len(given.deals), self.n), dtype=self.dtype)
        for g, d in enumerate(given.deals):
            for s, h in enumerate(d.hands):
                out[g, s] = sum(1 << i for i in h)
        return out

    def replay(self, given: Replay, kinds: tuple[str, ...]) -> Rounds:
        """Play the kernel's rounds again (see
        :class:`~deckgen.engine.backends.protocol.FastEngine`): its deals, the first
        round's starter by the rule, a later round's as the kernel's, its numbers."""
        hands = self.hands_of(given)
        op = self.spec.params.opening
        later = given.round_no > 1
        lead_any = later & (op.later_lead == "any")
        starter, lead = self.first_rule(hands, lead_any=False)
        if op.later_starter in ("next_seat", "round_winner"):
            starter[later] = given.starter[later]
            lead[later] = -1
        lead[lead_any] = -1
        deals = Deals(hands, given.rest())
        return self.play(deals, starter, lead, lead_any, kinds, RoundStreams(given.numbers))

    def play_matches(
        self,
        rng: np.random.Generator,
        matches: int,
        kinds: tuple[str, ...],
        per_match: float = 4.0,
        rounds: int = 0,
    ) -> Matches:
        """Whole matches (:func:`deckgen.engine.backends.matches.play_matches`)."""
        from deckgen.engine.backends.matches import play_matches

        return play_matches(self, rng, matches, kinds, per_match, rounds)

    def __init__(self, spec: RuleSpec, t: Tables) -> None:
        import numpy as np

        self.spec = spec
        self.t = t
        self.n = t.players
        self.ntiles = len(t.tiles)
        self.dtype: MaskType = np.uint32 if self.ntiles <= 32 else np.uint64
        self.bit: Masks = np.array([1 << i for i in range(self.ntiles)], dtype=self.dtype)
        self.suit: Masks = np.array(t.suit, dtype=self.dtype)
        self.lo = np.array(t.lo, dtype=np.int64)
        self.hi = np.array(t.hi, dtype=np.int64)
        self.pipsum = np.array(t.pipsum, dtype=np.int64)
        self.width_mask = np.uint8(8 * np.dtype(self.dtype).itemsize - 1)
        self.value = np.array(t.value, dtype=np.int64)
        # the value of every byte of a hand's mask: byte b of a mask holds tiles 8b..8b+7
        bits = (np.arange(256)[:, None] >> np.arange(8)) & 1
        values = np.zeros(8 * ((self.ntiles + 7) // 8), dtype=np.int64)
        values[: self.ntiles] = t.value
        self.byte_values: list[Ints] = [bits @ values[b : b + 8] for b in range(0, len(values), 8)]
        self.is_double = np.array(t.is_double, dtype=bool)
        levels = sorted(set(t.value), reverse=True)
        self.value_masks = [
            self.dtype(sum(1 << i for i in range(self.ntiles) if t.value[i] == v)) for v in levels
        ]
        self.nsides = len(t.sides)
        self.side_of = np.array(t.side_of, dtype=np.int64)
        p = spec.params
        self.opening = p.opening
        self.scoring = p.scoring
        dset = spec.dset
        self.double_index = [dset.index(Tile(v, v)) for v in dset.values]
        # heaviest-tile order: (pips, high half) descending, as the engine ranks it
        self.heavy_order = sorted(
            range(self.ntiles), key=lambda i: (t.lo[i] + t.hi[i], t.hi[i]), reverse=True
        )

    # ------------------------------------------------------------------ deals
    def _shuffle(self, rng: np.random.Generator, count: int) -> tuple[Hands, Ints]:
        import numpy as np

        order = rng.random((count, self.ntiles)).argsort(axis=1)
        h = self.t.hand_size
        hands = np.zeros((count, self.n), dtype=self.dtype)
        for s in range(self.n):
            hands[:, s] = np.bitwise_or.reduce(self.bit[order[:, s * h : (s + 1) * h]], axis=1)
        return hands, order[:, self.n * h :]

    def _redo(self, hands: Hands, first_rule: Flags) -> Flags:
        """Deals the rules deal again: too many doubles in a hand, or (where the
        first-round starter rule applies) no starting double with ``no_double = redeal``."""
        import numpy as np

        bad = np.zeros(hands.shape[0], dtype=bool)
        k = self.t.redeal_doubles
        if k:
            dm = self.dtype(self.t.double_mask)
            bad |= (np.bitwise_count(hands & dm) >= k).any(axis=1)
        op = self.opening
        if op.no_double == "redeal" and op.first_starter != "seat":
            dealt = np.bitwise_or.reduce(hands, axis=1)
            if op.first_starter == "highest_double":
                want = self.dtype(self.t.double_mask)
            else:
                assert op.required_double is not None
                want = self.bit[self.double_index[op.required_double]]
            bad |= first_rule & ((dealt & want) == 0)
        return bad

    def deal(self, rng: np.random.Generator, count: int, first_rule: Flags | None = None) -> Deals:
        """``count`` uniformly shuffled deals, each dealt again while the redeal rules
        say so (``first_rule`` marks the deals whose starter the first-round rule picks)."""
        import numpy as np

        hands, rest = self._shuffle(rng, count)
        if not self.t.redeal_doubles and self.opening.no_double != "redeal":
            return Deals(hands, rest)
        if first_rule is None:
            first_rule = np.ones(count, dtype=bool)
        redeals = np.zeros(count, dtype=np.int64)
        idx = np.nonzero(self._redo(hands, first_rule))[0]
        for _ in range(MAX_REDEALS):  # as the engine: the deal after the last redeal stands
            if not len(idx):
                break
            h2, r2 = self._shuffle(rng, len(idx))
            hands[idx] = h2
            rest[idx] = r2
            redeals[idx] += 1
            idx = idx[self._redo(h2, first_rule[idx])]
        return Deals(hands, rest, redeals)

    def _holder(self, hands: Hands, tile: int) -> Ints:
        """The seat holding ``tile`` in each deal, or -1."""
        import numpy as np

        held = (hands & self.bit[tile]) != 0
        return np.where(held.any(axis=1), held.argmax(axis=1), -1)

    def first_rule(self, hands: Hands, lead_any: bool) -> tuple[Ints, Ints]:
        """(starter, forced lead tile or -1) per deal under the first-round rule."""
        import numpy as np

        g = hands.shape[0]
        op = self.opening
        starter = np.zeros(g, dtype=np.int64)
        lead = np.full(g, -1, dtype=np.int64)
        if op.first_starter == "seat":
            return starter, lead
        starter[:] = -1
        if op.first_starter == "highest_double":
            wanted = list(range(len(self.double_index) - 1, -1, -1))
        else:
            assert op.required_double is not None
            wanted = [op.required_double]
        for v in wanted:
            d = self.double_index[v]
            seat = self._holder(hands, d)
            take = (starter < 0) & (seat >= 0)
            starter[take] = seat[take]
            lead[take] = d
        missing = starter < 0
        if missing.any():  # nobody holds the double: the heaviest tile's holder starts
            for i in self.heavy_order:
                seat = self._holder(hands, i)
                take = missing & (seat >= 0)
                starter[take] = seat[take]
                lead[take] = i
                missing &= ~take
                if not missing.any():
                    break
        if lead_any or op.lead != "starter_double":
            lead[:] = -1
        return starter, lead

    # ------------------------------------------------------------------ helpers
    def _low_index(self, m: Masks) -> Ints:
        """Index of the lowest set bit of each mask (0 for an empty one): the count of
        the bits below it. Below an empty mask lie all its bits, as many as its width,
        which the width's mask turns into 0."""
        import numpy as np

        one = self.dtype(1)
        below: Masks = (m & np.negative(m)) - one  # -m: two's complement, as ~m + 1
        index: Ints = (np.bitwise_count(below) & self.width_mask).astype(np.int64)
        return index

    def _kth(self, m: Masks, k: Ints) -> Ints:
        """Index of the ``k``-th lowest set bit of each mask (k counts from 0)."""

        top = int(k.max()) if k.size else 0
        if top:
            m = m.copy()
            for j in range(top):  # clear the lowest bit where k says so (m - True: m - 1)
                m &= m - (k > j)
        return self._low_index(m)

    def _greedy(self, legal: Masks, s0: Masks, s1: Masks) -> tuple[Ints, Ints]:
        """The greedy bot's move: heaviest tile, first in engine order on ties."""
        import numpy as np

        pick = np.zeros(legal.shape, dtype=self.dtype)
        todo = legal != 0
        for vm in self.value_masks:
            hit = todo & ((legal & vm) != 0)
            pick[hit] = legal[hit] & vm
            todo &= ~hit
        on0 = pick & s0
        use0 = on0 != 0
        tile = self._low_index(np.where(use0, on0, pick & s1))
        end = np.where(use0, 0, 1)
        return tile, end

    # ------------------------------------------------------------------ play
    def play(
        self,
        deals: Deals,
        starter: Ints,
        lead_tile: Ints,
        lead_any: Flags,
        kinds: tuple[str, ...],
        rng: np.random.Generator | RoundStreams,
    ) -> Rounds:
        """Play one round from each deal.

        ``starter`` and ``lead_tile`` (-1: free choice) per round; ``lead_any`` marks
        rounds that lead any tile even when the file turns one up (later rounds);
        ``kinds`` names each seat's bot. Rounds still running are kept packed at the
        front of the arrays; finished ones are written out and dropped.
        """
        import numpy as np

        t = self.t
        n = self.n
        next_seat = np.roll(np.arange(n), -1)  # the seat after each seat
        g = deals.hands.shape[0]
        zero = self.dtype(0)
        bit = self.bit
        suit = self.suit
        lo, hi = self.lo, self.hi
        is_random = np.array([k == "random" for k in kinds], dtype=bool)
        any_greedy = not bool(is_random.all())
        numbers = decision_numbers(rng)
        reserve = t.reserve
        can_draw = t.draw != "none"
        limit = t.draw_limit
        must = t.must_play_drawn

        hands = deals.hands.astype(self.dtype)
        rest = deals.rest
        size = rest.shape[1]
        # results, by round
        r_end = np.full(g, -1, dtype=np.int64)
        r_out = np.full(g, -1, dtype=np.int64)
        r_turns = np.zeros(g, dtype=np.int64)
        r_draws = np.zeros(g, dtype=np.int64)
        r_passes = np.zeros(g, dtype=np.int64)
        r_played = np.zeros(g, dtype=np.int64)
        r_hands = np.zeros((g, n), dtype=self.dtype)

        # the start tile, or the lead
        seat = starter.astype(np.int64)
        e0 = np.zeros(g, dtype=np.int64)
        e1 = np.zeros(g, dtype=np.int64)
        taken_at = np.full(g, size, dtype=np.int64)
        turned = np.zeros(g, dtype=bool)
        if self.opening.lead == "turned_up":
            turned = ~lead_any
        if turned.any():
            idx = np.nonzero(turned)[0]
            if self.opening.turned_up_doubles == "skip" and not isinstance(rng, RoundStreams):
                rest = rest.copy()
                rest[idx] = put_back_doubles(rest[idx], self.is_double, rng)
            tile = rest[idx, 0]
            taken_at[idx] = 0
            e0[idx] = lo[tile]
            e1[idx] = hi[tile]
        lead_rows = ~turned
        if lead_rows.any():
            idx = np.nonzero(lead_rows)[0]
            s = seat[idx]
            hand = hands[idx, s]
            cnt = np.bitwise_count(hand).astype(np.int64)
            k = (numbers.random(idx) * cnt).astype(np.int64)
            if numbers.counted:
                numbers.used(idx[is_random[s]])
            tile = self._kth(hand, k)
            if any_greedy:
                greedy = ~is_random[s]
                if greedy.any():
                    gt, _ = self._greedy(hand[greedy], hand[greedy], hand[greedy] & zero)
                    tile[greedy] = gt
            forced_tile = lead_tile[idx]
            tile = np.where(forced_tile >= 0, forced_tile, tile)
            hands[idx, s] = hand & np.invert(bit[tile])
            e0[idx] = lo[tile]
            e1[idx] = hi[tile]
            r_turns[idx] += 1
            r_played[idx] += 1
            gone = hands[idx, s] == zero
            r_end[idx[gone]] = 0
            r_out[idx[gone]] = s[gone]
            seat[idx] = next_seat.take(s)
        stock_size = size - turned.astype(np.int64)

        # the live rounds, packed
        gid = np.nonzero(r_end < 0)[0]
        r_hands[:] = hands
        H = hands[gid].ravel()
        seat = seat[gid]
        e0, e1 = e0[gid], e1[gid]
        rest_l = rest[gid]
        taken_l = taken_at[gid]
        left = stock_size[gid].copy()  # tiles in the stock
        top = np.zeros(len(gid), dtype=np.int64)
        turns = r_turns[gid]
        draws = np.zeros(len(gid), dtype=np.int64)
        passes = np.zeros(len(gid), dtype=np.int64)
        played = r_played[gid]
        forced = np.zeros(len(gid), dtype=np.int64)
        end = np.full(len(gid), -1, dtype=np.int64)
        out = np.full(len(gid), -1, dtype=np.int64)
        base = np.arange(len(gid)) * n

        steps = 0
        while len(gid):
            steps += 1
            if steps > MAX_TURNS:  # as the engine: a bug, never a hang
                raise RuntimeError("a round ran past 100000 turns")
            live0 = end < 0
            ci = base + seat
            hand = H[ci]
            turns += live0
            s0 = suit[e0]
            s1 = np.where(e0 != e1, suit[e1], zero)
            both = s0 | s1
            legal = hand & both
            drew = None
            if can_draw:
                need = live0 & (legal == zero)
                if need.any():
                    # draw one tile at a time for the rounds that need one
                    di = np.nonzero(need)[0]
                    d_hand = hand[di]
                    d_both = both[di]
                    d_left = left[di]
                    d_top = top[di]
                    d_legal = legal[di]
                    d_drew = np.zeros(len(di), dtype=np.int64)
                    d_end = np.full(len(di), -1, dtype=np.int64)
                    going = np.ones(len(di), dtype=bool)
                    while True:
                        # the reserve is checked before the limit (end.reserve)
                        empty = going & (d_left <= reserve)
                        if reserve:
                            d_end[empty] = 2
                        going &= ~empty
                        if limit:
                            going &= d_drew < limit
                        if not going.any():
                            break
                        w = np.nonzero(going)[0]
                        p = d_top[w]
                        p = p + (p >= taken_l[di[w]])
                        tile = rest_l[di[w], p]
                        b = bit[tile]
                        d_hand[w] |= b
                        d_top[w] += 1
                        d_left[w] -= 1
                        d_drew[w] += 1
                        fit = (b & d_both[w]) != zero
                        d_legal[w] = np.where(fit, b, zero)
                        going[w[fit]] = False
                    hand[di] = d_hand
                    H[ci[di]] = d_hand
                    left[di] = d_left
                    top[di] = d_top
                    legal[di] = d_legal
                    draws[di] += d_drew
                    end[di] = d_end
                    drew = np.zeros(len(gid), dtype=np.int64)
                    drew[di] = d_drew
            live = end < 0
            stuck = live & (legal == zero)
            # passes in a row: one more for a pass; a player who lays a tile, or keeps a
            # drawn one and passes, starts them again (a round already over: no matter)
            forced = np.where(stuck, forced + 1, 0)
            if stuck.any():
                passes += stuck
                if not can_draw or not reserve:
                    dry = (left == 0) if can_draw else True
                    end[stuck & (forced >= n) & dry] = 1
            go = live & ~stuck
            la = legal & s0
            lb = legal & s1
            na = np.bitwise_count(la).astype(np.int64)
            nb = np.bitwise_count(lb).astype(np.int64)
            if must or drew is None:
                total = na + nb
                skip = None
            else:
                may = drew > 0
                total = na + nb + may
            k = (numbers.random(gid) * total).astype(np.int64)
            if numbers.counted:
                numbers.used(gid[go & is_random[seat]])
            on_a = k < na
            tile = self._kth(np.where(on_a, la, lb), np.where(on_a, k, k - na))
            pe = (~on_a).astype(np.int64)
            if not (must or drew is None):
                skip = go & may & (k == total - 1)
            if any_greedy:
                greedy = go & ~is_random[seat]
                if greedy.any():
                    gi = np.nonzero(greedy)[0]
                    gt, ge = self._greedy(legal[gi], s0[gi], s1[gi])
                    tile[gi] = gt
                    pe[gi] = ge
                    if skip is not None:
                        skip[gi] = False
            if skip is not None and skip.any():  # kept the drawn tile and passed
                passes += skip
                go &= ~skip
            b = bit[tile]
            hand = np.where(go, hand & ~b, hand)
            H[ci] = hand
            at_a = pe == 0
            v = np.where(at_a, e0, e1)
            new = self.pipsum[tile] - v  # the far end (used where the tile is laid)
            e0 = np.where(go & at_a, new, e0)
            e1 = np.where(go & ~at_a, new, e1)
            played += go
            gone = go & (hand == zero)
            end[gone] = 0
            out[gone] = seat[gone]
            seat = next_seat.take(seat)
            newly = live0 & (end >= 0)
            if newly.any():
                fi = np.nonzero(newly)[0]
                ids = gid[fi]
                r_end[ids] = end[fi]
                r_out[ids] = out[fi]
                r_turns[ids] = turns[fi]
                r_draws[ids] = draws[fi]
                r_passes[ids] = passes[fi]
                r_played[ids] = played[fi]
                r_hands[ids] = H.reshape(-1, n)[fi]
                alive = end < 0
                keep = np.nonzero(alive)[0]
                if len(keep) * 4 < len(gid) * 3:
                    H = H.reshape(-1, n)[keep].ravel()
                    gid, seat, e0, e1 = gid[keep], seat[keep], e0[keep], e1[keep]
                    rest_l, taken_l, left, top = rest_l[keep], taken_l[keep], left[keep], top[keep]
                    turns, draws, passes = turns[keep], draws[keep], passes[keep]
                    played, forced, end, out = played[keep], forced[keep], end[keep], out[keep]
                    base = np.arange(len(gid)) * n
        redeals = deals.redeals if deals.redeals is not None else np.zeros(g, dtype=np.int64)
        return self._results(
            r_end, r_out, starter, r_turns, r_draws, r_passes, r_played, r_hands, redeals
        )

    def _results(
        self,
        end: Ints,
        out_seat: Ints,
        starter: Ints,
        turns: Ints,
        draws: Ints,
        passes: Ints,
        played: Ints,
        hands: Hands,
        redeals: Ints,
    ) -> Rounds:
        hv = self.hand_values(hands)
        winners, points = self.score(end, out_seat, hv)
        return Rounds(
            end, out_seat, starter, turns, draws, passes, played, hv, points, winners, redeals
        )

    def hand_values(self, hands: Hands) -> Ints:
        """The value of every hand: the values of its mask's bytes added up."""
        low = self.dtype(255)
        out: Ints = self.byte_values[0][hands & low]
        for b in range(1, len(self.byte_values)):
            out += self.byte_values[b][(hands >> self.dtype(8 * b)) & low]
        return out

    # ------------------------------------------------------------------ scoring
    def score(self, end: Ints, out_seat: Ints, hv: Ints) -> tuple[Flags, Ints]:
        """(winners (rounds, sides) bool, points (rounds, sides)): :func:`score_rounds`."""
        return score_rounds(self.scoring, self.side_of, self.nsides, end, out_seat, hv)


def rowwise(op: Any, x: Ints) -> Ints:
    """``op`` (a numpy ufunc) reduced over the few columns of ``x``, one column at a
    time: numpy's own reduction along a short axis costs about 10 ns a row."""
    out = x[:, 0].copy()
    for k in range(1, x.shape[1]):
        op(out, x[:, k], out=out)
    return out


def score_rounds(
    sc: Scoring, side_of: Ints, ns: int, end: Ints, out_seat: Ints, hv: Ints
) -> tuple[Flags, Ints]:
    """(winners (rounds, sides) bool, points (rounds, sides)) of rounds that ended so
    (``end`` 0: ``out_seat`` went out) with the hand values ``hv`` (rounds, seats), as
    the engine scores them (:mod:`deckgen.engine.scoring`): the end-of-round scoring of
    every fast engine (``side_of``: each seat's side of ``ns``)."""
    import numpy as np

    g = end.shape[0]
    sv = np.zeros((g, ns), dtype=np.int64)
    for seat, side in enumerate(side_of.tolist()):
        sv[:, side] += hv[:, seat]
    total = rowwise(np.add, sv)
    pts = np.zeros((g, ns), dtype=np.int64)
    win = np.zeros((g, ns), dtype=bool)
    out = end == 0
    rows = np.nonzero(out)[0]
    w = side_of[out_seat[rows]]
    win[rows, w] = True

    def bands(x: Ints) -> Ints:
        return x if sc.bands is None else x // sc.bands + 1

    if sc.method == "penalty":
        pts = -sv
        pts[rows, w] += sc.out_bonus
        return win, pts
    if sc.method == "winner_takes":
        if sc.out_points == "all":
            raw = total[rows] - hv[rows, out_seat[rows]]
        else:
            raw = total[rows] - sv[rows, w]
        pts[rows, w] = bands(raw)
    else:
        pts[rows, w] = total[rows] - ns * sv[rows, w]
    blk = np.nonzero(~out)[0]
    if blk.size:
        bsv = sv[blk]
        low = rowwise(np.minimum, bsv)
        lows = bsv == low[:, None]
        if sc.tie != "all_lowest_score":  # nobody_scores, and the fallback
            lows &= (rowwise(np.add, lows.astype(np.int64)) == 1)[:, None]
        win[blk] = lows
        if sc.method == "winner_takes":
            if sc.blocked_points == "all":
                raw = np.broadcast_to(total[blk][:, None], lows.shape)
            else:
                raw = (total[blk] - rowwise(np.add, bsv * lows))[:, None]
            pts[blk] = np.where(lows, bands(raw), 0)
        else:
            diff = total[blk] - ns * low
            pts[blk] = np.where(lows, diff[:, None], 0)
    return win, pts
