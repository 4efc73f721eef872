"""The compiled engine on line games against the numpy engine and the kernel, in one run.

Rounds per second on one core (process CPU time) with random bots, deal + starter +
play + results (hand values, points, winners), for the rules check's line games:
``two-player`` (2), ``card-domino`` (2 and 4) and the two benchmark anchors
(``bench/engine_openspiel.toml``, ``bench/engine_dominoes.toml``):

- compiled: :class:`deckgen.engine.backends.jit_board.JitBoard` (numba; the one
  compiled engine for lines and boards), batches of ``BATCH`` rounds, warmed up first
  (the first call's time, compiling or loading the cached machine code, is printed
  apart);
- numpy: :class:`deckgen.engine.backends.numpy_line.FastLine`, the same batches;
- kernel: :meth:`deckgen.engine.Engine.play_round`, one round at a time.

The machine is shared: each engine runs in ``BENCH_SLICES`` slices (default 3)
interleaved with the others; the rate shown is the best slice's (the median's in
brackets). Goal (issue 12): 1,000,000 rounds/s per core compiled, printed as met /
NOT met per case.

Run: ``.venv/bin/python -m bench bench_jit_line`` (``BENCH_SECONDS``: CPU seconds per
engine and case, default 1.5).
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
GOAL = 1_000_000
BATCH = 10_000
CASES = (
    ("two-player", 2),
    ("card-domino", 2),
    ("card-domino", 4),
    (str(HERE / "engine_openspiel.toml"), 2),
    (str(HERE / "engine_dominoes.toml"), 4),
)


def _label(ref: str) -> str:
    return Path(ref).stem if ref.endswith(".toml") else ref


def _batch_runner(engine: object, players: int, seed: int) -> Callable[[], int]:
    """One batch of deal + starter + play on a FastLine-like engine; returns rounds."""
    import numpy as np

    rng = np.random.default_rng(seed)
    kinds = ("random",) * players
    lead_any = np.zeros(BATCH, dtype=bool)

    def run() -> int:
        deals = engine.deal(rng, BATCH)  # type: ignore[attr-defined]
        starter, lead = engine.first_rule(deals.hands, lead_any=False)  # type: ignore[attr-defined]
        engine.play(deals, starter, lead, lead_any, kinds, rng)  # type: ignore[attr-defined]
        return BATCH

    return run


def _kernel_runner(ref: str, players: int, seed: int) -> Callable[[], int]:
    from deckgen.engine import Engine, make_bots
    from deckgen.rulespec import load_rules

    engine = Engine(load_rules(ref), players)
    bots = make_bots(["random"], players, seed)
    rng = random.Random(seed)
    play = engine.play_round

    def run() -> int:
        for _ in range(500):
            play(rng, bots)
        return 500

    return run


def _slice(run: Callable[[], int], seconds: float) -> float:
    n = 0
    start = time.process_time()
    while True:
        n += run()
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return n / elapsed


def main() -> None:
    sys.path.insert(0, str(REPO))
    from deckgen.engine.backends.jit import HAVE_JIT
    from deckgen.engine.backends.jit_board import JitBoard
    from deckgen.engine.backends.numpy_line import FastLine
    from deckgen.engine.tables import compile_tables
    from deckgen.rulespec import load_rules

    seconds = float(os.environ.get("BENCH_SECONDS", "1.5"))
    slices = int(os.environ.get("BENCH_SLICES", "3"))
    if not HAVE_JIT:
        print("numba is off (DECKGEN_NO_JIT or not installed): 'compiled' runs as Python")
    print(f"goal: compiled >= {GOAL:,} rounds/s per core (deal + play + results, random bots)")
    head = (
        f"{'case':<22} {'compiled':>22} {'numpy':>20} {'kernel':>18} {'x numpy':>8} {'x kernel':>9}"
    )
    print(head)
    verdicts = []
    for ref, n in CASES:
        spec = load_rules(ref)
        t = compile_tables(spec, n)
        compiled = _batch_runner(JitBoard(spec, t), n, 1)
        t0 = time.perf_counter()
        compiled()  # compiles, or loads the cached machine code
        first = time.perf_counter() - t0
        runners = {
            "compiled": compiled,
            "numpy": _batch_runner(FastLine(spec, t), n, 2),
            "kernel": _kernel_runner(ref, n, 3),
        }
        runners["numpy"]()  # warm
        rates: dict[str, list[float]] = {k: [] for k in runners}
        for _ in range(slices):
            for name, run in runners.items():
                rates[name].append(_slice(run, seconds / slices))
        best = {k: max(v) for k, v in rates.items()}
        med = {k: sorted(v)[len(v) // 2] for k, v in rates.items()}
        cells = [f"{best[k]:>10,.0f} ({med[k]:>9,.0f})" for k in runners]
        label = f"{_label(ref)} ({n})"
        x_np = best["compiled"] / best["numpy"]
        x_k = best["compiled"] / best["kernel"]
        print(
            f"{label:<22} {cells[0]:>22} {cells[1]:>20} {cells[2]:>18} {x_np:>7.1f}x {x_k:>8.0f}x"
        )
        print(f"{'':<22} first call {first:.2f} s (compile or cached load)")
        verdicts.append((label, best["compiled"]))
    for label, rate in verdicts:
        mark = "met" if rate >= GOAL else "NOT met"
        print(f"goal {GOAL:,} rounds/s per core, {label}: {rate:,.0f} -> {mark}")


if __name__ == "__main__":
    main()
