"""Whole matches on the fast path, counted: a chunk of matches played by the fast
engine the check chose (:mod:`deckgen.engine.backends.registry`) and counted into a
:class:`~deckgen.rulecheck.tally.PlayTally`: the statistics by
:func:`~deckgen.rulecheck.tally.count_matches`, as the reference engine's chunks are
counted, and the clauses the round arrays tell by
:func:`~deckgen.rulecheck.batchcount.count_batch` (the other clauses and the gaps come
from the reference engine).

Takes a :class:`FastTask`; each chunk has its own numpy stream seeded from
``(seed, players, chunk)``, so the result does not depend on the number of workers.
How whole matches are played (one batch, or waves of blocks) is
:mod:`deckgen.engine.backends.matches`'.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from deckgen.engine.backends.registry import backend, make
from deckgen.engine.bots import per_seat
from deckgen.rulecheck.batchcount import count_batch
from deckgen.rulecheck.chunks import ChunkTask, _spec, tables_for
from deckgen.rulecheck.feasibility import drawable_tiles
from deckgen.rulecheck.tally import PlayTally, count_matches

if TYPE_CHECKING:
    from deckgen.engine.backends.protocol import BatchEngine


@dataclass(frozen=True)
class FastTask:
    """``count`` matches of chunk ``index`` of one (player count, bots) run."""

    chunk: ChunkTask
    index: int
    count: int
    engine: str
    """The fast engine that plays them, by its registry name (the check chose it:
    :func:`deckgen.engine.backends.registry.choose`)."""
    per_match: float = 4.0
    """Rounds a match of varying length lasts, as the pilot played them: the batches are
    sized by it (:func:`~deckgen.engine.backends.matches.play_matches`)."""
    rounds: int = 0
    """If set, more matches follow the first ``count`` until the chunk holds at least
    this many rounds (matches to a target: a chunk of rounds, however long they last)."""


_ENGINES: dict[tuple[str, int, str], BatchEngine] = {}
"""The engines made in this process: each once per rules file, player count and name."""


def engine_for(task: ChunkTask, name: str) -> BatchEngine:
    """The fast engine ``name`` for the task's rules file and player count, made once
    per process."""
    key = (task.sha256, task.players, name)
    engine = _ENGINES.get(key)
    if engine is None:
        engine = _ENGINES[key] = make(_spec(task), tables_for(task), name)
    return engine


def seat_kinds(task: ChunkTask) -> tuple[str, ...]:
    """The bot of every seat (a line-up shorter than the table repeats its last bot)."""
    return tuple(per_seat(task.bots, task.players))


def ready(task: ChunkTask, name: str) -> None:
    """Make the fast engine ``name`` here, and for a compiled one play a match on it: a
    process that forks its workers afterwards gives each the engine with its code ready
    (numba's machine code is loaded once, in this process, instead of once per worker).
    An engine that is not compiled has nothing to load: a match played here would only
    delay every worker (15 ms for a numpy match of partnership)."""
    import numpy as np

    engine = engine_for(task, name)
    if backend(name).compiled:
        engine.play_matches(np.random.default_rng(0), 1, seat_kinds(task))


SLICE_ROUNDS = 400
SLICES = 6
"""A fast chunk of matches to a target comes back in about :data:`SLICES` slices of
whole matches, of at least :data:`SLICE_ROUNDS` rounds, so the check can stop close to
the rounds asked for (each slice is counted apart, which costs about half a millisecond).
Matches of a fixed number of rounds are planned exactly and come back whole."""


def run_fast_chunk(task: FastTask) -> list[PlayTally]:
    """Play the task's matches on the fast path and count them, slice by slice."""
    import numpy as np

    c = task.chunk
    line = engine_for(c, task.engine)
    rng = np.random.default_rng([c.seed, c.players, task.index, 0xDEC6])
    kinds = seat_kinds(c)
    # matches of varying length: more follow until the chunk holds ``task.rounds``
    ms = line.play_matches(rng, task.count, kinds, task.per_match, task.rounds)
    m = line.spec.params.match
    if m.end == "rounds" and m.tie != "play_on":  # the chunks hold exactly what is asked
        per = ms.count
    else:  # about SLICES per chunk, of at least SLICE_ROUNDS rounds
        rounds = max(1, len(ms.match_of))
        size = max(SLICE_ROUNDS, rounds // SLICES)
        per = max(1, round(size * ms.count / rounds))
    spec = _spec(c)
    drawable = drawable_tiles(spec, c.players)
    parts = []
    for first in range(0, ms.count, per):
        tally = PlayTally(c.players, line.nsides, c.seconds_per_turn, c.setup_seconds)
        tally.drawable = drawable
        part = ms.slice(first, min(ms.count, first + per))
        count_matches(tally, part, line.side_of)  # the statistics, as the judge's
        count_batch(tally, spec, part)  # the clauses the arrays tell
        parts.append(tally)
    return parts
