"""Speed of the rules check: the fast path against the reference engine, and the whole check.

Anchor: the reference engine (``deckgen.engine``), measured in the same run. For every
bundled rules file and player count it measures rounds per second on one core (process
CPU time, random bots, whole matches as the check plays them) for

- the reference engine (``deckgen.rulecheck.chunks.run_chunk``, invariants off), and
- the fast path (``deckgen.rulecheck.fastmatch.run_fast_chunk``, on the engine the
  registry chooses for a large run) where it applies,

and prints the ratio. Then it times the whole ``deckgen rules check <id> --rounds
100000 --quiet`` of every bundled file as a user runs it (a new process, all cores, the
median of three runs; goal: at least 100,000 rounds per second of wall time, rounds
counted per player count), and the seed-002 variant (``rules/two-player.toml``) with one
worker and with the fast path switched off.

Run: ``.venv/bin/python -m bench bench_check`` (``BENCH_SECONDS`` sets the time per
measurement, default 2).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time

from deckgen.engine.backends.registry import choose, unsupported
from deckgen.engine.tables import compile_tables
from deckgen.rulecheck.check import CheckOptions, run_check
from deckgen.rulecheck.chunks import ChunkTask, run_chunk
from deckgen.rulecheck.fastmatch import FastTask, run_fast_chunk
from deckgen.rulespec import RuleSpec, list_rules, load_rules

GOAL_ROUNDS = 100_000
GOAL_RATE = 100_000
"""Whole check: rounds (per player count) per second of wall time, every bundled file."""
SMALL_ROUNDS = 30_000
"""A small check (issue 25): dominated by its start (imports, the pilot, the judge)."""
SMALL_RUNS = 7
"""Runs of each small check without the confirmation, the median shown: one run's wall
time moves by 10 % on a shared 2-core machine, as much as a file's margin to the goal."""


def _task(spec: RuleSpec, n: int, first: int, count: int) -> ChunkTask:
    return ChunkTask(
        spec.raw, str(spec.path), spec.sha256, n, ("random",), 1, first, count, False, 10.0, 60.0
    )


def reference_rate(spec: RuleSpec, n: int, seconds: float) -> float:
    """Rounds per CPU second of the reference engine, whole matches."""
    rounds = 0
    k = 0
    start = time.process_time()
    while True:
        rounds += run_chunk(_task(spec, n, k, 20)).rounds
        k += 20
        used = time.process_time() - start
        if used >= seconds:
            return rounds / used


def fast_rate(spec: RuleSpec, n: int, seconds: float) -> float:
    """Rounds per CPU second of the fast path (chunks as the check sizes them)."""
    chosen = choose(spec, compile_tables(spec, n), ("random",) * n, 1 << 62)  # a large run
    assert chosen is not None
    engine = chosen.name
    warm = run_fast_chunk(FastTask(_task(spec, n, 0, 0), 0, 50, engine))  # imports, numba
    per = sum(p.rounds for p in warm) / 50  # rounds a match
    size = max(1, round(12_500 / per))
    rounds = 0
    i = 1
    start = time.process_time()
    while True:
        task = FastTask(_task(spec, n, 0, 0), i, size, engine, per_match=per)
        rounds += sum(p.rounds for p in run_fast_chunk(task))
        i += 1
        used = time.process_time() - start
        if used >= seconds:
            return rounds / used


def cli_check(
    rules_id: str, runs: int = 3, rounds: int = GOAL_ROUNDS, extra: tuple[str, ...] = ()
) -> float:
    """Median wall seconds of ``deckgen rules check <id> --rounds 100000 --quiet`` as a
    new process (Python's start and imports included, as a user waits for them)."""
    return cli_check_cpu(rules_id, runs, rounds, extra)[0]


def cli_check_cpu(
    rules_id: str, runs: int = 3, rounds: int = GOAL_ROUNDS, extra: tuple[str, ...] = ()
) -> tuple[float, float]:
    """Median wall seconds and CPU seconds (user and system, the process and its
    workers) of ``deckgen rules check <id> --rounds <rounds> --quiet <extra>``."""
    command = [sys.executable, "-m", "deckgen", "rules", "check", rules_id]
    command += ["--rounds", str(rounds), "--quiet", *extra]
    times, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        if done.returncode in (1, 2) or done.returncode < 0:  # an error, not a verdict
            raise SystemExit(f"rules check {rules_id} failed: {done.stderr.decode()[-400:]}")
    return statistics.median(times), statistics.median(cpus)


def whole_check(workers: int | None, fast: bool, rounds: int = GOAL_ROUNDS) -> tuple[float, int]:
    """Wall seconds and rounds of ``rules check two-player``."""
    spec = load_rules("two-player")
    start = time.perf_counter()
    result = run_check(spec, CheckOptions(rounds=rounds, workers=workers, fast=fast))
    return time.perf_counter() - start, result.runs[0].stats.rounds


def main() -> None:
    seconds = float(os.environ.get("BENCH_SECONDS", "2"))
    cores = os.cpu_count() or 1
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"rounds per second on one core, random bots ({cores} cores here, load {load:.1f})")
    print(f"{'rules':<16}{'n':>3}{'reference':>12}{'fast path':>12}{'ratio':>8}")
    for spec in list_rules():
        for n in spec.player_counts:
            ref = reference_rate(spec, n, seconds)
            why = unsupported(spec, compile_tables(spec, n), ("random",) * n)
            if why is None:
                fast = fast_rate(spec, n, seconds)
                print(f"{spec.id:<16}{n:>3}{ref:>12,.0f}{fast:>12,.0f}{fast / ref:>7.1f}x")
            else:
                print(f"{spec.id:<16}{n:>3}{ref:>12,.0f}{'-':>12}{'-':>8}  ({why})")
    print()
    print(
        f"whole check, deckgen rules check <id> --rounds {GOAL_ROUNDS:,} --quiet, {cores} "
        f"cores, median of 3 (goal: {GOAL_RATE:,} rounds/s of wall time)"
    )
    print(f"{'rules':<16}{'counts':>7}{'wall s':>9}{'rounds/s':>12}")
    for spec in list_rules():
        counts = len(spec.player_counts)
        wall_cli = cli_check(spec.id)
        rate = counts * GOAL_ROUNDS / wall_cli
        verdict = "meets" if rate >= GOAL_RATE else "misses"
        print(f"{spec.id:<16}{counts:>7}{wall_cli:>9.2f}{rate:>12,.0f}  {verdict} the goal")
    print()
    print(
        f"small checks, --rounds {SMALL_ROUNDS:,}, with the confirmation by smart bots (one "
        f"run) and without (--no-confirm, median of {SMALL_RUNS}; goal: 100,000 rounds/s of "
        "wall time); "
        "wall and CPU seconds (user+sys, workers in)"
    )
    print(f"{'rules':<16}{'wall s':>8}{'cpu s':>7}{'rounds/s':>10}  |{'wall s':>8}{'cpu s':>7}")
    for spec in list_rules():
        counts = len(spec.player_counts)
        wall_c, cpu_c = cli_check_cpu(spec.id, 1, SMALL_ROUNDS)
        wall_n, cpu_n = cli_check_cpu(spec.id, SMALL_RUNS, SMALL_ROUNDS, ("--no-confirm",))
        rate = counts * SMALL_ROUNDS / wall_n
        verdict = "meets" if rate >= GOAL_RATE else "misses"
        print(
            f"{spec.id:<16}{wall_c:>8.2f}{cpu_c:>7.2f}{counts * SMALL_ROUNDS / wall_c:>10,.0f}"
            f"  |{wall_n:>8.2f}{cpu_n:>7.2f}{rate:>10,.0f}  {verdict} the goal"
        )
    print()
    print(f"whole check of two-player, {GOAL_ROUNDS:,} rounds, in this process, wall clock:")
    wall, rounds = whole_check(None, True)
    print(f"  all cores, fast path:   {wall:6.2f} s ({rounds / wall:,.0f} rounds/s)")
    wall1, _ = whole_check(1, True)
    print(f"  one worker, fast path:  {wall1:6.2f} s ({wall1 / wall:.1f}x the all-core time)")
    small = 20_000
    wall_ref, r = whole_check(None, False, small)
    est = wall_ref * GOAL_ROUNDS / r
    print(
        f"  all cores, reference:   {wall_ref:6.2f} s for {r:,} rounds "
        f"(~{est:.1f} s for {GOAL_ROUNDS:,}; the fast path is {est / wall:.1f}x faster)"
    )


if __name__ == "__main__":
    main()
