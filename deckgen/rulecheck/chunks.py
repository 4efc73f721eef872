"""Chunks of matches played by the reference engine, in this process or a worker.

Takes a :class:`ChunkTask` (the rules file's data, player count, bots, seeds); gives a
:class:`~deckgen.rulecheck.tally.PlayTally`: what only the reference engine tells
(clauses, gaps, failures, decisions) match by match, and the statistics of the whole
chunk at its end, its matches turned into the fast path's arrays (:func:`matches_of`)
and counted by :func:`~deckgen.rulecheck.tally.count_matches`, as the fast path's
are. Match ``k`` of a run is played from the seed :func:`match_seed` ``(seed, k)``,
so a chunk's result depends only on its own task, never on which worker ran it or how
many there were; and any match the report names can be played again with
``deckgen rules play RULES --seed S``.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckgen.engine import Engine, InvariantError, MatchResult, RoundResult, make_bots, play_match
from deckgen.engine.backends.matches import Matches
from deckgen.engine.backends.rounds import rounds_of
from deckgen.engine.players import Player
from deckgen.engine.tables import Tables
from deckgen.rulecheck.decisions import DecisionCount, count_match
from deckgen.rulecheck.feasibility import drawable_tiles
from deckgen.rulecheck.tally import Failure, PlayTally, count_matches
from deckgen.rulespec import RuleSpec, rules_from_data

SEED_STRIDE = 10_000_000
"""Match ``k`` of a run with seed ``s`` is played from ``s * SEED_STRIDE + k``."""


def match_seed(seed: int, k: int) -> int:
    """The seed of match ``k`` of a check run seeded with ``seed``."""
    return seed * SEED_STRIDE + k


@dataclass(frozen=True)
class ChunkTask:
    """Matches ``first .. first + count - 1`` of one (player count, bots) run."""

    raw: dict[str, Any]
    path: str | None
    sha256: str
    players: int
    bots: tuple[str, ...]
    seed: int
    first: int
    count: int
    check_invariants: bool
    seconds_per_turn: float
    setup_seconds: float


_SPECS: dict[str, RuleSpec] = {}
"""The rules files this process knows, by their SHA-256: loaded and validated once (the
check puts its own in before the workers fork, so they validate nothing again)."""
_ENGINES: dict[tuple[str, int, bool], Engine] = {}
"""The reference engines of this process, each made (its tables compiled) once."""


def remember(spec: RuleSpec) -> None:
    """Know ``spec`` by its SHA-256, so that a chunk of it need not validate it again."""
    _SPECS[spec.sha256] = spec


def _spec(task: ChunkTask) -> RuleSpec:
    spec = _SPECS.get(task.sha256)
    if spec is None:
        spec = rules_from_data(task.raw, path=Path(task.path) if task.path else None)
        _SPECS[task.sha256] = spec
    return spec


def engine_for(task: ChunkTask, check_invariants: bool = False) -> Engine:
    """The reference engine for the task's rules file and player count, made once per
    process."""
    key = (task.sha256, task.players, check_invariants)
    engine = _ENGINES.get(key)
    if engine is None:
        engine = Engine(_spec(task), task.players, check_invariants=check_invariants)
        _ENGINES[key] = engine
    return engine


def tables_for(task: ChunkTask) -> Tables:
    """The task's compiled tables, compiled once per process (the reference engine's)."""
    return engine_for(task).t


def matches_of(played: list[MatchResult], sides: int) -> Matches:
    """The reference engine's matches (each of at least one round) as the fast path's
    arrays, made once per chunk: every round (:func:`rounds_of`), its match and who won
    each match."""
    import numpy as np

    results: list[RoundResult] = [r for m in played for r in m.rounds]
    per = [len(m.rounds) for m in played]
    winners = np.zeros((len(played), sides), dtype=bool)
    for i, m in enumerate(played):
        winners[i, list(m.winners)] = True
    match_of = np.repeat(np.arange(len(played), dtype=np.int64), per)
    return Matches(rounds_of(results, sides), match_of, len(played), winners)


def run_chunk(task: ChunkTask) -> PlayTally:
    """Play the task's matches with the reference engine and count them."""
    spec = _spec(task)
    engine = engine_for(task, task.check_invariants)
    tally = PlayTally(
        task.players,
        len(engine.t.sides),
        seconds_per_turn=task.seconds_per_turn,
        setup_seconds=task.setup_seconds,
    )
    tally.drawable = drawable_tiles(spec, task.players)
    if task.check_invariants:
        tally.decisions = DecisionCount()
    played: list[MatchResult] = []
    for k in range(task.first, task.first + task.count):
        seed = match_seed(task.seed, k)
        bots: list[Player] = make_bots(list(task.bots), task.players, seed)
        decisions = tally.decisions
        if decisions is not None:
            decisions.asked = 0  # what a failed match saw counts for nothing
        try:
            result = play_match(engine, bots, seed, offered=decisions.offer if decisions else None)
        except InvariantError as exc:
            tally.failures.append(Failure(seed, "invariant", str(exc)))
            continue
        except Exception as exc:  # an engine bug must not hide the rest of the report
            last = traceback.format_exception_only(type(exc), exc)[-1].strip()
            tally.failures.append(Failure(seed, "exception", last))
            continue
        tally.judge_match(result, seed, checked=task.check_invariants)
        played.append(result)
        if decisions is not None:
            count_match(decisions, sum(r.turns for r in result.rounds))
            decisions.rounds += len(result.rounds)
    if played:
        count_matches(tally, matches_of(played, tally.sides), engine.t.side_of)
    return tally
