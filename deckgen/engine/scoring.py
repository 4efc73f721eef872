"""Scoring a finished round under a rules file's ``[scoring]`` parameters.

Takes the compiled :class:`~deckgen.engine.tables.Tables`, the scoring model, how the
round ended, who went out and each seat's hand value; gives the winning sides, the
points per side, the clause ids that decided it and any gaps. Pure, so tests check it
on hand-made positions.

Each ``scoring.method`` is one :class:`Method` in :data:`METHODS`, with what it scores
when a side went out (``score.out``) and when the round ended otherwise
(``score.blocked``); ``score.bands``, ``score.bonus`` and ``score.tie`` are options
they share. To add a method: write a :class:`Method` subclass and register it.
"""

from __future__ import annotations

from deckgen.engine.endcount import rounded
from deckgen.engine.results import END_OUT, Gap
from deckgen.engine.tables import Tables
from deckgen.rulespec import GAP_SITUATIONS
from deckgen.rulespec.model import Scoring

Scored = tuple[tuple[int, ...], tuple[int, ...], list[str], list[Gap]]
"""(winning sides, points per side, clause ids fired, gaps)."""


def band_points(pips: int, bands: int | None) -> int:
    """Points for ``pips`` by bands: 0..b-1 -> 1, b..2b-1 -> 2, ... (or the pips)."""
    if bands is None:
        return pips
    return pips // bands + 1


class Ending:
    """A finished round as the scoring sees it (read-only by convention)."""

    __slots__ = ("hand_values", "out_seat", "scoring", "side_values", "t", "total")

    def __init__(
        self,
        t: Tables,
        scoring: Scoring,
        out_seat: int,
        hand_values: tuple[int, ...] | list[int],
        side_values: tuple[int, ...] | list[int],
        total: int,
    ) -> None:
        self.t = t
        self.scoring = scoring
        self.out_seat = out_seat
        self.hand_values = hand_values
        self.side_values = side_values
        """Hand values summed per side."""
        self.total = total
        """All values left in all hands."""


class Method:
    """A scoring method: what the sides score when one went out, and otherwise."""

    def out(self, e: Ending, w: int) -> list[int]:
        """Points per side when side ``w`` went out."""
        raise NotImplementedError

    def blocked(self, e: Ending, lows: list[int], low: int) -> int:
        """Points for each of the lowest sides ``lows`` (hand value ``low``) when the
        round ended without anyone going out."""
        raise NotImplementedError

    def nobody_wins_blocked(self) -> bool:
        """A round nobody went out of has no winner (every side scores itself)."""
        return False


class WinnerTakes(Method):
    """``winner_takes``: the winner scores the pips left in the other hands."""

    def out(self, e: Ending, w: int) -> list[int]:
        sc = e.scoring
        raw = e.total - (e.hand_values[e.out_seat] if sc.out_points == "all" else e.side_values[w])
        pts = [0] * len(e.side_values)
        pts[w] = band_points(raw, sc.bands)
        return pts

    def blocked(self, e: Ending, lows: list[int], low: int) -> int:
        raw = e.total if e.scoring.blocked_points == "all" else e.total - low * len(lows)
        return band_points(raw, e.scoring.bands)


class Penalty(Method):
    """``penalty``: every side loses its own pips; going out earns ``out_bonus``."""

    def out(self, e: Ending, w: int) -> list[int]:
        pts = [-v for v in e.side_values]
        pts[w] += e.scoring.out_bonus
        return pts

    def blocked(self, e: Ending, lows: list[int], low: int) -> int:
        raise AssertionError("a penalty round has no winner to score")

    def nobody_wins_blocked(self) -> bool:
        return True


class LowestTakesDifferences(Method):
    """``lowest_takes_differences``: the lowest side scores, from every other side,
    that side's pips minus its own."""

    def out(self, e: Ending, w: int) -> list[int]:
        pts = [0] * len(e.side_values)
        pts[w] = e.total - len(e.side_values) * e.side_values[w]
        return pts

    def blocked(self, e: Ending, lows: list[int], low: int) -> int:
        return e.total - low * len(e.side_values)


METHODS: dict[str, Method] = {
    "winner_takes": WinnerTakes(),
    "penalty": Penalty(),
    "lowest_takes_differences": LowestTakesDifferences(),
}
"""Every scoring method by its ``scoring.method`` name."""


def _side_values(
    t: Tables, hand_values: tuple[int, ...] | list[int]
) -> list[int] | tuple[int, ...]:
    sides = t.sides
    if len(sides) == len(hand_values):
        return hand_values
    try:  # partners in pairs
        return [hand_values[a] + hand_values[b] for a, b in sides]
    except ValueError:
        return [sum([hand_values[s] for s in side]) for side in sides]


def score_round(
    t: Tables,
    scoring: Scoring,
    end: str,
    out_seat: int,
    hand_values: tuple[int, ...] | list[int],
) -> Scored:
    """Return ``(winning sides, points per side, clause ids fired, gaps)``."""
    scored = _score_round(t, scoring, end, out_seat, hand_values)
    if scoring.round_to is None or not any(scored[1]):
        return scored
    m = scoring.round_to  # score.rounding: the winners' points to the nearest multiple
    return (
        scored[0],
        tuple([rounded(p, m) for p in scored[1]]),
        [*scored[2], "score.rounding"],
        scored[3],
    )


def _score_round(
    t: Tables,
    scoring: Scoring,
    end: str,
    out_seat: int,
    hand_values: tuple[int, ...] | list[int],
) -> Scored:
    sv = _side_values(t, hand_values)
    ns = len(sv)
    e = Ending(t, scoring, out_seat, hand_values, sv, sum(sv))
    method = METHODS[scoring.method]
    gaps: list[Gap] = []
    if end == END_OUT:
        w = t.side_of[out_seat]
        pts = method.out(e, w)
        fired = ["score.out"]
        if scoring.method == "penalty" and scoring.out_bonus:
            fired.append("score.bonus")
        if scoring.bands is not None:
            fired.append("score.bands")
        return (w,), tuple(pts), fired, gaps
    fired = ["score.blocked"]
    if method.nobody_wins_blocked():  # no winner: no bands either
        return (), tuple([-v for v in sv]), fired, gaps
    low = min(sv)
    if ns == 2:
        lows = [0] if sv[0] < sv[1] else [1] if sv[1] < sv[0] else [0, 1]
    else:
        lows = [i for i in range(ns) if sv[i] == low]
    pts = [0] * ns
    if len(lows) > 1:
        tie = scoring.tie
        if tie is None:
            gaps.append(
                Gap(
                    "score.tie",
                    f"sides {lows} tie for the lowest hand with {low}",
                    GAP_SITUATIONS["score.tie"].split("fallback: ")[1],
                )
            )
            tie = "nobody_scores"
        else:
            fired.append("score.tie")
        if tie == "nobody_scores":
            return (), tuple(pts), fired, gaps
    value = method.blocked(e, lows, low)
    for w in lows:
        pts[w] = value
    if scoring.bands is not None:
        fired.append("score.bands")
    return tuple(lows), tuple(pts), fired, gaps
