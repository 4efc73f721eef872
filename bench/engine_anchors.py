"""The anchor engines' own random play, run inside the bench venv (``bench/.venv-anchors``).

Run by ``bench/bench_engine.py`` with the anchor venv's Python; never imported by
deckgen. Plays OpenSpiel's ``python_block_dominoes`` and PyPI ``dominoes`` 6.1.0 with
uniformly random legal moves for a fixed time each and prints one JSON object: rounds
per second (process CPU time, one core) and random-play statistics.

Usage: ``python engine_anchors.py SECONDS SEED``
"""

from __future__ import annotations

import json
import random
import sys
import time


def openspiel(seconds: float, seed: int) -> dict[str, object]:
    try:
        import pyspiel
        from open_spiel.python.games import block_dominoes  # noqa: F401  (registers the game)
    except Exception as exc:  # pragma: no cover - reported to the caller
        return {"error": f"{type(exc).__name__}: {exc}"}
    game = pyspiel.load_game("python_block_dominoes")
    rng = random.Random(seed)
    n = blocked = 0
    wins = [0, 0]
    tiles = tiles_sq = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        n += 1
        if s.hands[0] and s.hands[1]:
            blocked += 1
        ret = s.returns()
        if ret[0] > 0:
            wins[0] += 1
        elif ret[1] > 0:
            wins[1] += 1
        tiles += len(s.actions_history)
        tiles_sq += len(s.actions_history) ** 2
    elapsed = time.process_time() - start
    return {
        "rounds": n,
        "seconds": elapsed,
        "rate": n / elapsed,
        "wins": wins,
        "blocked": blocked,
        "tiles": tiles,
        "tiles_sq": tiles_sq,
    }


def dominoes_pkg(seconds: float, seed: int) -> dict[str, object]:
    try:
        import dominoes
    except Exception as exc:  # pragma: no cover
        return {"error": f"{type(exc).__name__}: {exc}"}
    random.seed(seed)  # the package deals with the module-level random
    rng = random.Random(seed + 1)
    n = blocked = 0
    wins = [0, 0]
    out_by_seat = [0, 0, 0, 0]
    tiles = tiles_sq = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        g = dominoes.Game.new()
        while g.result is None:
            g.make_move(*rng.choice(g.valid_moves))
        n += 1
        r = g.result
        if r.won:
            out_by_seat[r.player] += 1
        else:
            blocked += 1
        if r.points > 0:
            wins[0] += 1
        elif r.points < 0:
            wins[1] += 1
        tiles += len(g.board)
        tiles_sq += len(g.board) ** 2
    elapsed = time.process_time() - start
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


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    which = sys.argv[3] if len(sys.argv) > 3 else "both"
    out: dict[str, object] = {}
    if which in ("both", "openspiel"):
        out["openspiel"] = openspiel(seconds, seed)
    if which in ("both", "dominoes"):
        out["dominoes"] = dominoes_pkg(seconds, seed)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
