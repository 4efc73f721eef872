"""The compiled board engine against the kernel, in one run.

Anchor: the reference kernel (``Engine.play_round``, random bots), measured in the same
run. For double-twelve (every double across, 91 tiles) at 2 and 4 players and All Fives
(spinner, points during play) at 2 and 4, prints rounds per CPU second (process time,
one core) of

- the compiled engine (:class:`~deckgen.engine.backends.jit_board.JitBoard`): deal, starter
  rule, play and results of batches of 12,500 rounds with random bots, compile time
  excluded (one warm-up batch first);
- the kernel;

with the ratios to the kernel, and the goal of 300,000 rounds/s for double-twelve (issue
12) as "met" or "NOT met". Run: ``.venv/bin/python -m bench bench_jit_board``
(``BENCH_SECONDS`` sets the CPU time per measurement, default 2).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable

import numpy as np

from deckgen.engine import Engine, make_bots
from deckgen.engine.backends.jit import HAVE_JIT
from deckgen.engine.backends.jit_board import JitBoard
from deckgen.engine.tables import compile_tables
from deckgen.rulespec import load_rules

CASES = (("double-twelve", 2), ("double-twelve", 4), ("all-fives", 2), ("all-fives", 4))
GOAL = 300_000
"""Rounds per second per core for double-twelve (issue 12)."""
BATCH = 12_500
"""Rounds per batch, as the check's fast chunks."""


def _rate(step: Callable[[], int], seconds: float) -> float:
    """Rounds per CPU second of ``step`` (which plays some rounds and says how many)."""
    step()  # warm-up: compile, caches
    rounds = 0
    start = time.process_time()
    while True:
        rounds += step()
        used = time.process_time() - start
        if used >= seconds:
            return rounds / used


def batch_rate(engine: JitBoard, seconds: float) -> float:
    """Rounds per CPU second of whole batches: deal, starter, play, results."""
    n = engine.n
    rng = np.random.default_rng(12)
    kinds = ("random",) * n
    lead_any = np.zeros(BATCH, dtype=bool)

    def step() -> int:
        deals = engine.deal(rng, BATCH)
        starter, lead = engine.first_rule(deals.hands, lead_any=False)
        engine.play(deals, starter, lead, lead_any, kinds, rng)
        return BATCH

    return _rate(step, seconds)


def kernel_rate(rules_id: str, players: int, seconds: float) -> float:
    """Rounds per CPU second of first rounds with random bots on the kernel."""
    engine = Engine(load_rules(rules_id), players)
    seed = [0]

    def step() -> int:
        for _ in range(20):
            s = seed[0] = seed[0] + 1
            engine.play_round(random.Random(s), make_bots(["random"], players, s))
        return 20

    return _rate(step, seconds)


def main() -> None:
    seconds = float(os.environ.get("BENCH_SECONDS", "2"))
    if not HAVE_JIT:
        print("numba is missing or switched off (DECKGEN_NO_JIT): no compiled engine to measure")
    print("rounds per CPU second, random bots (deal + play + results):")
    print(f"  {'case':18s} {'compiled':>10s} {'kernel':>8s}  compiled/kernel")
    for rid, n in CASES:
        spec = load_rules(rid)
        tables = compile_tables(spec, n)
        kernel = kernel_rate(rid, n, seconds)
        compiled = float("nan")
        if HAVE_JIT:
            compiled = batch_rate(JitBoard(spec, tables), seconds)
        verdict = ""
        if rid == "double-twelve":
            verdict = f"  goal {GOAL:,}: " + ("met" if compiled >= GOAL else "NOT met")
        print(
            f"  {rid + f' ({n}p)':18s} {compiled:10,.0f} {kernel:8,.0f}"
            f"  {compiled / kernel:8.0f}x{verdict}"
        )
