"""The lean back-end: whole rounds of random bots on a line, the hot path of simulations.

Supports (see :func:`supports`) a ``line`` layout where a drawn tile that fits must be
laid, every seat a plain random bot, nothing recorded and no invariant checks. Takes
the compiled tables, the deal's ``random.Random`` and one ``random`` method per seat;
gives the :class:`~deckgen.engine.results.RoundResult` the kernel
(:class:`~deckgen.engine.state.RoundState`) gives for the same deal and the same
random numbers: ``tests/engine/test_conformance.py`` proves it round for round.

- the legal tiles are ``a = hand & suit[e0]`` and ``b = hand & suit[e1]`` (``b`` empty
  when both ends show the same number, so one placement counts once): the kernel's
  move order;
- one ``random()`` per decision picks ``k = floor(random() * (|a| + |b|))``: the k-th
  lowest tile of ``a`` on end 0, else the (k - |a|)-th lowest of ``b`` on end 1, as a
  random bot picks ``moves[k]`` in the kernel;
- the turn rules are :mod:`deckgen.engine.turn`'s: the reserve is checked before the
  draw limit, so a player who has nothing to lay with only the reserve left ends the
  round.

The k-th lowest tile of a mask comes from :func:`set_bits`, a table of the set bits of
every mask met so far (masks here are subsets of one suit, so the table stays small).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import floor

from deckgen.engine.finish import Finisher, RoundTally
from deckgen.engine.results import (
    END_BLOCKED,
    END_OUT,
    END_RESERVE,
    Gap,
    RoundEnd,
    RoundResult,
)
from deckgen.engine.setup import RoundStart, deal_tiles, find_starter, setup_round
from deckgen.engine.tables import Tables

BITS: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}
BITS_LIMIT = 1 << 18
"""Masks beyond this many are answered without being stored (memory bound)."""


def set_bits(mask: int) -> tuple[int, tuple[int, ...]]:
    """How many bits ``mask`` has set and their positions, lowest first.

    From the table when known (the play loops read ``BITS`` directly and call this
    on a miss).
    """
    out = BITS.get(mask)
    if out is None:
        found = []
        m = mask
        while m:
            low = m & -m
            found.append(low.bit_length() - 1)
            m ^= low
        out = (len(found), tuple(found))
        if len(BITS) < BITS_LIMIT:
            BITS[mask] = out
    return out


def line_no_draw(
    t: Tables,
    hands: list[int],
    e0: int,
    e1: int,
    seat: int,
    rand: Sequence[Callable[[], float]],
) -> tuple[int, int]:
    """Play a line without drawing to its end; ``hands`` is updated in place.

    Returns ``(out seat, passes)``: the seat that went out, or -1 when all seats
    passed in a row (blocked). Every turn is a play or a pass, so the caller gets the
    turns, the tiles played and the board from the hands before and after.
    """
    n = len(hands)
    suit = t.suit
    pipsum = t.pipsum
    cache = BITS
    fl = floor
    passes = forced = 0
    while True:
        h = hands[seat]
        a = h & suit[e0]
        b = h & suit[e1] if e1 != e0 else 0
        if a or b:
            try:
                na, ta = cache[a]
                nb, tb = cache[b]
            except KeyError:
                na, ta = set_bits(a)
                nb, tb = set_bits(b)
            k = fl(rand[seat]() * (na + nb))  # floor = int() for values >= 0, faster
            if k < na:
                i = ta[k]
                e0 = pipsum[i] - e0
            else:
                i = tb[k - na]
                e1 = pipsum[i] - e1
            h ^= 1 << i
            hands[seat] = h
            if not h:
                return seat, passes
            forced = 0
        else:
            passes += 1
            forced += 1
            if forced >= n:
                return -1, passes
        seat += 1
        if seat == n:
            seat = 0


def line_draw(
    t: Tables,
    hands: list[int],
    stock: list[int],
    e0: int,
    e1: int,
    seat: int,
    rand: Sequence[Callable[[], float]],
) -> tuple[int, int, int, int, int, bool, bool]:
    """Play a line with drawing (a drawn tile that fits is played at once) to its end.

    ``stock`` is popped from its end; ``t.reserve`` tiles stay in it; ``t.draw_limit``
    caps the draws per turn (0: until a tile fits). ``hands`` and ``stock`` are updated in
    place. Returns ``(end, out seat, passes, draws, drawn tiles (a bitmask), a drawn
    tile was played, the limit was hit)`` with ``end`` 0 for out, 1 for blocked, 2 for
    the stock down to its reserve (that turn draws and ends the round).
    """
    n = len(hands)
    suit = t.suit
    pipsum = t.pipsum
    reserve = t.reserve
    limit = t.draw_limit
    cache = BITS
    fl = floor
    passes = forced = draws = drawn = 0
    drawn_played = limit_hit = False
    while True:
        h = hands[seat]
        s0 = suit[e0]
        s1 = suit[e1] if e1 != e0 else 0
        a = h & s0
        b = h & s1
        if not (a or b):
            drew = found = 0
            while True:
                if len(stock) <= reserve:  # checked first: see end.reserve
                    if reserve:
                        hands[seat] = h
                        return 2, -1, passes, draws + drew, drawn, drawn_played, limit_hit
                    break
                if limit and drew == limit:
                    limit_hit = True
                    break
                bit = 1 << stock.pop()
                h |= bit
                drawn |= bit
                drew += 1
                if bit & (s0 | s1):
                    found = bit
                    break
            hands[seat] = h
            draws += drew
            if not found:
                passes += 1
                forced += 1
                if forced >= n and not reserve and not stock:
                    return 1, -1, passes, draws, drawn, drawn_played, limit_hit
                seat += 1
                if seat == n:
                    seat = 0
                continue
            drawn_played = True
            a = found & s0
            b = found & s1
        try:
            na, ta = cache[a]
            nb, tb = cache[b]
        except KeyError:
            na, ta = set_bits(a)
            nb, tb = set_bits(b)
        k = fl(rand[seat]() * (na + nb))
        if k < na:
            i = ta[k]
            e0 = pipsum[i] - e0
        else:
            i = tb[k - na]
            e1 = pipsum[i] - e1
        h ^= 1 << i
        hands[seat] = h
        if not h:
            return 0, seat, passes, draws, drawn, drawn_played, limit_hit
        forced = 0
        seat += 1
        if seat == n:
            seat = 0


_ENDS: tuple[RoundEnd, ...] = (END_OUT, END_BLOCKED, END_RESERVE)
"""The ends by the codes of :func:`line_draw`."""


def supports(t: Tables) -> str | None:
    """Why this back-end cannot play rounds of ``t`` (None: it can)."""
    if t.shape != "line":
        return "only a line layout"
    if not t.must_play_drawn:
        return "only rules where a drawn tile that fits must be laid"
    if t.ends_multiple:
        return "no scoring during play"
    return None


def _plain_setup(t: Tables) -> bool:
    """No rule deals again and no tile is turned up: setup is a deal and a starter."""
    op = t.opening
    return (
        not t.redeal_doubles and op.no_double != "redeal" and op.lead in ("any", "starter_double")
    )


class Lean:
    """Plays rounds of one rules file and player count (see the module docstring)."""

    def __init__(self, t: Tables, finisher: Finisher) -> None:
        self.t = t
        self.finisher = finisher
        self.plain = _plain_setup(t)
        self.no_draw = t.draw == "none"
        self.tally = RoundTally(
            end=END_OUT, out_seat=-1, starter=-1, hands=[], fired=set(), gaps=[], turns=0,
            draws=0, passes=0, played=0, placed_double=False, drawn_played=False,
            limit_hit=False, first_tile=-1,
        )  # fmt: skip
        """Filled anew for every round (the finisher keeps nothing of it)."""

    def play(
        self, rng: random.Random, rand: Sequence[Callable[[], float]], start: RoundStart
    ) -> RoundResult:
        """One round of random bots (``rand``: each seat's ``random``), not recorded."""
        t = self.t
        fired: set[str] = set()
        gaps: list[Gap] = []
        if self.plain:
            hands, rest, _ = deal_tiles(t, rng)
            seat, lead_tile, lead_mode, _ = find_starter(t, hands, start, fired, gaps)
            fired.add("lead.any" if lead_mode == "any" else "lead.double")
            stock = rest[::-1]
            first = -1
            redeals = 0
        else:
            setup = setup_round(t, rng, start, fired=fired, gaps=gaps, keep_deal=False)
            hands, stock, seat, lead_tile = setup.hands, setup.stock, setup.starter, setup.lead_tile
            first = setup.turned_up
            redeals = setup.redeals
        tally = self.tally
        tally.starter = seat
        tally.hands = hands
        tally.fired = fired
        tally.gaps = gaps
        tally.turned_up = first
        tally.redeals = redeals
        turns = played = 0
        doubles = False
        if first < 0:
            turns = 1
            r = rand[seat]
            hand = hands[seat]
            if lead_tile >= 0:
                r()  # a random bot draws once per decision, forced or not
                first = lead_tile
            else:  # the k-th tile of the hand (whole hands would flood the set-bits table)
                m = hand
                k = floor(r() * hand.bit_count())
                while k:
                    m &= m - 1
                    k -= 1
                first = (m & -m).bit_length() - 1
            hand ^= 1 << first
            hands[seat] = hand
            played = 1
            doubles = t.is_double[first]
            if not hand:
                tally.first_tile = first
                tally.end = END_OUT
                tally.out_seat = seat
                tally.turns = tally.played = 1
                tally.draws = tally.passes = 0
                tally.placed_double = doubles
                tally.drawn_played = tally.limit_hit = False
                return self.finisher.finish(tally)
            seat = seat + 1 if seat + 1 < t.players else 0
        tally.first_tile = first
        before = 0
        for h in hands:
            before |= h
        if self.no_draw:
            out_seat, passes = line_no_draw(t, hands, t.lo[first], t.hi[first], seat, rand)
            code = 0 if out_seat >= 0 else 1
            draws = drawn = 0
            drawn_played = limit_hit = False
        else:
            code, out_seat, passes, draws, drawn, drawn_played, limit_hit = line_draw(
                t, hands, stock, t.lo[first], t.hi[first], seat, rand
            )
        after = 0
        for h in hands:
            after |= h
        laid = (before | drawn) ^ after  # every tile that left a hand went to the table
        n_laid = laid.bit_count()
        tally.end = _ENDS[code]
        tally.out_seat = out_seat
        tally.turns = turns + n_laid + passes + (1 if code == 2 else 0)
        tally.draws = draws
        tally.passes = passes
        tally.played = played + n_laid
        tally.placed_double = doubles or bool(laid & t.double_mask)
        tally.drawn_played = drawn_played
        tally.limit_hit = limit_hit
        return self.finisher.finish(tally)
