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

    @property
    def fair_share(self) -> float:
        """What the starter would win if starting gave no advantage: 1 / players."""
        return 1.0 / self.players


class RoundLike(Protocol):
    """What :func:`facts_from_rounds` reads of an engine round result."""

    end: str
    starter: int
    winners: tuple[int, ...]
    turns: int


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
    )


def _dig(data: Mapping[str, Any], *paths: str) -> Any:
    """The first value found at one of the dotted ``paths`` (``None`` if none)."""
    for path in paths:
        node: Any = data
        for key in path.split("."):
            if isinstance(node, Mapping) and key in node:
                node = node[key]
            else:
                node = None
                break
        if node is not None:
            return node
    return None


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, Mapping):  # {"mean": x, "ci95": [...]} or {"share": x, ...}
        for key in ("mean", "value", "share", "rate", "p"):
            if key in value:
                return _number(value[key])
    return None


def facts_from_report(report: Mapping[str, Any], *, players: int) -> PlayFacts | None:
    """Facts from the rules check's JSON report for ``players``, or None if it lacks them.

    This is the one place that knows the report's schema; the lookups try the names
    the check's documented schema uses and a few plausible spellings.
    """
    per = _dig(report, f"players.{players}", f"by_players.{players}", f"statistics.{players}")
    scope: Mapping[str, Any] = per if isinstance(per, Mapping) else report
    rounds = _number(_dig(scope, "rounds", "rounds_played", "statistics.rounds"))
    blocked = _number(
        _dig(scope, "ends.not_out", "round_ends.not_out", "blocked_share", "blocked_rate")
    )
    if blocked is None:
        ends = _dig(scope, "ends", "round_ends", "statistics.ends")
        if isinstance(ends, Mapping):
            shares = {k: _number(v) for k, v in ends.items()}
            if all(v is not None for v in shares.values()) and "out" in shares:
                total = sum(v for v in shares.values() if v is not None)
                out = shares["out"] or 0.0
                blocked = (total - out) / total if total > 1.5 else 1.0 - out
    starter = _number(_dig(scope, "first_player_advantage", "starter_wins", "wins_by_seat.starter"))
    turns = _number(_dig(scope, "turns", "turns_per_round", "statistics.turns"))
    rpm = _number(_dig(scope, "rounds_per_match", "statistics.rounds_per_match")) or 1.0
    spt = _number(_dig(report, "playing_time.seconds_per_turn", "assumptions.seconds_per_turn"))
    minutes = _number(_dig(scope, "playing_time.minutes", "playing_time_minutes"))
    if None in (rounds, blocked, starter, turns):
        return None
    assert rounds is not None and blocked is not None and starter is not None
    assert turns is not None
    spt = spt or SECONDS_PER_TURN
    return PlayFacts(
        source="check",
        rounds=int(rounds),
        players=players,
        blocked_share=blocked,
        starter_win_share=starter,
        turns_per_round=turns,
        rounds_per_match=rpm,
        seconds_per_turn=spt,
        minutes_per_match=minutes if minutes is not None else minutes_for(turns, rpm, spt),
        bots=str(_dig(report, "bots") or "random"),
    )
