"""Game metrics comparable with Ludii's, from the statistics of one bot line-up.

Takes the report's ``STATS`` dict (see :func:`deckgen.rulecheck.report.stats_json`);
gives a JSON-ready dict of metrics, each defined in ``docs/rules-check.md``: advantage
of each seat (rounds and matches, with the p-values of their significance tests),
balance, completion, drawishness, duration (mean and spread in turns and minutes, per
round and per match), decision moves and branching factor, lead changes over a match,
decisiveness. Pure.
"""

from __future__ import annotations

from typing import Any

from deckgen.rulecheck.diagnostics import equal_chances, z_upper


def _share(node: dict[str, Any] | None) -> float | None:
    if not node or node.get("share") is None:
        return None
    return float(node["share"])


def _counts(tally: dict[str, Any], sides: int) -> list[int]:
    return [int(tally.get(str(s), {}).get("count", 0)) for s in range(sides)]


def _seat_shares(tally: dict[str, Any], sides: int) -> tuple[list[float], int]:
    """Each side's share of the outcomes with one winner, and how many there were."""
    counts = _counts(tally, sides)
    won = sum(counts)
    return ([c / won for c in counts] if won else [], won)


def metrics_of(st: dict[str, Any], seconds_per_turn: float, setup_seconds: float) -> dict[str, Any]:
    """The metrics of one line-up's statistics."""
    fair = float(st["first_player_fair_share"])
    sides = round(1 / fair)
    round_shares, round_won = _seat_shares(st["wins_by_seat"], sides)
    match_shares, match_won = _seat_shares(st["match_winner"], sides)
    turns = st["turns_per_round"]
    mt = st["turns_per_match"]
    mm = st["playing_time_minutes"]
    per_turn = seconds_per_turn / 60.0
    matches = int(st["matches"]) or 1
    rounds = int(st["rounds"]) or 1
    dec = st.get("decisions") or {}
    bf = dec.get("branching_factor") or {}
    out: dict[str, Any] = {
        "advantage": {
            "rounds": {str(s): round(x - 1 / sides, 5) for s, x in enumerate(round_shares)},
            "matches": {str(s): round(x - 1 / sides, 5) for s, x in enumerate(match_shares)},
            "starter": round((_share(st["first_player_win_share"]) or fair) - fair, 5),
            "p_values": {
                "rounds": _p(equal_chances(_counts(st["wins_by_seat"], sides))),
                "matches": _p(equal_chances(_counts(st["match_winner"], sides))),
                "starter": _p(
                    z_upper(
                        int(st["first_player_win_share"]["count"]),
                        int(st["first_player_win_share"]["of"]),
                        fair,
                    )
                ),
            },
        },
        "balance": {
            "rounds": round(1 - (max(round_shares) - min(round_shares)), 5)
            if round_shares
            else None,
            "matches": round(1 - (max(match_shares) - min(match_shares)), 5)
            if match_shares
            else None,
        },
        "completion": round(match_won / matches, 5),
        "drawishness": {
            "rounds": round(1 - round_won / rounds, 5),
            "matches": round(1 - match_won / matches, 5),
            "blocked_rounds": _share(st["round_end"]["blocked"]),
        },
        "duration": {
            "turns_per_round": {"mean": turns.get("mean"), "stdev": turns.get("stdev")},
            "minutes_per_round": {
                "mean": round(turns.get("mean", 0.0) * per_turn + setup_seconds / 60.0, 4),
                "stdev": round(turns.get("stdev", 0.0) * per_turn, 4),
            },
            "turns_per_match": {"mean": mt.get("mean"), "stdev": mt.get("stdev")},
            "minutes_per_match": {"mean": mm.get("mean"), "stdev": mm.get("stdev")},
            "rounds_per_match": st["rounds_per_match"].get("mean"),
        },
        "decision_moves": dec.get("decision_share"),
        "branching_factor": bf.get("mean"),
        "lead_changes_per_match": (st.get("lead_changes_per_match") or {}).get("mean"),
        "decisiveness": (st.get("decided_at") or {}).get("mean"),
    }
    return out


def _p(p: float) -> float:
    return float(f"{p:.3g}")
