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
    """Return ``(winning sides, points per side, clause ids fired, gaps)``."""
    sides = t.sides
    ns = len(sides)
    if ns == len(hand_values):
        sv = list(hand_values)
    else:
        sv = [sum(hand_values[s] for s in side) for side in sides]
    total = sum(sv)
    fired: list[str] = []
    gaps: list[Gap] = []
    pts = [0] * ns
    method = scoring.method
    winners: tuple[int, ...] = ()
    if end == END_OUT:
        fired.append("score.out")
        w = t.side_of[out_seat]
        winners = (w,)
        if method == "penalty":
            pts = [-v for v in sv]
            if scoring.out_bonus:
                pts[w] += scoring.out_bonus
                fired.append("score.bonus")
        elif method == "winner_takes":
            raw = total - sv[w]
            if scoring.out_points == "all":
                raw = total - hand_values[out_seat]
            pts[w] = band_points(raw, scoring.bands)
        else:
            pts[w] = sum(v - sv[w] for i, v in enumerate(sv) if i != w)
    else:
        fired.append("score.blocked")
        if method == "penalty":
            pts = [-v for v in sv]
        else:
            low = min(sv)
            lows = [i for i in range(ns) if sv[i] == low]
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
                    lows = []
            winners = tuple(lows)
            for w in lows:
                if method == "winner_takes":
                    if scoring.blocked_points == "all":
                        raw = total
                    else:
                        raw = sum(v for i, v in enumerate(sv) if i not in lows)
                    pts[w] = band_points(raw, scoring.bands)
                else:
                    pts[w] = sum(v - low for v in sv)
    if scoring.bands is not None and winners:
        fired.append("score.bands")
    return winners, tuple(pts), fired, gaps
