"""The ``pimc`` bot: its speed, and its strength against ``smart`` and against the
``dominoes`` package's ``probabilistic_alphabeta`` player.

1. Speed (one core, process CPU time): decisions per second of ``pimc`` at 100 sampled
   worlds (the default) in two-player rounds against ``smart``, counting decisions
   with a real choice (one legal move returns at once) and all decisions; beside it,
   the anchors measured in the same run: ``smart``'s decisions per second and the
   kernel's greedy play-outs per second (what one world of one move costs). Goal: 20
   decisions per second at 100 worlds.
2. Against ``smart``: ``PIMC_ROUNDS`` rounds (default 1000) of ``rules/two-player.toml``,
   each deal played twice with the seats swapped; the share of decided rounds pimc
   wins, with its 95 % Wilson interval, and the mean points margin.
3. Against ``probabilistic_alphabeta``: ``PIMC_AB_ROUNDS`` rounds (default 1000) of
   the package's own partnership game (``bench/engine_dominoes.toml``, 4 players,
   teams 0+2 and 1+3), pimc on one team and the package's player on the other, deals
   played twice with the teams swapped. The package (``dominoes==6.1.0``, in the
   anchor venv ``bench/.venv-anchors`` that ``bench_engine.py`` uses, never a project
   dependency; pure Python, so imported from there) plays as its docs show: moves
   ordered by ``bota_gorda`` (heaviest first) and, from move ``PIMC_AB_START``
   (default 10) on, by ``probabilistic_alphabeta`` with ``PIMC_AB_SAMPLES`` (default
   10) sampled hands, each searched to the end by alphabeta. (Its default, every
   possible hand from the first move, takes minutes per decision.) It sees the round
   through a ``dominoes.Game`` built from the kernel's record.

Run: ``.venv/bin/python -m bench bench_pimc``; ``PIMC_PARTS=speed,smart,alphabeta``
picks parts, ``PIMC_SECONDS`` (default 20) the CPU time of the speed part.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
ANCHOR_PY = HERE / ".venv-anchors" / "bin" / "python"
GOAL_DECISIONS = 20.0

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from deckgen.engine import Engine, Move, PlayerView, make_bots  # noqa: E402
from deckgen.engine.bots import bot_rng  # noqa: E402
from deckgen.engine.pimc import PimcBot  # noqa: E402
from deckgen.engine.players import Player, SmartBot  # noqa: E402
from deckgen.engine.state import RoundState  # noqa: E402
from deckgen.rulecheck.stats import wilson  # noqa: E402
from deckgen.rulespec import load_rules  # noqa: E402


class Timed:
    """Wraps a player and counts its decisions and their CPU time."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = inner.name
        self.all = 0
        self.real = 0
        self.seconds = 0.0

    def choose(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        start = time.process_time()
        mv = self.inner.choose(view, moves)
        self.seconds += time.process_time() - start
        self.all += 1
        self.real += len(moves) > 1
        return mv


def speed(seconds: float) -> None:
    engine = Engine(load_rules("two-player"), 2)
    pimc = Timed(PimcBot(bot_rng(1, 0)))
    smart = Timed(SmartBot(bot_rng(1, 1)))
    r = 0
    while pimc.seconds < seconds:
        seats: list[Player] = [pimc, smart] if r % 2 == 0 else [smart, pimc]
        engine.play_round(random.Random(r), seats)
        r += 1
    # the anchor play-out: one greedy world from a fresh deal, on the kernel's state
    bot = PimcBot(random.Random(0))
    n = 0
    start = time.process_time()
    while time.process_time() - start < min(seconds, 5.0):
        state = engine.start_round(random.Random(n), record=False)
        bot._rollout(state)
        n += 1
    playouts = n / (time.process_time() - start)
    real_rate = pimc.real / pimc.seconds
    print(
        f"pimc (100 worlds, two-player, {r} rounds): {real_rate:.1f} decisions/s with a "
        f"real choice, {pimc.all / pimc.seconds:.1f}/s counting forced ones "
        f"(goal {GOAL_DECISIONS:.0f}/s: {'met' if real_rate >= GOAL_DECISIONS else 'NOT met'})"
    )
    print(
        f"  anchors: smart {smart.all / max(smart.seconds, 1e-9):,.0f} decisions/s "
        f"(pimc/smart {pimc.all / pimc.seconds / (smart.all / max(smart.seconds, 1e-9)):.5f}); "
        f"kernel greedy play-outs {playouts:,.0f}/s "
        f"(a real pimc decision costs {playouts / real_rate:,.0f} play-outs)"
    )


def _tally(label: str, wins: int, losses: int, ties: int, margin: float, seconds: float) -> None:
    decided = wins + losses
    low, high = wilson(wins, decided)
    share = wins / decided if decided else 0.0
    verdict = "pimc stronger" if low > 0.5 else ("pimc weaker" if high < 0.5 else "no clear winner")
    print(
        f"{label}: pimc wins {wins}, loses {losses}, ties {ties} of {decided + ties} rounds: "
        f"{share:.1%} of decided rounds [95 % {low:.1%}, {high:.1%}] ({verdict}); "
        f"mean margin {margin:+.2f} points per round ({seconds:.0f} s)"
    )


def against_smart(rounds: int) -> None:
    engine = Engine(load_rules("two-player"), 2)
    wins = losses = ties = 0
    margin = 0.0
    start = time.perf_counter()
    for r in range(rounds):
        deal = r // 2
        me = r % 2
        names = ["pimc", "smart"] if me == 0 else ["smart", "pimc"]
        res = engine.play_round(random.Random(deal), make_bots(names, 2, deal))
        mine, theirs = res.points[me], res.points[1 - me]
        wins += mine > theirs
        losses += mine < theirs
        ties += mine == theirs
        margin += mine - theirs
    _tally(
        f"against smart (two-player, {rounds} rounds, deals played twice)",
        wins,
        losses,
        ties,
        margin / max(rounds, 1),
        time.perf_counter() - start,
    )


def _anchor_site() -> Path | None:
    if not ANCHOR_PY.exists():
        subprocess.run([sys.executable, "-m", "venv", str(ANCHOR_PY.parents[1])], check=True)
    probe = subprocess.run([str(ANCHOR_PY), "-c", "import dominoes"], capture_output=True)
    if probe.returncode != 0:
        inst = subprocess.run(
            [str(ANCHOR_PY), "-m", "pip", "install", "--quiet", "dominoes==6.1.0"],
            capture_output=True,
            text=True,
        )
        if inst.returncode != 0:
            return None
    out = subprocess.run(
        [str(ANCHOR_PY), "-c", "import dominoes, os; print(os.path.dirname(dominoes.__path__[0]))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(out.stdout.strip())


class AlphaBetaSeat:
    """The ``dominoes`` package's player, seeing the round as a ``dominoes.Game``."""

    name = "probabilistic_alphabeta"

    def __init__(self, dominoes: Any, engine: Engine, samples: int, start_move: int) -> None:
        self.d = dominoes
        self.t = engine.t
        self.player = dominoes.players.probabilistic_alphabeta(
            start_move=start_move, sample_size=samples
        )

    def _domino(self, i: int) -> Any:
        return self.d.Domino(self.t.lo[i], self.t.hi[i])

    def choose(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        if len(moves) == 1:
            return moves[0]
        d = self.d
        state = view.round
        assert isinstance(state, RoundState)
        board = d.Board()
        played: list[Any] = []
        for a in view.history:
            if a.kind == "pass":
                played.append(None)
                continue
            dom, left = self._domino(a.tile), a.end <= 0
            board.add(dom, left)
            played.append((dom, left))
        hands = [d.Hand([self._domino(i) for i in _bits(h)]) for h in state.hands]
        first = view.history[0].seat if view.history else view.seat
        game = d.Game(board, hands, played, view.seat, (), first, None)
        if board:
            game._update_valid_moves()
        else:
            game.valid_moves = tuple((dom, True) for dom in hands[view.seat])
        if len(game.valid_moves) != len(moves):  # the two views of the round disagree
            raise RuntimeError(f"dominoes sees {game.valid_moves}, the kernel {moves}")
        d.players.bota_gorda(game)
        self.player(game)
        dom, left = game.valid_moves[0]
        tile = self.t.double_index[dom.first] if dom.first == dom.second else -1
        for m in moves:
            if m.tile >= 0 and {self.t.lo[m.tile], self.t.hi[m.tile]} == {dom.first, dom.second}:
                tile = m.tile
                break
        for m in moves:
            if m.tile == tile and (m.end <= 0 if left else m.end == 1):
                return m
        return next(m for m in moves if m.tile == tile)  # both ends show the same number


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def against_alphabeta(rounds: int) -> None:
    site = _anchor_site()
    if site is None:
        print("against probabilistic_alphabeta: skipped (pip install dominoes==6.1.0 failed)")
        return
    sys.path.append(str(site))
    import dominoes

    samples = int(os.environ.get("PIMC_AB_SAMPLES", "10"))
    start_move = int(os.environ.get("PIMC_AB_START", "10"))
    engine = Engine(load_rules(HERE / "engine_dominoes.toml"), 4)
    wins = losses = ties = 0
    margin = 0.0
    t0 = time.perf_counter()
    for r in range(rounds):
        deal = r // 2
        team = r % 2  # pimc's team: 0 (seats 0, 2) or 1 (seats 1, 3)
        seats: list[Player] = []
        for seat in range(4):
            if seat % 2 == team:
                seats.append(PimcBot(bot_rng(deal, seat)))
            else:
                seats.append(AlphaBetaSeat(dominoes, engine, samples, start_move))
        random.seed(deal)  # the package samples hands with the module-level random
        res = engine.play_round(random.Random(deal), seats, record=True)
        mine, theirs = res.points[team], res.points[1 - team]
        wins += mine > theirs
        losses += mine < theirs
        ties += mine == theirs
        margin += mine - theirs
        if (r + 1) % 100 == 0:
            print(f"  ... {r + 1} rounds: pimc {wins}-{losses}", flush=True)
    _tally(
        f"against dominoes 6.1.0 probabilistic_alphabeta (partnership, {samples} samples "
        f"from move {start_move}, bota_gorda before; {rounds} rounds, deals played twice)",
        wins,
        losses,
        ties,
        margin / max(rounds, 1),
        time.perf_counter() - t0,
    )


def main() -> None:
    parts = set(os.environ.get("PIMC_PARTS", "speed,smart,alphabeta").split(","))
    if "speed" in parts:
        speed(float(os.environ.get("PIMC_SECONDS", "20")))
    if "smart" in parts:
        against_smart(int(os.environ.get("PIMC_ROUNDS", "1000")))
    if "alphabeta" in parts:
        against_alphabeta(int(os.environ.get("PIMC_AB_ROUNDS", "1000")))


if __name__ == "__main__":
    main()
