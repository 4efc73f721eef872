"""The fast path for any board: spinners, every double crosswise, and sets too large for
one 64-bit mask (double-9 and up), played in numpy batches like
:class:`~deckgen.engine.backends.numpy_line.FastLine`.

Takes the engine's :class:`~deckgen.engine.tables.Tables`; hands are boolean arrays
(rounds, players, tiles) instead of bitmasks, and the open ends a list per round that
grows by two when a double lies crosswise (always with ``cross_doubles``, the first one
with ``spinner``), exactly as the kernel's layouts (:mod:`deckgen.engine.layouts`)
place tiles. The moves are the kernel's, in its order: for each distinct open number
(by its first end) the tiles that fit it (files that score the open ends, where ends of
one number can be distinct moves, play on :mod:`deckgen.engine.backends.jit_board` only);
``random`` picks the k-th as the kernel's random bots do (exactly, given
:class:`~deckgen.engine.backends.rounds.RoundStreams`),
``greedy`` the heaviest tile on the first open end (in end order) that one of the
heaviest tiles fits. Scoring is :class:`FastLine`'s.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from deckgen.engine.backends.arrays import Flags, Hands, Ints
from deckgen.engine.backends.numpy_line import FastLine
from deckgen.engine.backends.protocol import Replay
from deckgen.engine.backends.rounds import (
    Deals,
    Rounds,
    RoundStreams,
    decision_numbers,
    put_back_doubles,
)
from deckgen.engine.tables import Tables
from deckgen.rulespec import RuleSpec
from deckgen.tiles import Tile


class FastBoard(FastLine):
    """Plays batches of rounds of one rules file and player count, any board shape."""

    def __init__(self, spec: RuleSpec, t: Tables) -> None:
        self.spec = spec
        self.t = t
        n = self.n = t.players
        self.ntiles = len(t.tiles)
        self.lo = np.array(t.lo, dtype=np.int64)
        self.hi = np.array(t.hi, dtype=np.int64)
        self.value = np.array(t.value, dtype=np.int64)
        self.is_double = np.array(t.is_double, dtype=bool)
        self.values = spec.dset.max_pip + 1
        self.nsides = len(t.sides)
        self.side_matrix = np.zeros((n, self.nsides), dtype=np.int64)
        for k, side in enumerate(t.sides):
            for s in side:
                self.side_matrix[s, k] = 1
        self.side_of = np.array(t.side_of, dtype=np.int64)
        p = spec.params
        self.opening = p.opening
        self.scoring = p.scoring
        dset = spec.dset
        self.double_index = [dset.index(Tile(v, v)) for v in dset.values]
        self.heavy_order = sorted(
            range(self.ntiles), key=lambda i: (t.lo[i] + t.hi[i], t.hi[i]), reverse=True
        )
        self.cross_all = t.shape == "cross_doubles"
        self.spinner = t.shape == "spinner"
        self.max_ends = 4 + 2 * self.values
        # carries[v, i]: tile i shows value v (row ``values``: no value, nothing)
        self.carries = np.zeros((self.values + 1, self.ntiles), dtype=bool)
        for i in range(self.ntiles):
            self.carries[t.lo[i], i] = self.carries[t.hi[i], i] = True
        by_value = [np.nonzero(self.carries[v])[0] for v in range(self.values)]
        self.value_tiles = np.concatenate(by_value)
        """The tiles carrying each value, value after value (a double once)."""
        self.value_starts = np.cumsum([0] + [len(b) for b in by_value[:-1]])

    # ------------------------------------------------------------------ deals
    def hands_of(self, given: Replay) -> Hands:
        """The kernel's dealt hands as booleans (rounds, players, tiles)."""
        out = np.zeros((len(given.deals), self.n, self.ntiles), dtype=bool)
        for g, d in enumerate(given.deals):
            for s, h in enumerate(d.hands):
                out[g, s, h] = True
        return out

    def _shuffle(self, rng: np.random.Generator, count: int) -> tuple[Hands, Ints]:
        order = rng.random((count, self.ntiles)).argsort(axis=1)
        h = self.t.hand_size
        hands = np.zeros((count, self.n, self.ntiles), dtype=bool)
        rows = np.arange(count)[:, None]
        for s in range(self.n):
            hands[rows, s, order[:, s * h : (s + 1) * h]] = True
        return hands, order[:, self.n * h :]

    def _redo(self, hands: Hands, first_rule: Flags) -> Flags:
        bad = np.zeros(hands.shape[0], dtype=bool)
        k = self.t.redeal_doubles
        if k:
            bad |= (hands[:, :, self.double_index].sum(axis=2) >= k).any(axis=1)
        op = self.opening
        if op.no_double == "redeal" and op.first_starter != "seat":
            dealt = np.asarray(hands.any(axis=1), dtype=bool)
            if op.first_starter == "highest_double":
                none = ~dealt[:, self.double_index].any(axis=1)
            else:
                assert op.required_double is not None
                none = ~dealt[:, self.double_index[op.required_double]]
            bad |= first_rule & none
        return bad

    def _holder(self, hands: Hands, tile: int) -> Ints:
        held = hands[:, :, int(tile)]
        return np.where(held.any(axis=1), held.argmax(axis=1), -1)

    def hand_values(self, hands: Hands) -> Ints:
        return np.asarray(hands.astype(np.int64) @ self.value, dtype=np.int64)

    # ------------------------------------------------------------------ helpers
    def _present(self, ends: Ints, count: Ints) -> Flags:
        """(rounds, values) booleans: the numbers showing on an open end."""
        rows = ends.shape[0]
        valid = np.arange(ends.shape[1]) < count[:, None]
        vp = np.zeros((rows, self.values + 1), dtype=bool)
        vp[np.arange(rows)[:, None], np.where(valid, ends, self.values)] = True
        return vp[:, : self.values]

    def _first_end(self, ends: Ints, count: Ints, v: Ints) -> Ints:
        valid = np.arange(ends.shape[1]) < count[:, None]
        return np.asarray(((ends == v[:, None]) & valid).argmax(axis=1), dtype=np.int64)

    def _pick(self, weights: Ints, k: Ints) -> tuple[Ints, Ints]:
        """The tile holding position ``k`` of the cumulated weights, and the offset in it."""
        cum = np.cumsum(weights, axis=1, dtype=np.int32)
        tile = (cum <= k[:, None]).sum(axis=1)
        tile = np.minimum(tile, weights.shape[1] - 1)
        before = (
            np.take_along_axis(cum, tile[:, None], axis=1)[:, 0]
            - weights[np.arange(len(tile)), tile]
        )
        return tile, k - before

    def _kernel_pick(self, legal: Flags, ends: Ints, count: Ints, k: Ints) -> tuple[Ints, Ints]:
        """The ``k``-th placement in the kernel's move order, as (tile, end value).

        The kernel lists, for each distinct end value in end order, the legal tiles
        carrying it by deck index (:meth:`deckgen.engine.layouts.Layout.moves`): here the
        values are ranked by the first end showing them, counted per value, and the
        ``k``-th placement found by cumulated counts.
        """
        rows = legal.shape[0]
        nv = self.values
        ar = np.arange(rows)
        none = self.max_ends + 1
        width = int(count.max()) if rows else 0
        shown = (ends[:, :width, None] == np.arange(nv)) & (np.arange(width) < count[:, None])[
            :, :, None
        ]  # (rows, ends, values)
        first = np.where(shown.any(axis=1), shown.argmax(axis=1), none)
        per_value = np.add.reduceat(
            legal[:, self.value_tiles].astype(np.int64), self.value_starts, axis=1
        )
        per_value[first == none] = 0
        order = np.argsort(first, axis=1, kind="stable")
        cum = np.cumsum(np.take_along_axis(per_value, order, axis=1), axis=1)
        slot = np.minimum((cum <= k[:, None]).sum(axis=1), nv - 1)
        value = order[ar, slot]
        within = k - (cum[ar, slot] - per_value[ar, value])
        m = legal & self.carries[value]
        tile = np.minimum((np.cumsum(m, axis=1) <= within[:, None]).sum(axis=1), self.ntiles - 1)
        return tile, value

    def _greedy_move(self, legal: Flags, ends: Ints, count: Ints) -> tuple[Ints, Ints]:
        """(tile, value played on) of the greedy bot, in the engine's move order."""
        vals = np.where(legal, self.value, -1)
        best = vals.max(axis=1)
        heavy = legal & (vals == best[:, None])
        rows = len(best)
        chosen_v = np.full(rows, -1, dtype=np.int64)
        for j in range(ends.shape[1]):
            todo = (chosen_v < 0) & (j < count)
            if not todo.any():
                break
            vj = ends[:, j]
            fits = heavy & ((self.lo == vj[:, None]) | (self.hi == vj[:, None]))
            hit = todo & fits.any(axis=1)
            chosen_v[hit] = vj[hit]
        fits = heavy & ((self.lo == chosen_v[:, None]) | (self.hi == chosen_v[:, None]))
        return fits.argmax(axis=1).astype(np.int64), chosen_v

    def _draw(
        self,
        w: Ints,
        SV: Ints,
        H: Flags,
        seat: Ints,
        top: Ints,
        left: Ints,
        drew: Ints,
        legal: Flags,
        has: Flags,
        end: Ints,
        fits: Flags,
    ) -> None:
        """Rounds ``w`` cannot play: draw one tile after another, all at once.

        As the engine: stop at the first tile that fits, at the draw limit, or when only
        the reserve is left; a round whose mover found nothing with only the reserve
        left ends there (also when the limit was reached on the last draw).
        """
        t = self.t
        limit = t.draw_limit
        reserve = t.reserve
        avail = left[w] - reserve
        cap = np.minimum(avail, limit) if limit else avail
        cap = np.maximum(cap, 0)
        width = int(cap.max()) if len(cap) else 0
        found = np.zeros(len(w), dtype=bool)
        ndraw = np.zeros(len(w), dtype=np.int64)
        if width:
            j = np.arange(width)
            pos = np.minimum(top[w][:, None] + j, SV.shape[1] - 1)
            tiles = SV[w[:, None], pos]
            ok = j < cap[:, None]
            fitwin = fits[w[:, None], tiles] & ok
            found = fitwin.any(axis=1)
            first = fitwin.argmax(axis=1)
            ndraw = np.where(found, first + 1, cap)
            rr, cc = np.nonzero(j < ndraw[:, None])
            H[w[rr], seat[w[rr]], tiles[rr, cc]] = True
            top[w] += ndraw
            left[w] -= ndraw
            drew[w] = ndraw
            legal[w] = False
            fr = np.nonzero(found)[0]
            legal[w[fr], tiles[fr, first[fr]]] = True
            has[w] = found
        if reserve:  # nothing fits and only the reserve is left: the round ends
            end[w[~found & (left[w] <= reserve)]] = 2

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
        """Play one round from each deal (see :meth:`FastLine.play`)."""
        t = self.t
        n = self.n
        g = deals.hands.shape[0]
        lo, hi, value = self.lo, self.hi, self.value
        is_random = np.array([k == "random" for k in kinds], dtype=bool)
        any_greedy = not bool(is_random.all())
        numbers = decision_numbers(rng)
        reserve = t.reserve
        can_draw = t.draw != "none"
        must = t.must_play_drawn
        cross_all = self.cross_all
        hands = cast("Flags", deals.hands).copy()  # this path deals boolean hands (_shuffle)
        rest = deals.rest
        size = rest.shape[1]
        r_end = np.full(g, -1, dtype=np.int64)
        r_out = np.full(g, -1, dtype=np.int64)
        r_turns = np.zeros(g, dtype=np.int64)
        r_draws = np.zeros(g, dtype=np.int64)
        r_passes = np.zeros(g, dtype=np.int64)
        r_played = np.zeros(g, dtype=np.int64)
        ends = np.zeros((g, self.max_ends), dtype=np.int64)
        count = np.zeros(g, dtype=np.int64)
        spin_open = np.full(g, self.spinner)
        seat = starter.astype(np.int64)
        taken_at = np.full(g, size, dtype=np.int64)

        def start(rows: Ints, tile: Ints) -> None:
            dbl = self.is_double[tile]
            cross = dbl & (cross_all | spin_open[rows])
            a = lo[tile]
            ends[rows, 0] = a
            ends[rows, 1] = np.where(cross, a, hi[tile])
            ends[rows, 2] = a
            ends[rows, 3] = a
            count[rows] = np.where(cross, 4, 2)
            spin_open[rows] &= ~(dbl & spin_open[rows])

        turned = np.zeros(g, dtype=bool)
        if self.opening.lead == "turned_up":
            turned = ~lead_any
        if turned.any():
            idx = np.nonzero(turned)[0]
            if self.opening.turned_up_doubles == "skip" and not isinstance(rng, RoundStreams):
                rest = rest.copy()
                rest[idx] = put_back_doubles(rest[idx], self.is_double, rng)
            taken_at[idx] = 0
            start(idx, rest[idx, 0])
        lead_rows = ~turned
        if lead_rows.any():
            idx = np.nonzero(lead_rows)[0]
            s = seat[idx]
            hand = hands[idx, s]
            cnt = hand.sum(axis=1)
            k = (numbers.random(idx) * cnt).astype(np.int64)
            numbers.used(idx[is_random[s]])
            tile, _ = self._pick(hand.astype(np.int64), k)
            if any_greedy:
                greedy = ~is_random[s]
                if greedy.any():
                    vals = np.where(hand[greedy], value, -1)
                    tile[greedy] = vals.argmax(axis=1)
            forced_tile = lead_tile[idx]
            tile = np.where(forced_tile >= 0, forced_tile, tile)
            hands[idx, s, tile] = False
            start(idx, tile)
            r_turns[idx] += 1
            r_played[idx] += 1
            gone = ~hands[idx, s].any(axis=1)
            r_end[idx[gone]] = 0
            r_out[idx[gone]] = s[gone]
            seat[idx] = (s + 1) % n
        stock_size = size - turned.astype(np.int64)

        gid = np.nonzero(r_end < 0)[0]
        r_hands = hands.copy()
        H = hands[gid]
        seat = seat[gid]
        E = ends[gid]
        C = count[gid]
        spin = spin_open[gid]
        # the stock in draw order without the turned-up tile
        col = np.arange(size)[None, :]
        src = np.minimum(col + (col >= taken_at[:, None]), size - 1)
        SV = np.take_along_axis(rest, src, axis=1)[gid] if size else rest[gid]
        left = stock_size[gid].copy()
        top = np.zeros(len(gid), dtype=np.int64)
        turns = r_turns[gid]
        draws = np.zeros(len(gid), dtype=np.int64)
        passes = np.zeros(len(gid), dtype=np.int64)
        played = r_played[gid]
        forced = np.zeros(len(gid), dtype=np.int64)
        end = np.full(len(gid), -1, dtype=np.int64)
        out = np.full(len(gid), -1, dtype=np.int64)

        while len(gid):
            L = len(gid)
            ar = np.arange(L)
            live0 = end < 0
            turns += live0
            hand = H[ar, seat]
            vp = self._present(E, C)
            vlo = vp[:, lo]
            vhi = vp[:, hi]
            fits = vlo | vhi
            legal = hand & fits
            has = np.asarray(legal.any(axis=1), dtype=bool)
            drew = np.zeros(L, dtype=np.int64)
            if can_draw:
                need = np.nonzero(live0 & ~has)[0]
                if len(need):
                    self._draw(need, SV, H, seat, top, left, drew, legal, has, end, fits)
                draws += drew
            live = end < 0
            stuck = live & ~has
            if stuck.any():
                passes += stuck
                forced = np.where(stuck, forced + 1, forced)
                if not can_draw or not reserve:
                    dry = (left == 0) if can_draw else True
                    end[stuck & (forced >= n) & dry] = 1
            go = live & has
            both = vlo & vhi & ~self.is_double
            weight = legal.astype(np.int16) + (legal & both)
            total = weight.sum(axis=1)
            may = (drew > 0) & (not must)
            k = (numbers.random(gid) * (total + may)).astype(np.int64)
            numbers.used(gid[go & is_random[seat]])
            tile, v = self._kernel_pick(legal, E, C, np.minimum(k, np.maximum(total - 1, 0)))
            skip = go & may & (k == total)
            if any_greedy:
                greedy = go & ~is_random[seat]
                if greedy.any():
                    gi = np.nonzero(greedy)[0]
                    gt, gv = self._greedy_move(legal[gi], E[gi], C[gi])
                    tile[gi] = gt
                    v[gi] = gv
                    skip[gi] = False
            if skip.any():
                passes += skip
                forced[skip] = 0
                go &= ~skip
            rows = np.nonzero(go)[0]
            if len(rows):
                tr = tile[rows]
                vr = v[rows]
                H[rows, seat[rows], tr] = False
                k_end = self._first_end(E[rows], C[rows], vr)
                dbl = self.is_double[tr]
                cross = dbl & (cross_all | spin[rows])
                other = np.where(lo[tr] == vr, hi[tr], lo[tr])
                E[rows, k_end] = np.where(cross, vr, other)
                cr = rows[cross]
                if len(cr):
                    E[cr, C[cr]] = v[cr]
                    E[cr, C[cr] + 1] = v[cr]
                    C[cr] += 2
                    spin[cr] = False
                played[rows] += 1
                forced[rows] = 0
                gone = ~H[rows, seat[rows]].any(axis=1)
                end[rows[gone]] = 0
                out[rows[gone]] = seat[rows[gone]]
            seat = (seat + 1) % n
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
                r_hands[ids] = H[fi]
                keep = np.nonzero(end < 0)[0]
                if len(keep) * 4 < L * 3:
                    H, seat, E, C, spin = H[keep], seat[keep], E[keep], C[keep], spin[keep]
                    gid, SV = gid[keep], SV[keep]
                    left, top, turns, draws = left[keep], top[keep], turns[keep], draws[keep]
                    passes, played, forced = passes[keep], played[keep], forced[keep]
                    end, out = end[keep], out[keep]
        redeals = deals.redeals if deals.redeals is not None else np.zeros(g, dtype=np.int64)
        return self._results(
            r_end, r_out, starter, r_turns, r_draws, r_passes, r_played, r_hands, redeals
        )


def fits_v(vp: Flags, v: Ints) -> Flags:
    """Whether number ``v`` (one per round) shows on an open end of that round."""
    return np.asarray(vp[np.arange(len(v)), v], dtype=bool)
