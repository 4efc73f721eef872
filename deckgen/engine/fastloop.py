"""The play loops for random bots on a line: the hot path of simulations.

Takes hands (bitmasks over deck indices), the two open end values, the seat to move,
one ``random`` method per seat and the compiled suit and pip tables; plays the round
to its end and gives how it ended. Makes exactly the choices and random draws of the
general loop in :mod:`deckgen.engine.core` (the golden corpus in
``tests/engine/test_speed_equivalence.py`` holds every result equal):

- the legal tiles are ``a = hand & suit[e0]`` and ``b = hand & suit[e1]`` (``b`` empty
  when both ends show the same number, so one placement counts once);
- one ``random()`` per decision picks ``k = int(random() * (|a| + |b|))`` (computed
  as ``floor``: the same for values >= 0, and faster): the k-th
  lowest tile of ``a`` on end 0, else the (k - |a|)-th lowest of ``b`` on end 1.

The k-th lowest tile of a mask comes from :func:`set_bits`, a table of the set bits of
every mask met so far (masks here are subsets of one suit, so the table stays small).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import floor

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
    hands: list[int],
    e0: int,
    e1: int,
    seat: int,
    rand: Sequence[Callable[[], float]],
    suit: Sequence[int],
    pipsum: Sequence[int],
) -> tuple[int, int]:
    """Play a line without drawing to its end; ``hands`` is updated in place.

    Returns ``(out seat, passes)``: the seat that went out, or -1 when all seats
    passed in a row (blocked). Every turn is a play or a pass, so the caller gets the
    turns, the tiles played and the board from the hands before and after.
    """
    n = len(hands)
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
    hands: list[int],
    stock: list[int],
    e0: int,
    e1: int,
    seat: int,
    rand: Sequence[Callable[[], float]],
    suit: Sequence[int],
    pipsum: Sequence[int],
    reserve: int,
    limit: int,
) -> tuple[int, int, int, int, int, bool, bool]:
    """Play a line with drawing (a drawn tile that fits is played at once) to its end.

    ``stock`` is popped from its end; ``reserve`` tiles stay in it; ``limit`` caps the
    draws per turn (0: until a tile fits). ``hands`` and ``stock`` are updated in
    place. Returns ``(end, out seat, passes, draws, drawn tiles (a bitmask), a drawn
    tile was played, the limit was hit)`` with ``end`` 0 for out, 1 for blocked, 2 for
    the stock down to its reserve (that turn draws and ends the round).
    """
    n = len(hands)
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
