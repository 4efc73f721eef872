"""The rules the compiled engines (board, trains) share, once: the deal, drawing from
the stock, the blocked round; and the bit counting.

Takes a numpy generator, an order of the deck's tiles (``perm``, deck indices) and the
deal's sizes; gives the order shuffled as the kernel's deal is random
(:func:`~deckgen.engine.setup.deal_tiles`): the first ``players * hand`` places are the
hands, seat after seat, the rest is the stock in draw order. :func:`deal_order` deals
again while the redeal rules say so (:func:`~deckgen.engine.setup.must_redeal`: too many
doubles in a hand, or no double for the first-round starter rule), as the kernel does,
and keeps the deal after :data:`~deckgen.engine.setup.MAX_REDEALS` redeals in a row.
Each engine reads the order in its own shape (two-word masks, or deck indices).
:func:`draw_tiles` draws for a player who cannot lay a tile, :func:`blocked` tells a
blocked round. Each pick is ``floor(u * size)`` with ``u`` the generator's next
number, as the kernel's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from deckgen.engine.backends.jit import inline, leaf, njit
from deckgen.engine.setup import MAX_REDEALS


@njit
def popcount(x: np.uint64) -> int:
    """Set bits of a 64-bit word (a loop LLVM turns into one instruction)."""
    c = 0
    while x != np.uint64(0):
        x = x & (x - np.uint64(1))
        c += 1
    return c


@njit
def lowest(x: np.uint64) -> int:
    """Index of the lowest set bit of ``x`` (not 0): the bits below it, counted."""
    return popcount((x & (~x + np.uint64(1))) - np.uint64(1))


@njit
def kth(x: np.uint64, k: int) -> int:
    """Index of the ``k``-th lowest set bit of ``x`` (k counts from 0). The first two
    steps are taken whatever ``k`` and selected, not branched on (``k`` is a coin toss)."""
    one = np.uint64(1)
    x1 = x & (x - one)
    x2 = x1 & (x1 - one) if x1 != 0 else x1
    y = x2 if k >= 2 else (x1 if k == 1 else x)
    for _ in range(k - 2):
        y = y & (y - one)
    return lowest(y)


@leaf
def shuffle_front(rng: Any, perm: NDArray[np.int64], count: int) -> None:
    """Fisher-Yates over the first ``count`` places of ``perm``: place ``q`` takes a
    tile chosen uniformly from those at ``q`` and after (``floor(u * size)``)."""
    nt = perm.shape[0]
    for q in range(count):
        j = q + int(rng.random() * (nt - q))
        t = perm[q]
        perm[q] = perm[j]
        perm[j] = t


DREW_FIT, DREW_LIMIT, DREW_OUT = 0, 1, 2
"""Why :func:`draw_tiles` stopped: the last tile drawn fits, the draw limit was
reached, or the stock is down to the reserve (or empty)."""


@inline
def draw_tiles(
    rng: Any, stock: NDArray[np.int64], top: int, left: int, rule: tuple[int, int, bool],
    carries: NDArray[np.int64], fits: int,
) -> tuple[int, int]:  # fmt: skip
    """A player who cannot lay a tile draws (:mod:`deckgen.engine.turn`): tile after
    tile from ``stock`` at ``top`` (``left`` tiles left), until one carries a number of
    ``fits`` (``carries``: each tile's two numbers, both as bits), the limit was drawn or
    only the reserve is left (checked first). ``rule``: the reserve, the draw limit (0:
    none), whether the stock is lazy (each tile drawn is a uniform one of those left,
    moved to its place). Returns the tiles drawn (``stock[top : top + drawn]``) and why
    it stopped (``DREW_*``)."""
    reserve, limit, lazy = rule
    drawn = 0
    while True:
        if left - drawn <= reserve:
            return drawn, DREW_OUT
        if limit > 0 and drawn == limit:
            return drawn, DREW_LIMIT
        q = top + drawn
        if lazy:
            j = q + int(rng.random() * (left - drawn))
            i = stock[j]
            stock[j] = stock[q]
            stock[q] = i
        drawn += 1
        if carries[stock[q]] & fits:
            return drawn, DREW_FIT


@njit
def blocked(passes: int, n: int, can_draw: bool, reserve: int, left: int) -> bool:
    """Whether the round is blocked (``end.blocked``, :mod:`deckgen.engine.turn`):
    every seat passed in a row (``passes``) and none could have drawn (no drawing, or
    the stock is empty without a reserve rule)."""
    return passes >= n and (not can_draw or (reserve == 0 and left == 0))


D_N, D_HAND, D_DOUBLES, D_NEED, D_NEED_TILE = range(5)
"""The deal's rules as numbers (an int64 vector): players, hand
size, the doubles in one hand that throw a deal in (0: none), the double the first
round needs (0: none, 1: any, 2: ``D_NEED_TILE``) and the required double's index."""


@leaf
def must_redeal(
    perm: NDArray[np.int64], rules: NDArray[np.int64], is_double: NDArray[np.int64], first: bool
) -> bool:
    """Whether the rules throw the deal in ``perm`` in: a hand with ``D_DOUBLES``
    doubles or more, or, in a round the first-round rule starts (``first``), no double
    dealt (``D_NEED`` 1) or not the required double (``D_NEED`` 2)."""
    n = rules[D_N]
    h = rules[D_HAND]
    k = rules[D_DOUBLES]
    need = rules[D_NEED]
    if k > 0:
        for s in range(n):
            c = 0
            for q in range(s * h, (s + 1) * h):
                c += is_double[perm[q]]
            if c >= k:
                return True
    if need > 0 and first:
        for q in range(n * h):
            if (need == 1 and is_double[perm[q]] == 1) or (
                need == 2 and perm[q] == rules[D_NEED_TILE]
            ):
                return False
        return True
    return False


@leaf
def deal_order(
    rng: Any, perm: NDArray[np.int64], count: int, rules: NDArray[np.int64],
    is_double: NDArray[np.int64], first: bool,
) -> int:  # fmt: skip
    """Shuffle the first ``count`` places of ``perm`` (the hands, and the stock too
    when ``count`` covers it), again while :func:`must_redeal` says so; return the
    redeals."""
    tries = 0
    while True:
        shuffle_front(rng, perm, count)
        if tries >= MAX_REDEALS or not must_redeal(perm, rules, is_double, first):
            return tries
        tries += 1
