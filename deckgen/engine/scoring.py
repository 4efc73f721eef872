"""Scoring a finished round under a rules file's ``[scoring]`` parameters.

Takes the compiled :class:`~deckgen.engine.tables.Tables`, the scoring model, how the
round ended, who went out and each seat's hand value; gives the winning sides, the
points per side, the clause ids that decided it and any gaps. Pure, so tests check it
on hand-made positions.
"""

from __future__ import annotations

from deckgen.engine.results import END_OUT, Gap
from deckgen.engine.tables import Tables
from deckgen.rulespec import GAP_SITUATIONS
from deckgen.rulespec.model import Scoring


def band_points(pips: int, bands: int | None) -> int:
    """Points for ``pips`` by bands: 0..b-1 -> 1, b..2b-1 -> 2, ... (or the pips)."""
    if bands is None:
        return pips
    return pips // bands + 1


def score_round(
    t: Tables,
    scoring: Scoring,
    end: str,
    out_seat: int,
    hand_values: tuple[int, ...] | list[int],
) -> tuple[tuple[int, ...], tuple[int, ...], list[str], list[Gap]]:
    """Return ``(winning sides, points per side, clause ids fired, gaps)``.

    Sums over "the others" are written as the total minus the excluded sides (the same
    integers, fewer steps: this runs once per simulated round).
    """
    sides = t.sides
    ns = len(sides)
    if ns == len(hand_values):
        sv = hand_values
    else:
        try:  # partners in pairs
            sv = [hand_values[a] + hand_values[b] for a, b in sides]
        except ValueError:
            sv = [sum([hand_values[s] for s in side]) for side in sides]
    total = sum(sv)
    gaps: list[Gap] = []
    method = scoring.method
    bands = scoring.bands
    if end == END_OUT:
        w = t.side_of[out_seat]
        if method == "penalty":
            pts = [-v for v in sv]
            if scoring.out_bonus:
                pts[w] += scoring.out_bonus
                fired = ["score.out", "score.bonus"]
            else:
                fired = ["score.out"]
        else:
            fired = ["score.out"]
            pts = [0] * ns
            if method == "winner_takes":
                if scoring.out_points == "all":
                    raw = total - hand_values[out_seat]
                else:
                    raw = total - sv[w]
                pts[w] = raw if bands is None else raw // bands + 1
            else:  # the others' pips minus the winner's, from each other side
                pts[w] = total - ns * sv[w]
        if bands is not None:
            fired.append("score.bands")
        return (w,), tuple(pts), fired, gaps
    fired = ["score.blocked"]
    if method == "penalty":  # nobody wins a blocked round: no bands either
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
    if method == "winner_takes":
        raw = total if scoring.blocked_points == "all" else total - low * len(lows)
        value = raw if bands is None else raw // bands + 1
    else:
        value = total - low * ns
    for w in lows:
        pts[w] = value
    if bands is not None:
        fired.append("score.bands")
    return tuple(lows), tuple(pts), fired, gaps
