"""Exact odds of a deal: how the doubles fall into the hands of a uniformly shuffled set.

Takes numbers only (tiles, doubles, hands, hand size); gives fractions. Used by the rules
file's validation (a deal that almost never stands is refused) and by the rules check's
feasibility section (:mod:`deckgen.rulecheck.feasibility`), so the count is made once.

>>> p_deal_stands(28, 7, 4, 7, 2)  # every hand of a double-six set dealt to four: 7 doubles
Fraction(0, 1)
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Literal

MIN_STANDING = Fraction(1, 100)
"""A rules file whose deal stands less often than this is refused: the tiles would be
dealt again and again (the engines keep the 100th redeal in a row)."""


def _doubles_dealt(total: int, doubles: int, hands: int, hand: int, cap: int) -> list[int]:
    """``ways[j]``: deals (as sets of double positions) in which the hands hold ``j``
    doubles in all and no hand more than ``cap``, times the ways to place the rest."""
    rest = total - hands * hand
    ways = [1] + [0] * doubles  # placements of s doubles in the hands so far
    for _ in range(hands):
        nxt = [0] * (doubles + 1)
        for s, w in enumerate(ways):
            if not w:
                continue
            for d in range(min(hand, cap) + 1):
                if s + d > doubles:
                    break
                nxt[s + d] += w * comb(hand, d)
        ways = nxt
    return [w * comb(rest, doubles - s) for s, w in enumerate(ways)]


def p_some_hand_has(total: int, doubles: int, hands: int, hand: int, at_least: int) -> Fraction:
    """The chance that at least one of ``hands`` hands of ``hand`` tiles holds
    ``at_least`` doubles or more (the rest of the set is not dealt)."""
    fine = sum(_doubles_dealt(total, doubles, hands, hand, at_least - 1))
    return 1 - Fraction(fine, comb(total, doubles))


def p_deal_stands(
    total: int,
    doubles: int,
    hands: int,
    hand: int,
    redeal_at: int,
    need: Literal["", "any_double", "one_double"] = "",
) -> Fraction:
    """The chance that a deal is not dealt again: no hand holds ``redeal_at`` doubles or
    more (0: no such rule) and, with ``need``, some double is dealt (``any_double``) or
    one given double is (``one_double``)."""
    cap = hand if not redeal_at else redeal_at - 1
    ways = _doubles_dealt(total, doubles, hands, hand, cap)
    if need == "any_double":
        good = Fraction(sum(ways[1:]))
    elif need == "one_double":
        good = sum((Fraction(w * j, doubles) for j, w in enumerate(ways)), Fraction(0))
    else:
        good = Fraction(sum(ways))
    return good / comb(total, doubles)
