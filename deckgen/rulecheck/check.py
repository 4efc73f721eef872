"""Running the rules check: plan the chunks, play them on all cores, merge in order.

Takes a :class:`~deckgen.rulespec.RuleSpec` and :class:`CheckOptions`; gives a
:class:`CheckResult`: per player count and bot line-up a :class:`Run` with the
statistics (from the fast path where it applies, else from the reference engine) and
the reference engine's judgement (invariants, clause coverage, gaps). Progress goes to
a :class:`~deckgen.progress.Reporter`.

Results never depend on the number of workers: every chunk is seeded from its own
index, and chunks are merged in index order (the reference engine's run is the
shortest prefix of chunks that reaches the requested number of rounds).
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

from deckgen.engine import make_bots
from deckgen.engine.backends.registry import choose, unsupported
from deckgen.errors import InputError
from deckgen.progress import CollectingReporter, Reporter
from deckgen.rulecheck.chunks import ChunkTask, remember, run_chunk, tables_for
from deckgen.rulecheck.decisions import DecisionCount
from deckgen.rulecheck.fastmatch import FastTask, ready, run_fast_chunk
from deckgen.rulecheck.feasibility import feasibility
from deckgen.rulecheck.statics import spec_findings
from deckgen.rulecheck.tally import (
    DEFAULT_SECONDS_PER_TURN,
    DEFAULT_SETUP_SECONDS_PER_ROUND,
    PlayTally,
    merged,
)
from deckgen.rulespec import RuleSpec
from deckgen.startup import working

CHUNK_ROUNDS = 1000
"""Rounds per chunk of the reference engine (about 0.1 s of work)."""
PILOT_SLACK = 1.15
"""A fast chunk of matches to a target starts this many times fewer matches than the
pilot's rounds a match call for (its few matches may put a match a tenth too short);
more follow at the length the first ones showed, until the chunk holds its rounds
(:func:`~deckgen.engine.backends.matches.play_matches`)."""
HANDOVER_SECONDS = 0.0002
"""How long this process's other threads wait at most for their turn while a check
runs (Python switches threads every 5 ms unless told otherwise; see
:func:`_prompt_handover`)."""
FAST_CHUNK_ROUNDS = 15_000
"""Rounds per chunk of the fast path, at most (:func:`fast_chunk_rounds`)."""
PILOT_MATCHES = 16
"""At most this many matches in chunk 0, which tells how long a match lasts."""
JUDGE_SHARE = 500
"""With the fast path, the reference engine judges one round in this many ..."""
JUDGE_MIN = 1000
"""... and at least this many rounds (all of them when fewer are asked for) ..."""
JUDGE_MIN_TURNS = 20_000
"""... or this many turns, when that is fewer rounds (Mexican Train: about 200)."""
INVARIANT_MIN = 400
"""The engine's invariant checks (and the decision counts) run on a tenth of the
judge's rounds, at least this many ..."""
INVARIANT_MIN_TURNS = 8_000
"""... or this many turns, when that is fewer rounds (400 rounds of a line game are
about 8,000 turns; Mexican Train: about 80 rounds)."""
MAX_ROUNDS = 10_000_000


@dataclass(frozen=True)
class CheckOptions:
    """What to play. ``bots`` lists line-ups: a bot name for every seat (``random``), or
    names per seat joined by ``+`` (``smart+random``: seat 0 smart, the rest random)."""

    rounds: int = 100_000
    players: tuple[int, ...] | None = None
    bots: tuple[str, ...] = ("random",)
    seed: int = 0
    workers: int | None = None
    fast: bool = True
    seconds_per_turn: float = DEFAULT_SECONDS_PER_TURN
    setup_seconds: float = DEFAULT_SETUP_SECONDS_PER_ROUND
    judge_rounds: int | None = None
    """Rounds the reference engine plays when the fast path gives the statistics
    (default: :func:`judge_default`: a 500th of ``rounds``, at least 1,000 rounds
    or 20,000 turns)."""
    invariant_rounds: int | None = None
    """Rounds played with the engine's invariant checks on (default: a tenth of the
    reference engine's rounds, at least :data:`INVARIANT_MIN`; 0: none)."""


@dataclass
class Run:
    """One player count with one bot line-up."""

    players: int
    lineup: str
    bots: tuple[str, ...]
    stats: PlayTally
    judge: PlayTally
    path: str
    """``fast`` (numpy batches gave the statistics) or ``reference``."""
    why_not_fast: str | None
    seed: int
    decisions: DecisionCount | None = None
    """Decision moves and branching factor, from the judge's rounds with invariant
    checks."""


@dataclass
class CheckResult:
    spec: RuleSpec
    options: CheckOptions
    runs: list[Run]
    feasibility: dict[int, dict[str, Any]]
    workers: int
    seconds: float
    extra: dict[str, Any] = field(default_factory=dict)
    said_before: list[dict[str, Any]] | None = None
    """What the file says before any play (:func:`~deckgen.rulecheck.statics.spec_findings`),
    found while the workers played the first chunks."""


def parse_lineup(text: str, players: int) -> tuple[str, ...]:
    """Bot names per seat from ``random`` or ``smart+random`` (validated)."""
    names = tuple(part.strip().lower() for part in text.split("+") if part.strip())
    make_bots(list(names), players, 0)  # raises InputError for an unknown name
    if not names:
        raise InputError("an empty bot line-up", where="option --bots", fix="e.g. --bots random")
    return names


def _validate(spec: RuleSpec, opts: CheckOptions) -> list[int]:
    if not 1 <= opts.rounds <= MAX_ROUNDS:
        raise InputError(
            f"--rounds {opts.rounds} is out of range",
            where="option --rounds",
            fix=f"use 1 to {MAX_ROUNDS:,}",
        )
    if opts.seed < 0 or opts.seed >= 2**40:
        raise InputError("the seed is out of range", where="option --seed", fix="use 0 to 2^40")
    if opts.workers is not None and not 1 <= opts.workers <= 256:
        raise InputError("--workers must be 1 to 256", where="option --workers")
    counts = list(opts.players) if opts.players else spec.player_counts
    for n in counts:
        spec.hand_size(n)  # InputError naming the allowed counts
    if not opts.bots:
        raise InputError("no bots given", where="option --bots", fix="e.g. --bots random")
    return counts


class _InProcess(Executor):
    """Runs tasks at once in this process (``--workers 1``)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        f: Future[Any] = Future()
        try:
            f.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # pragma: no cover - passed on to the caller
            f.set_exception(exc)
        return f


@contextmanager
def _prompt_handover() -> Iterator[None]:
    """The pool's threads in this process (they hand chunks to the workers and take
    their results) get their turn within 0.2 ms instead of Python's 5 ms while this
    thread plans or reads: a worker that is waiting for its next chunk waits no longer."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(min(before, HANDOVER_SECONDS))
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def _executor(workers: int, beside: bool = False) -> Executor:
    """``workers`` processes (this one alone for 1, unless the pool works ``beside`` it)."""
    if workers <= 1 and not beside:
        return _InProcess()
    import multiprocessing

    from deckgen.workers import WorkerPool

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    return WorkerPool(workers, multiprocessing.get_context(method))


@dataclass
class _Plan:
    """The chunks of one run and what has come back."""

    key: int
    players: int
    lineup: str
    bots: tuple[str, ...]
    base: ChunkTask
    why_not_fast: str | None
    ref_budget: int
    inv_budget: int
    engine: str = ""
    """The fast engine that plays the run (its registry name), when one does."""
    pilot: int = 1
    """Matches in the pilot chunk (chunk 0), fixed when the plan is made."""
    sized: bool = False
    """The judge's budget may still be sized by the pilot's turns per round."""
    fast_tasks: list[FastTask] = field(default_factory=list)
    ref_tasks: list[ChunkTask] = field(default_factory=list)
    ref_done: dict[int, PlayTally] = field(default_factory=dict)
    fast_done: dict[int, list[PlayTally]] = field(default_factory=dict)
    """Each fast chunk comes back in slices of a few hundred rounds (whole matches)."""
    chunk_matches: int = 1
    est_rounds: float = 1.0
    fast_size: int = 1
    fast_budget: int = 0
    shown: dict[str, int] = field(default_factory=dict)
    """Rounds shown on the progress bar so far, by kind (capped at each budget)."""


def judge_default(rounds: int, turns_per_round: float | None = None) -> int:
    """Rounds the reference engine plays as the judge beside the fast path: a
    500th of the rounds, at least :data:`JUDGE_MIN` rounds or
    :data:`JUDGE_MIN_TURNS` turns, whichever is fewer (``turns_per_round``: as the
    pilot chunk played them), so a game of long rounds is judged on as many turns as
    one of short rounds. The fast path counts every clause it can over all rounds
    (:mod:`~deckgen.rulecheck.batchcount`); the judge adds invariants, the other
    clauses, gaps and example records."""
    floor = JUDGE_MIN
    if turns_per_round:
        floor = min(JUDGE_MIN, max(1, math.ceil(JUDGE_MIN_TURNS / turns_per_round)))
    return max(floor, rounds // JUDGE_SHARE)


def invariant_default(budget: int, turns_per_round: float | None = None) -> int:
    """Judge's rounds played with invariant checks: a tenth, at least
    :data:`INVARIANT_MIN` rounds or :data:`INVARIANT_MIN_TURNS` turns, whichever is
    fewer (``turns_per_round``: as the pilot chunk played them; the checks run after
    every turn, so a game of long rounds is checked on as many turns as one of short
    rounds), all of them when the judge plays fewer."""
    floor = INVARIANT_MIN
    if turns_per_round:
        floor = min(INVARIANT_MIN, max(1, math.ceil(INVARIANT_MIN_TURNS / turns_per_round)))
    return min(budget, max(floor, budget // 10))


def fast_chunk_rounds(rounds: int) -> int:
    """Rounds per fast chunk: the rounds split into the fewest pairs of equal chunks of
    at most :data:`FAST_CHUNK_ROUNDS` (30,000 rounds: two of 15,000; 100,000: eight of
    12,500), at least 2,500. Large batches: numpy plays one of 15,000 rounds of
    partnership at 1.2 times the rate of one of 7,500, and 1.6 times that of 3,750; an
    even number of equal chunks: two or four workers share them evenly. A function of
    the rounds alone: the same seed gives the same report on any number of workers."""
    pairs = math.ceil(rounds / (2 * FAST_CHUNK_ROUNDS))
    return max(2500, math.ceil(rounds / (2 * pairs)))


def pilot_matches(budget: int) -> int:
    """Matches in chunk 0: a few, fewer for a small budget (a match may be long)."""
    return max(1, min(PILOT_MATCHES, budget // 100))


def _ref_task(plan: _Plan, index: int) -> ChunkTask:
    """Reference chunk ``index`` (0 is the pilot). Beside the fast path the pilot only
    sizes the rest, and every worker waits for it: it plays without the invariant checks
    (they cost about ten times the play), which run on the chunks after it."""
    b = plan.base
    pilot = plan.pilot
    if index == 0:
        first, count = 0, pilot
    else:
        first = pilot + (index - 1) * plan.chunk_matches
        count = plan.chunk_matches
    checked_chunks = (
        max(1, math.ceil(plan.inv_budget / max(1.0, plan.chunk_matches * plan.est_rounds)))
        if plan.inv_budget
        else -1  # none asked for
    )
    return ChunkTask(
        b.raw, b.path, b.sha256, b.players, b.bots, b.seed, first, count,
        index <= checked_chunks and (index > 0 or plan.why_not_fast is not None),
        b.seconds_per_turn, b.setup_seconds,
    )  # fmt: skip


def _prefix(
    done: dict[int, PlayTally] | dict[int, list[PlayTally]], budget: int, partial: bool = False
) -> tuple[PlayTally | None, int]:
    """The merged shortest prefix of chunks (or chunk slices) reaching ``budget``
    rounds, or None and the index of the next chunk needed (``partial``: every chunk
    done, merged, when they fall short)."""
    total: PlayTally | None = None
    i = 0
    while i in done:
        got = done[i]
        for part in got if isinstance(got, list) else [got]:
            if total is None:
                total = PlayTally(
                    part.players, part.sides, part.seconds_per_turn, part.setup_seconds
                )
            total.merge(part)
            if total.rounds >= budget:
                return total, -1
        i += 1
    return (total if partial else None), i


MAX_EXTRA_CHUNKS = 100
"""Chunks played beyond those planned before the check stops waiting for rounds."""


def _stalled(done: dict[int, PlayTally] | dict[int, list[PlayTally]], nxt: int, extra: int) -> bool:
    """Whether asking for more chunks is pointless: the last one played no round at all
    (every match failed: the failures are reported), or ``extra`` chunks beyond those
    planned were played already."""
    if extra >= MAX_EXTRA_CHUNKS:
        return True
    last = done.get(nxt - 1)
    if last is None:
        return False
    return sum(p.rounds for p in (last if isinstance(last, list) else [last])) == 0


def _submit_fast(
    pool: Executor, plans: Sequence[_Plan], pending: dict[Future[Any], tuple[_Plan, str, int]]
) -> None:
    """Hand ``pool`` the planned fast chunks of ``plans``."""
    for plan in plans:
        for i, ft in enumerate(plan.fast_tasks):
            pending[pool.submit(run_fast_chunk, ft)] = (plan, "fast", i)


def run_check(
    spec: RuleSpec,
    options: CheckOptions | None = None,
    *,
    reporter: Reporter | None = None,
) -> CheckResult:
    """Play the rules file out as ``options`` say and gather everything the report needs."""
    opts = options or CheckOptions()
    reporter = reporter or CollectingReporter()
    counts = _validate(spec, opts)
    workers = opts.workers or os.cpu_count() or 1
    started = time.perf_counter()
    plans: list[_Plan] = []
    remember(spec)  # validated once: the workers (forked) and chunks take it as it is
    for n in counts:
        for lineup in opts.bots:
            bots = parse_lineup(lineup, n)
            base = ChunkTask(
                spec.raw, str(spec.path) if spec.path else None, spec.sha256, n, bots,
                opts.seed + 7919 * len(plans), 0, 0, False, opts.seconds_per_turn,
                opts.setup_seconds,
            )  # fmt: skip
            tables = tables_for(base)  # compiled once, here, before the workers fork
            why = unsupported(spec, tables, bots) if opts.fast else "the fast path was switched off"
            budget = opts.rounds
            if why is None:
                sample = opts.judge_rounds or min(opts.rounds, judge_default(opts.rounds))
                if sample < opts.rounds:
                    budget = sample
                else:
                    why = "the reference engine plays every round anyway"
            inv = opts.invariant_rounds
            if inv is None:
                inv = invariant_default(budget)
            plan = _Plan(len(plans), n, lineup, bots, base, why, budget, min(inv, budget))
            plan.pilot = pilot_matches(budget)
            plan.sized = why is None and opts.judge_rounds is None
            plans.append(plan)
    feas = {n: feasibility(spec, n) for n in counts}
    # both paths count their matches as arrays (tally.count_matches): numpy is imported
    # once, here, not once per forked worker
    import numpy.random  # noqa: F401

    fast_rounds = opts.rounds * sum(1 for p in plans if p.why_not_fast is None)
    late: dict[str, _Plan] = {}
    """Compiled engines, by name: with a second core, loaded while the judge plays."""
    for plan in plans:  # numba's start (about 0.4 s) pays off from a few 10,000 rounds
        if plan.why_not_fast is None:
            chosen = choose(spec, tables_for(plan.base), plan.bots, fast_rounds // max(1, workers))
            assert chosen is not None
            plan.engine = chosen.name
            if chosen.compiled and workers > 1:
                late.setdefault(chosen.name, plan)
    readied: set[str] = set(late)
    for plan in plans:  # an engine that starts at once: made before the workers fork
        if plan.why_not_fast is None and plan.engine not in readied:
            readied.add(plan.engine)
            ready(plan.base, plan.engine)  # its machine code serves every player count
    m = spec.params.match
    fixed = m.end == "rounds" and m.tie != "play_on"  # exactly the rounds asked for
    working()  # the command line's start-up ends here (deckgen.startup), before any fork
    with ExitStack() as stack:
        stack.enter_context(_prompt_handover())
        # With a compiled engine to load, the judge starts on the other cores at once,
        # while this process loads numba; the fast path's workers fork afterwards
        # (they inherit the machine code) and take half the judge's chunks not begun.
        judge_first = _executor(workers - 1, beside=True) if late else _executor(workers)
        pool = stack.enter_context(judge_first)
        # the pilot chunks first (they size the others)
        pilots = [pool.submit(run_chunk, _ref_task(plan, 0)) for plan in plans]
        pending: dict[Future[Any], tuple[_Plan, str, int]] = {}
        for plan in plans:
            if plan.why_not_fast is None and fixed:
                per_match = m.rounds or 1
                matches = math.ceil(opts.rounds / per_match)
                chunks = math.ceil(opts.rounds / fast_chunk_rounds(opts.rounds))
                plan.fast_size = max(1, math.ceil(matches / chunks))  # equal chunks
                for i, first in enumerate(range(0, matches, plan.fast_size)):
                    count = min(plan.fast_size, matches - first)
                    plan.fast_tasks.append(FastTask(plan.base, i, count, plan.engine))
        # a fixed length needs no sizing: no worker waits
        _submit_fast(pool, [p for p in plans if p.engine not in late], pending)
        # this process has nothing to do until the pilots come back: it reads the file
        said_before = spec_findings(spec)
        for plan, pilot_future in zip(plans, pilots, strict=True):
            pilot = pilot_future.result()
            plan.ref_done[0] = pilot
            if plan.sized and pilot.rounds:  # long rounds: judged on turns, not rounds
                plan.ref_budget = min(plan.ref_budget, judge_default(opts.rounds, pilot.turns.mean))
                if opts.invariant_rounds is None:
                    plan.inv_budget = invariant_default(plan.ref_budget, pilot.turns.mean)
                plan.inv_budget = min(plan.inv_budget, plan.ref_budget)
                # the invariant checks begin after the pilot
                plan.ref_budget = max(plan.ref_budget, pilot.rounds + plan.inv_budget)
            per = spec.params.match.rounds if spec.params.match.end == "rounds" else None
            plan.est_rounds = float(per) if per else max(1.0, pilot.rounds / max(1, pilot.matches))
            chunk_rounds = min(CHUNK_ROUNDS, max(100, plan.ref_budget // 8))
            plan.chunk_matches = max(1, round(chunk_rounds / plan.est_rounds))
            missing = max(0, plan.ref_budget - pilot.rounds)
            chunks = math.ceil(missing / (plan.chunk_matches * plan.est_rounds) * 1.1)
            plan.ref_tasks = [_ref_task(plan, i) for i in range(1, chunks + 1)]
            if plan.why_not_fast is None and not fixed:
                # matches of varying length: enough chunks, the prefix is kept; smaller
                # chunks for small runs: the kept prefix overshoots less
                chunk_rounds = fast_chunk_rounds(opts.rounds)
                plan.fast_size = max(1, round(chunk_rounds / plan.est_rounds / PILOT_SLACK))
                chunks = math.ceil(opts.rounds / chunk_rounds)
                plan.fast_tasks = [
                    FastTask(
                        plan.base, i, plan.fast_size, plan.engine, plan.est_rounds, chunk_rounds
                    )
                    for i in range(chunks)
                ]
                if plan.engine not in late:
                    _submit_fast(pool, [plan], pending)
        total = sum(p.ref_budget + (opts.rounds if p.why_not_fast is None else 0) for p in plans)
        reporter.start(f"checking {spec.id}", total)
        for plan in plans:
            plan.shown["ref"] = min(plan.ref_budget, plan.ref_done[0].rounds)
            plan.fast_budget = opts.rounds if plan.why_not_fast is None else 0
        reporter.advance(sum(p.shown["ref"] for p in plans))
        for plan in plans:
            for i, rt in enumerate(plan.ref_tasks, start=1):
                pending[pool.submit(run_chunk, rt)] = (plan, "ref", i)
        if late:
            for name, plan in late.items():
                ready(plan.base, name)  # numba and the machine code, while the judge plays
            pool = stack.enter_context(_executor(workers))
            _submit_fast(pool, [p for p in plans if p.engine in late], pending)
            _share(pending, pool)
        _collect(pending, reporter)
        for plan in plans:  # rarely, the planned chunks fell short of the budget
            for extra in range(MAX_EXTRA_CHUNKS + 1):
                enough, nxt = _prefix(plan.ref_done, plan.ref_budget)
                if enough is not None or _stalled(plan.ref_done, nxt, extra):
                    break
                more = {pool.submit(run_chunk, _ref_task(plan, nxt)): (plan, "ref", nxt)}
                _collect(more, reporter)
            for extra in range(MAX_EXTRA_CHUNKS + 1):
                if plan.why_not_fast is not None:
                    break
                enough, nxt = _prefix(plan.fast_done, opts.rounds)
                if enough is not None or _stalled(plan.fast_done, nxt, extra):
                    break
                last = plan.fast_tasks[-1]
                task = FastTask(
                    plan.base, nxt, plan.fast_size, plan.engine, last.per_match, last.rounds
                )
                _collect({pool.submit(run_fast_chunk, task): (plan, "fast", nxt)}, reporter)
        reporter.finish()

    runs = []
    for plan in plans:
        judge, _ = _prefix(plan.ref_done, plan.ref_budget, partial=True)
        assert judge is not None
        if plan.why_not_fast is None:
            fast, _ = _prefix(plan.fast_done, opts.rounds, partial=True)
            assert fast is not None
            stats, path = fast, "fast"
        else:
            stats, path = judge, "reference"
        runs.append(
            Run(plan.players, plan.lineup, plan.bots, stats, judge, path, plan.why_not_fast,
                plan.base.seed, judge.decisions)
        )  # fmt: skip
    return CheckResult(
        spec, opts, runs, feas, workers, time.perf_counter() - started, said_before=said_before
    )


def _share(pending: dict[Future[Any], tuple[_Plan, str, int]], pool: Executor) -> int:
    """Move every second judge's chunk that no worker has begun to ``pool`` (the fast
    path's workers, forked after the judge's: they take them after their own); gives
    how many moved."""
    waiting = [f for f, (_, kind, _) in pending.items() if kind == "ref" and not f.running()]
    moved = 0
    for fut in waiting[1::2]:
        if fut.cancel():
            plan, kind, index = pending.pop(fut)
            pending[pool.submit(run_chunk, plan.ref_tasks[index - 1])] = (plan, kind, index)
            moved += 1
    return moved


def _collect(
    pending: dict[Future[Any], tuple[_Plan, str, int]],
    reporter: Reporter,
) -> None:
    from concurrent.futures import as_completed

    for fut in as_completed(pending):
        plan, kind, index = pending[fut]
        got = fut.result()
        part = merged(got) if isinstance(got, list) else got
        if kind == "fast":
            plan.fast_done[index] = got
            budget = plan.fast_budget
        else:
            plan.ref_done[index] = part
            budget = plan.ref_budget
        shown = plan.shown.get(kind, 0)
        step = max(0, min(part.rounds, budget - shown))
        plan.shown[kind] = shown + step
        if step:
            reporter.advance(step)


def lineup_label(bots: Sequence[str]) -> str:
    """``random`` for one name, ``smart+random`` for several."""
    return "+".join(bots)
