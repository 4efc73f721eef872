"""Playing a whole match: rounds until the rules file's ``[match]`` end, with ties.

Takes an :class:`~deckgen.engine.core.Engine`, a seed and the players; gives a
:class:`~deckgen.engine.results.MatchResult`. The deal stream is
``random.Random(seed)``; bots draw from their own streams (see
:func:`deckgen.engine.bots.bot_rng`), so the same seed deals the same tiles
whatever the bots.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from deckgen.engine.core import Engine
from deckgen.engine.moves import Move
from deckgen.engine.players import Player
from deckgen.engine.results import END_OUT, Gap, MatchResult, RoundResult
from deckgen.engine.setup import RoundStart
from deckgen.engine.tables import Tables
from deckgen.rulespec import GAP_SITUATIONS

MAX_ROUNDS = 1000


def _fallback(situation: str) -> str:
    return GAP_SITUATIONS[situation].split("fallback: ")[1]


def next_round(t: Tables, r: RoundResult, round_no: int) -> RoundStart:
    """Where the match stands for round ``round_no + 1`` after round ``round_no`` gave ``r``:
    who started it, and a seat of the side that won it (the seat that went out; the
    first seat of a single winning side after a block; -1 when nobody or several won).
    The rules file's ``opening.later_starter`` then picks the next starter from these
    (:func:`deckgen.engine.setup.find_starter`)."""
    if r.end == END_OUT:
        winner = r.out_seat
    elif len(r.winners) == 1:
        winner = t.sides[r.winners[0]][0]
    else:
        winner = -1
    return RoundStart(round_no + 1, r.starter, winner)


def match_over(
    engine: Engine,
    totals: list[int],
    rounds_played: int,
    fired: set[str],
    gaps: list[Gap],
) -> tuple[int, ...] | None:
    """The winning sides if the match ends now, else None."""
    m = engine.spec.params.match
    if m.end == "rounds":
        assert m.rounds is not None
        if rounds_played < m.rounds:
            return None
        contenders = list(range(len(totals)))
    else:
        assert m.target is not None
        contenders = [i for i, v in enumerate(totals) if v >= m.target]
        if not contenders:
            return None
        if len(contenders) > 1:
            if m.several_at_target is None:
                gaps.append(
                    Gap(
                        "match.several_at_target",
                        f"sides {contenders} reach {m.target} in the same round",
                        _fallback("match.several_at_target"),
                    )
                )
            else:
                fired.add("match.several_at_target")
    fired.add("match.end")
    best = max(totals[i] for i in contenders)
    leaders = tuple(i for i in contenders if totals[i] == best)
    if len(leaders) == 1:
        return leaders
    if rounds_played >= MAX_ROUNDS:
        gaps.append(Gap("match.round_limit", "no single winner", _fallback("match.round_limit")))
        return leaders
    tie = m.tie
    if tie is None:
        gaps.append(
            Gap("match.tie", f"sides {list(leaders)} tie on {best}", _fallback("match.tie"))
        )
        return leaders
    fired.add("match.tie")
    if tie == "shared":
        return leaders
    return None


def play_match(
    engine: Engine,
    players: Sequence[Player],
    seed: int,
    *,
    record: bool = False,
    offered: Callable[[Sequence[Move]], object] | None = None,
) -> MatchResult:
    """Play a match to its end and return its result (``offered``: called with the legal
    moves of every decision, see :meth:`~deckgen.engine.core.Engine.play_round`)."""
    rng = random.Random(seed)
    t = engine.t
    totals = [0] * len(t.sides)
    rounds: list[RoundResult] = []
    after: list[tuple[int, ...]] = []
    fired: set[str] = set()
    gaps: list[Gap] = []
    start = RoundStart()
    winners: tuple[int, ...] | None = None
    while winners is None:
        r = engine.play_round(
            rng,
            players,
            round_no=start.round_no,
            prev_starter=start.prev_starter,
            prev_winner=start.prev_winner,
            totals=tuple(totals),
            record=record,
            offered=offered,
        )
        rounds.append(r)
        for i, p in enumerate(r.points):
            totals[i] += p
        after.append(tuple(totals))
        start = next_round(t, r, len(rounds))
        winners = match_over(engine, totals, len(rounds), fired, gaps)
        if winners is None and len(rounds) >= MAX_ROUNDS:
            gaps.append(
                Gap("match.round_limit", "the match did not end", _fallback("match.round_limit"))
            )
            best = max(totals)
            winners = tuple(i for i, v in enumerate(totals) if v == best)
    return MatchResult(
        players=engine.players,
        sides=t.sides,
        rounds=rounds,
        totals=tuple(totals),
        winners=winners,
        clauses=tuple(sorted(fired)),
        gaps=tuple(gaps),
        totals_after=after,
    )
