"""Engine speed against two anchor engines, and their random-play statistics compared.

Measures rounds per second (one core, process CPU time) with random bots for:

- the seed-002 variant (``rules/two-player.toml``);
- ``bench/engine_openspiel.toml``: OpenSpiel's ``python_block_dominoes`` rebuilt as a
  rules file (2 players, 7 each, no stock, seat 0 leads any tile);
- ``bench/engine_dominoes.toml``: PyPI ``dominoes`` 6.1.0's game (4 players in
  partnerships, all 28 dealt, seat 0 leads any tile);

and runs the anchors themselves in the same run, inside a separate venv
(``bench/.venv-anchors``, git-ignored; created here on first use with
``dominoes==6.1.0`` and ``open_spiel``: never project dependencies). Prints the ratios
(goal: 30x OpenSpiel, 10x dominoes) and compares wins by seat, blocked rate and tiles
played: independent engines must agree within sampling error (|z| < 3).

The machine is shared, so its load changes during a run: every engine runs in
``BENCH_SLICES`` slices (default 5) interleaved with the others, and the rate shown is
the best slice's (the median slice's in brackets), the same rule for every engine; the
statistics pool all slices.

Run: ``.venv/bin/python -m bench bench_engine`` (``BENCH_SECONDS`` sets the CPU time
per engine, default 5).
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
ANCHOR_VENV = HERE / ".venv-anchors"
ANCHOR_PY = ANCHOR_VENV / "bin" / "python"
GOALS = {"openspiel": 30.0, "dominoes": 10.0}


def ensure_anchor_venv() -> dict[str, str]:
    """Create the anchor venv if needed; return {anchor: problem} for what is missing."""
    problems: dict[str, str] = {}
    if not ANCHOR_PY.exists():
        subprocess.run([sys.executable, "-m", "venv", str(ANCHOR_VENV)], check=True)
    for anchor, module, spec in (
        ("dominoes", "dominoes", "dominoes==6.1.0"),
        ("openspiel", "pyspiel", "open_spiel"),
    ):
        probe = subprocess.run([str(ANCHOR_PY), "-c", f"import {module}"], capture_output=True)
        if probe.returncode == 0:
            continue
        inst = subprocess.run(
            [str(ANCHOR_PY), "-m", "pip", "install", "--quiet", spec],
            capture_output=True,
            text=True,
        )
        if inst.returncode != 0:
            problems[anchor] = f"pip install {spec} failed: {inst.stderr.strip()[-300:]}"
    return problems


def run_anchors(seconds: float, seed: int) -> dict[str, Any]:
    proc = subprocess.run(
        [str(ANCHOR_PY), str(HERE / "engine_anchors.py"), str(seconds), str(seed)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def run_ours(ref: str, players: int, seconds: float, seed: int) -> dict[str, Any]:
    """Random-bot rounds of one rules file for ``seconds`` of CPU time, with statistics."""
    sys.path.insert(0, str(REPO))
    from deckgen.engine import END_BLOCKED, END_OUT, Engine, make_bots
    from deckgen.rulespec import load_rules

    spec = load_rules(ref)
    engine = Engine(spec, players)
    bots = make_bots(["random"], players, seed)
    rng = random.Random(seed)
    sides = len(engine.t.sides)
    wins = [0] * sides
    out_by_seat = [0] * players
    n = blocked = tiles = tiles_sq = 0
    play = engine.play_round
    start = time.process_time()
    while True:
        for _ in range(500):
            r = play(rng, bots)
            n += 1
            if r.end == END_BLOCKED:
                blocked += 1
            elif r.end == END_OUT:
                out_by_seat[r.out_seat] += 1
            if len(r.winners) == 1:
                wins[r.winners[0]] += 1
            tp = r.tiles_played
            tiles += tp
            tiles_sq += tp * tp
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            break
    return {
        "rounds": n,
        "seconds": elapsed,
        "rate": n / elapsed,
        "wins": wins,
        "out_by_seat": out_by_seat,
        "blocked": blocked,
        "tiles": tiles,
        "tiles_sq": tiles_sq,
    }


def _z_prop(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float, float]:
    p1, p2 = k1 / n1, k2 / n2
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(max(p * (1 - p) * (1 / n1 + 1 / n2), 1e-300))
    return p1, p2, (p1 - p2) / se


def _z_mean(a: dict[str, Any], b: dict[str, Any]) -> tuple[float, float, float]:
    out = []
    for d in (a, b):
        n = d["rounds"]
        mean = d["tiles"] / n
        var = max(d["tiles_sq"] / n - mean * mean, 0.0)
        out.append((mean, var / n))
    (m1, v1), (m2, v2) = out
    return m1, m2, (m1 - m2) / math.sqrt(max(v1 + v2, 1e-300))


def compare(name: str, ours: dict[str, Any], theirs: dict[str, Any]) -> list[str]:
    lines = []
    n1, n2 = ours["rounds"], theirs["rounds"]
    rows: list[tuple[str, float, float, float]] = []
    rows.append(("blocked rate", *_z_prop(ours["blocked"], n1, theirs["blocked"], n2)))
    for i in range(len(theirs["wins"])):
        label = f"{'team' if name == 'dominoes' else 'seat'} {i} wins"
        rows.append((label, *_z_prop(ours["wins"][i], n1, theirs["wins"][i], n2)))
    if "out_by_seat" in theirs:
        for s in range(len(theirs["out_by_seat"])):
            rows.append(
                (
                    f"seat {s} goes out",
                    *_z_prop(ours["out_by_seat"][s], n1, theirs["out_by_seat"][s], n2),
                )
            )
    rows.append(("tiles played", *_z_mean(ours, theirs)))
    for label, a, b, z in rows:
        verdict = "agree" if abs(z) < 3 else "DIFFER"
        lines.append(
            f"    {label:<18} deckgen {a:8.4f}   {name} {b:8.4f}   z = {z:+5.2f}  {verdict}"
        )
    return lines


def _merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Sum the counts of several slices; ``rate`` is the best slice's, ``median`` the
    median slice's (the machine's load varies: the best slice is the closest to the
    engine's own speed, the same rule for every engine)."""
    merged: dict[str, Any] = {}
    for key in ("rounds", "seconds", "wins", "out_by_seat", "blocked", "tiles", "tiles_sq"):
        if key not in parts[0]:
            continue
        if isinstance(parts[0][key], list):
            merged[key] = [sum(x) for x in zip(*(p[key] for p in parts), strict=True)]
        else:
            merged[key] = sum(p[key] for p in parts)
    rates = sorted(p["rate"] for p in parts)
    merged["rate"] = rates[-1]
    merged["median"] = rates[len(rates) // 2]
    return merged


def main() -> None:
    seconds = float(os.environ.get("BENCH_SECONDS", "5"))
    slices = max(1, int(os.environ.get("BENCH_SLICES", "5")))
    seed = 20261122
    problems = ensure_anchor_venv()
    cases = {
        "two-player": ("two-player", 2),
        "openspiel": (str(HERE / "engine_openspiel.toml"), 2),
        "dominoes": (str(HERE / "engine_dominoes.toml"), 4),
    }
    # interleaved slices: ours, the anchors, ours, ... so that a change in the machine's
    # load hits every engine alike
    ours_parts: dict[str, list[dict[str, Any]]] = {k: [] for k in cases}
    anchor_parts: dict[str, list[dict[str, Any]]] = {}
    part = seconds / slices
    for i in range(slices):
        for k, (ref, n) in cases.items():
            ours_parts[k].append(run_ours(ref, n, part, seed + i))
        for name, result in run_anchors(part, seed + i).items():
            anchor_parts.setdefault(name, []).append(result)
    ours = {k: _merge(v) for k, v in ours_parts.items()}
    anchors: dict[str, dict[str, Any]] = {}
    for name, results in anchor_parts.items():
        errors = [r for r in results if "error" in r]
        anchors[name] = errors[0] if errors else _merge(results)
    print(
        f"rounds per second, one core (CPU time, {seconds:g} s per engine in {slices}"
        " interleaved slices; best slice, median slice in brackets), random bots:"
    )
    from deckgen.engine import compiled

    form = "compiled" if compiled.STATUS == "compiled" else "plain Python"
    print(f"  Engine.play_round's lean back-end ran {form} ({compiled.REASON})")
    two = ours["two-player"]
    print(
        f"  deckgen two-player (seed 002 variant):     {two['rate']:10,.0f} ({two['median']:,.0f})"
    )
    for name in ("openspiel", "dominoes"):
        mine = ours[name]["rate"]
        theirs = anchors.get(name, {})
        if name in problems or "error" in theirs:
            why = problems.get(name) or theirs.get("error")
            print(f"  deckgen {name:<10} rules: {mine:10,.0f}   anchor not available: {why}")
            continue
        ratio = mine / theirs["rate"]
        median_ratio = ours[name]["median"] / theirs["median"]
        goal = GOALS[name]
        print(
            f"  deckgen {name:<10} rules: {mine:10,.0f} ({ours[name]['median']:,.0f})"
            f"   {name}: {theirs['rate']:9,.0f} ({theirs['median']:,.0f})"
            f"   ratio {ratio:5.1f}x ({median_ratio:.1f}x)"
            f" (goal {goal:g}x: {'met' if ratio >= goal else 'NOT met'})"
        )
    # deckgen's batched engine (numpy, random bots; what `rules check` plays most rounds
    # with). It plays whole rounds under the same rules files and is proved equal to the
    # kernel round for round on shared decision streams (tests/engine/
    # test_conformance.py), but it records no games: Engine.play_round above (the
    # kernel, through its lean back-end for random bots) is what the goals are judged on.
    from bench.bench_check import fast_rate
    from deckgen.rulespec import load_rules

    print("  deckgen batched engine (numpy; random bots; no game records), same anchors:")
    for name in ("openspiel", "dominoes"):
        ref, n = cases[name]
        batched = fast_rate(load_rules(ref), n, part)
        theirs = anchors.get(name, {})
        if "rate" not in theirs:
            continue
        print(
            f"  deckgen {name:<10} batched: {batched:10,.0f}"
            f"   ratio to {name} {batched / theirs['rate']:5.1f}x"
        )
    print("random-play statistics (|z| < 3: within sampling error):")
    for name in ("openspiel", "dominoes"):
        theirs = anchors.get(name, {})
        if "rate" not in theirs:
            continue
        print(f"  {name}: {ours[name]['rounds']:,} deckgen rounds vs {theirs['rounds']:,}")
        for line in compare(name, ours[name], theirs):
            print(line)


if __name__ == "__main__":
    main()
