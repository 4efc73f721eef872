"""Facts the booklet prints about how the rules play: from the check report, or simulated.

Takes the rules check's JSON report (issue 6; read defensively through
:func:`facts_from_report`, the hook for its schema) or results of rounds simulated with
the engine (:func:`facts_from_rounds`); gives :class:`PlayFacts`: rounds simulated, how
often a round ends without anyone going out, how often the starting player wins, turns
per round and an estimated playing time with its assumption.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

SECONDS_PER_TURN = 10.0
"""Assumed time for one turn (a lay, or the draws and the pass), used when the report
gives no playing-time estimate of its own."""
SETUP_SECONDS_PER_ROUND = 60.0
"""Assumed time to shuffle, deal and count at the end of each round."""


@dataclass(frozen=True)
class PlayFacts:
    """What simulated play says about a rules file (shares are 0..1)."""

    source: str
    """``check`` (the rules check report) or ``simulation`` (the booklet's own run)."""
    rounds: int
    players: int
    blocked_share: float
    """Rounds that ended without anyone going out (blocked or stock down to the reserve)."""
    starter_win_share: float
    """Of the rounds somebody won, the share won by the player (side) who started."""
    turns_per_round: float
    rounds_per_match: float
    seconds_per_turn: float
    minutes_per_match: float
    bots: str = "random"
    setup_seconds: float = SETUP_SECONDS_PER_ROUND
    blocked_ci: tuple[float, float] | None = None
    starter_ci: tuple[float, float] | None = None
    """95 % confidence intervals of the two shares, when the source gives them."""

    side_count: int = 0
    """Sides that can win a round (teams in a partnership game; 0: one per player)."""

    @property
    def fair_share(self) -> float:
        """What the starter would win if starting gave no advantage: 1 / sides."""
        return 1.0 / (self.side_count or self.players)


class RoundLike(Protocol):
    """What :func:`facts_from_rounds` reads of an engine round result."""

    @property
    def end(self) -> str: ...
    @property
    def starter(self) -> int: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def turns(self) -> int: ...


def minutes_for(turns_per_round: float, rounds_per_match: float, seconds_per_turn: float) -> float:
    """Playing time of a match in minutes under the stated assumptions."""
    per_round = turns_per_round * seconds_per_turn + SETUP_SECONDS_PER_ROUND
    return per_round * rounds_per_match / 60.0


def facts_from_rounds(
    rounds: Iterable[RoundLike],
    *,
    players: int,
    rounds_per_match: float,
    sides: Sequence[Sequence[int]] | None = None,
    bots: str = "random",
    seconds_per_turn: float = SECONDS_PER_TURN,
) -> PlayFacts:
    """Facts from round results of the engine.

    ``sides`` lists the seats of each side (default: one side per seat); a round counts
    as won by the starter when the starter's side alone won it.
    """
    side_of = {
        seat: i
        for i, members in enumerate(sides or [[s] for s in range(players)])
        for seat in members
    }
    count = blocked = won = starter_wins = turns = 0
    for r in rounds:
        count += 1
        blocked += r.end != "out"
        won += len(r.winners) == 1
        starter_wins += r.winners == (side_of[r.starter],)
        turns += r.turns
    if not count:
        raise ValueError("no rounds to take facts from")
    tpr = turns / count
    return PlayFacts(
        source="simulation",
        rounds=count,
        players=players,
        blocked_share=blocked / count,
        starter_win_share=starter_wins / won if won else 0.0,
        turns_per_round=tpr,
        rounds_per_match=rounds_per_match,
        seconds_per_turn=seconds_per_turn,
        minutes_per_match=minutes_for(tpr, rounds_per_match, seconds_per_turn),
        bots=bots,
        side_count=len(sides) if sides else players,
    )


def _share(node: Any) -> tuple[float | None, tuple[float, float] | None]:
    """``{"share": x, "ci95": [lo, hi]}`` -> (x, (lo, hi))."""
    if not isinstance(node, Mapping):
        return None, None
    value = node.get("share", node.get("mean"))
    ci = node.get("ci95")
    interval = (float(ci[0]), float(ci[1])) if isinstance(ci, list) and len(ci) == 2 else None
    return (float(value) if isinstance(value, int | float) else None), interval


def _mean(node: Any) -> float | None:
    if isinstance(node, Mapping) and isinstance(node.get("mean"), int | float):
        return float(node["mean"])
    return None


RELIABLE_KEYS = (
    "round_end.not_out",
    "first_player_win_share",
    "turns_per_round",
    "playing_time_minutes",
)
"""The check report's ``stats.reliable`` flags of the figures the booklet prints."""


def facts_from_report(report: Mapping[str, Any], *, players: int) -> PlayFacts | None:
    """Facts from the rules check's JSON report (format ``deckgen-rules-check``,
    version 1) for ``players`` (or the first player count it has), or None when the
    report lacks them. The one place that knows the report's layout:
    ``players.<n>.stats`` with ``rounds``, ``round_end.not_out``,
    ``first_player_win_share``, ``turns_per_round``, ``rounds_per_match``,
    ``playing_time_minutes``, ``bots``; ``playing_time`` with the assumptions.
    """
    sections = report.get("players")
    if not isinstance(sections, Mapping) or not sections:
        return None
    key = str(players) if str(players) in sections else next(iter(sections))
    stats = sections[key].get("stats") if isinstance(sections[key], Mapping) else None
    if not isinstance(stats, Mapping):
        return None
    # the quick reference prints only figures the check marked reliable (when it marks)
    reliable = stats.get("reliable")
    if isinstance(reliable, Mapping) and not all(
        reliable.get(k, True) is True for k in RELIABLE_KEYS
    ):
        return None
    blocked, blocked_ci = _share(stats.get("round_end", {}).get("not_out"))
    starter, starter_ci = _share(stats.get("first_player_win_share"))
    turns = _mean(stats.get("turns_per_round"))
    rounds = stats.get("rounds")
    if blocked is None or starter is None or turns is None or not isinstance(rounds, int):
        return None
    timing = report.get("playing_time", {})
    spt = timing.get("seconds_per_turn", SECONDS_PER_TURN)
    setup = timing.get("setup_seconds_per_round", SETUP_SECONDS_PER_ROUND)
    rpm = _mean(stats.get("rounds_per_match")) or 1.0
    minutes = _mean(stats.get("playing_time_minutes"))
    return PlayFacts(
        source="check",
        rounds=rounds,
        players=int(key),
        blocked_share=blocked,
        starter_win_share=starter,
        turns_per_round=turns,
        rounds_per_match=rpm,
        seconds_per_turn=float(spt),
        minutes_per_match=minutes if minutes is not None else minutes_for(turns, rpm, spt),
        bots=str(stats.get("bots", "random")),
        setup_seconds=float(setup),
        blocked_ci=blocked_ci,
        starter_ci=starter_ci,
        side_count=_sides(stats.get("first_player_fair_share")),
    )


def _sides(fair: Any) -> int:
    """The number of sides from the report's fair share ``1 / sides`` (0 if absent)."""
    if isinstance(fair, int | float) and fair > 0:
        return round(1 / fair)
    return 0
