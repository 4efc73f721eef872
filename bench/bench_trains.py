"""Mexican Train on the kernel: a 4-player round, and the whole rules check.

(The check itself now plays Mexican Train on the compiled path,
``deckgen/engine/backends/jit_trains.py``; ``bench_jit_trains`` measures that path. This
benchmark keeps the kernel's own cost per turn in view.)

Anchor: double-twelve (``rules/double-twelve.toml``), the other double-12 game, measured
in the same run on the same kernel path. Prints

- rounds per CPU second of a 4-player round with random bots on the kernel (no fast
  back-end plays trains), for Mexican Train and for double-twelve, the ratio, and the
  CPU time per turn (a Mexican Train round has several times the turns);
- the wall-clock time and rounds per second of ``rules check <id> --rounds 20000``
  (all cores) for both files, each on the path the check chooses.

No target yet beyond "no pathology". Run: ``.venv/bin/python -m bench bench_trains``
(``BENCH_SECONDS`` sets the CPU time per kernel measurement, default 3;
``BENCH_CHECK_ROUNDS`` the rounds of the checks, default 20000).
"""

from __future__ import annotations

import os
import random
import time

from deckgen.engine import Engine, make_bots
from deckgen.engine.backends.registry import unsupported
from deckgen.engine.tables import compile_tables
from deckgen.rulecheck.check import CheckOptions, run_check
from deckgen.rulespec import load_rules

FILES = ("mexican-train", "double-twelve")


def kernel_rate(rules_id: str, players: int, seconds: float) -> tuple[float, float]:
    """(rounds per CPU second, turns per round) of first rounds with random bots."""
    spec = load_rules(rules_id)
    engine = Engine(spec, players)
    rounds = turns = 0
    seed = 0
    start = time.process_time()
    while True:
        bots = make_bots(["random"], players, seed)
        r = engine.play_round(random.Random(seed), bots)
        rounds += 1
        turns += r.turns
        seed += 1
        used = time.process_time() - start
        if used >= seconds:
            return rounds / used, turns / rounds


def check_time(rules_id: str, rounds: int) -> tuple[float, int, str]:
    """(wall seconds, rounds played, path) of the whole rules check."""
    spec = load_rules(rules_id)
    start = time.perf_counter()
    result = run_check(spec, CheckOptions(rounds=rounds, seed=1))
    wall = time.perf_counter() - start
    played = sum(run.stats.rounds for run in result.runs)
    n = spec.player_counts[0]
    why = unsupported(spec, compile_tables(spec, n), ("random",) * n)
    return wall, played, "kernel (" + why + ")" if why else "fast"


def main() -> None:
    seconds = float(os.environ.get("BENCH_SECONDS", "3"))
    check_rounds = int(os.environ.get("BENCH_CHECK_ROUNDS", "20000"))
    print("4-player round on the kernel, random bots (rounds per CPU second):")
    rates = {}
    for rid in FILES:
        rate, turns = kernel_rate(rid, 4, seconds)
        rates[rid] = rate
        print(
            f"  {rid:14s} {rate:8.0f} rounds/s  {turns:6.1f} turns a round  "
            f"{1e6 / (rate * turns):6.1f} us a turn"
        )
    print(f"  ratio mexican-train / double-twelve: {rates[FILES[0]] / rates[FILES[1]]:.2f}")
    print(f"rules check --rounds {check_rounds} (all cores, wall clock):")
    for rid in FILES:
        wall, played, path = check_time(rid, check_rounds)
        print(
            f"  {rid:14s} {wall:7.1f} s  {played / wall:9.0f} rounds/s  ({played} rounds; {path})"
        )
