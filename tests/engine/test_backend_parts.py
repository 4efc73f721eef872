"""What the conformance test does not cover, engine by engine: the compiled engines'
own deals (dealt inside the compiled code, the stock drawn lazily) against their Python
source and the kernel's deal rules, whole matches on the fast match logic against the
kernel's matches, and the statistics of the check's own path (numbers from a generator)
against the kernel's and numpy's within sampling error.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from deckgen.engine import Engine, make_bots, play_match
from deckgen.engine.backends import jit_board
from deckgen.engine.backends.jit import HAVE_JIT, python_source
from deckgen.engine.backends.jit_board import JitBoard
from deckgen.engine.backends.jit_trains import JitTrains
from deckgen.engine.backends.matches import FIRST, SEAT, _pooled
from deckgen.engine.backends.numpy_line import FastLine
from deckgen.engine.backends.protocol import Replay
from deckgen.engine.backends.rounds import Deals, Rounds, RoundStreams
from deckgen.engine.players import Player, RandomBot
from deckgen.engine.results import MatchResult, RoundResult
from deckgen.engine.tables import compile_tables
from deckgen.rulecheck.batchcount import count_batch
from deckgen.rulecheck.check import CheckOptions, run_check
from deckgen.rulecheck.chunks import ChunkTask, run_chunk
from deckgen.rulecheck.fastmatch import FastTask, run_fast_chunk
from deckgen.rulecheck.tally import PlayTally, merged
from deckgen.rulespec import RuleSpec
from tests.engine.kernel_rounds import SPECS, close

needs_jit = pytest.mark.skipif(not HAVE_JIT, reason="numba is not installed")
GAMES = ("mexican-train", "chicken-foot")


def _replay_deals(engine: JitBoard, results: list[RoundResult]) -> Deals:
    """The kernel's recorded deals in the compiled board engine's layout."""
    deals = tuple(r.deal for r in results if r.deal is not None)
    zeros = np.zeros(len(deals), dtype=np.int64)
    given = Replay(deals, (0,) * len(deals), zeros, zeros, zeros, np.zeros((len(deals), 1)))
    return Deals(engine.hands_of(given), given.rest())


# ---------------------------------------------------------------- the compiled board
def test_the_python_deal_is_the_compiled_deal() -> None:
    spec = SPECS["double-twelve"]
    engine = JitBoard(spec, compile_tables(spec, 2))
    compiled = engine.deal(np.random.default_rng(7), 50)
    hands = np.zeros_like(compiled.hands)
    rest = np.zeros_like(compiled.rest)
    redeals = np.zeros(50, dtype=np.int64)
    assert isinstance(compiled, jit_board.LazyDeals)  # the stock is shuffled as drawn
    cfg = engine.cfg.copy()
    cfg[jit_board.C_LAZY] = 1
    python_source(jit_board.deal_rounds)(
        np.random.default_rng(7),
        cfg,
        engine.tab,
        np.ones(50, dtype=bool),
        hands,
        rest,
        redeals,
    )
    assert (hands == compiled.hands).all()
    assert (rest == compiled.rest).all()
    assert compiled.redeals is not None
    assert (redeals == compiled.redeals).all()
    assert compiled.redeals.any(), "some deals hold no double and are dealt again"
    dealt = np.concatenate([compiled.hands.reshape(50, -1), compiled.rest], axis=1)
    assert (np.sort(dealt, axis=1) == np.arange(91)).all(), "every tile once"
    doubles = np.array(engine.double_index)
    assert np.isin(compiled.hands.reshape(50, -1), doubles).any(axis=1).all()


# ---------------------------------------------------------------- whole matches
class _Logged(random.Random):
    """One stream for every random bot of a match, remembering each number it gave."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.given: list[float] = []

    def random(self) -> float:
        u = super().random()
        self.given.append(u)
        return u


class _Replayed(JitBoard):
    """The compiled engine dealing the kernel's recorded rounds in the order the fast
    match logic takes them from its pools (wave after wave, match after match: the
    first rounds, then each later round from the pool of the seat the kernel had start
    it), and deciding with the numbers the kernel's bots used in each round. Rows the
    matches never take get the first match's first round."""

    def __init__(
        self, spec: RuleSpec, players: int, matches: list[tuple[MatchResult, list[list[float]]]]
    ) -> None:
        super().__init__(spec, compile_tables(spec, players))
        self.matches = matches
        op = spec.params.opening
        same_rule = op.later_starter in ("same_rule", None)
        assert same_rule or op.later_starter == "next_seat"
        assert not (same_rule and op.later_lead == "any"), "no such case among the files here"
        self.queue: dict[int, list[tuple[int, int]]] = {}
        for w in range(max(len(m.rounds) for m, _ in matches)):
            for i, (m, _) in enumerate(matches):
                if len(m.rounds) > w:
                    pool = FIRST if w == 0 or same_rule else SEAT + m.rounds[w].starter
                    self.queue.setdefault(pool, []).append((i, w))
        self.first = np.zeros(0, dtype=bool)

    def _next(self, pool: int) -> tuple[int, int]:
        q = self.queue.get(pool, [])
        return q.pop(0) if q else (0, 0)

    def deal(self, rng: Any, count: int, first_rule: np.ndarray | None = None) -> Deals:
        assert first_rule is not None
        self.first = first_rule.copy()
        self.rows = [self._next(FIRST) if f else (0, 0) for f in first_rule]
        return self._deals()

    def _deals(self) -> Deals:
        return _replay_deals(self, [_as_round(self.matches[i][0], w) for i, w in self.rows])

    def play(
        self,
        deals: Deals,
        starter: np.ndarray,
        lead_tile: np.ndarray,
        lead_any: np.ndarray,
        kinds: tuple[str, ...],
        rng: Any,
    ) -> Rounds:
        for r in np.nonzero(~self.first)[0]:  # a later round: the pool of its starter
            self.rows[r] = self._next(SEAT + int(starter[r]))
        width = max(len(self.matches[i][1][w]) for i, w in self.rows) + 1
        numbers = np.zeros((len(self.rows), width))
        for k, (i, w) in enumerate(self.rows):
            used = self.matches[i][1][w]
            numbers[k, : len(used)] = used
        return super().play(
            self._deals(), starter, lead_tile, lead_any, kinds, RoundStreams(numbers)
        )


def _as_round(m: MatchResult, w: int) -> RoundResult:
    return m.rounds[w]


class _Recording(Engine):
    """The kernel, recording every round and which numbers its bots used in it."""

    def __init__(self, spec: RuleSpec, players: int, stream: _Logged) -> None:
        super().__init__(spec, players)
        self.stream = stream
        self.per_round: list[list[float]] = []

    def play_round(self, *args: Any, **kwargs: Any) -> RoundResult:
        before = len(self.stream.given)
        r = super().play_round(*args, **{**kwargs, "record": True})
        self.per_round.append(self.stream.given[before:])
        return r


def _kernel_matches(
    spec: RuleSpec, n: int, count: int
) -> list[tuple[MatchResult, list[list[float]]]]:
    out = []
    for seed in range(count):
        stream = _Logged(90_000 + seed)
        engine = _Recording(spec, n, stream)
        players: list[Player] = [RandomBot(stream) for _ in range(n)]
        out.append((play_match(engine, players, seed), engine.per_round))
    return out


@pytest.mark.parametrize(("rid", "n"), [("all-fives", 2), ("all-fives", 4), ("double-twelve", 3)])
def test_fast_matches_end_as_the_kernels(rid: str, n: int) -> None:
    spec = SPECS[rid]
    kernel = _kernel_matches(spec, n, 24)
    line = _Replayed(spec, n, kernel)
    per_match = float(np.mean([len(m.rounds) for m, _ in kernel]))
    ms = _pooled(line, np.random.default_rng(0), len(kernel), ("random",) * n, per_match)
    for i, (m, _) in enumerate(kernel):
        mine = np.nonzero(ms.match_of == i)[0]
        case = f"{rid}, {n} players, match {i}"
        assert len(mine) == len(m.rounds), f"{case}: {len(mine)} rounds, the kernel {len(m.rounds)}"
        for w, k in enumerate(mine):
            want = tuple(m.rounds[w].points)
            got = tuple(ms.rounds.points[k].tolist())
            assert got == want, f"{case}, round {w + 1}: points {got}, the kernel {want}"
        winners = tuple(np.nonzero(ms.winners[i])[0].tolist())
        assert winners == m.winners, f"{case}: winners {winners}, the kernel {m.winners}"
    assert max(len(m.rounds) for m, _ in kernel) > 1


@pytest.mark.skipif(not HAVE_JIT, reason="without numba the check plays All Fives on the kernel")
@pytest.mark.parametrize(("n", "teams"), [(2, False), (4, True)])
def test_the_fast_count_names_partners_only_where_there_are_some(n: int, teams: bool) -> None:
    spec = SPECS["all-fives"]  # teams only at 4 (``opposite_at_4``)
    line = JitBoard(spec, compile_tables(spec, n))
    ms = _pooled(line, np.random.default_rng(3), 20, ("random",) * n, 4.0)
    tally = PlayTally(n, line.nsides, 10.0, 30.0)
    count_batch(tally, spec, ms)
    assert ("setup.teams" in tally.clause_rounds) == teams
    assert tally.clause_rounds["setup.deal"] == len(ms.match_of)


@pytest.mark.skipif(not HAVE_JIT, reason="without numba the check plays All Fives on the kernel")
@pytest.mark.parametrize("n", [2, 4])
def test_all_fives_random_statistics_agree_with_the_kernel(n: int) -> None:
    """The check's own path (lazily shuffled stock, numbers from the generator): the same
    statistics as the reference engine within sampling error."""
    spec = SPECS["all-fives"]
    task = ChunkTask(
        spec.raw, str(spec.path), spec.sha256, n, ("random",), 5, 0, 150, False, 10, 60
    )
    ref = run_chunk(task)
    fast = merged(run_fast_chunk(FastTask(task, 0, 1000, "compiled board")))
    for name in ("turns", "draws", "passes", "tiles_played", "match_turns", "match_rounds"):
        assert close(getattr(ref, name), getattr(fast, name)), name
    for end in ("out", "blocked"):
        assert close(ref.ends.share(end), fast.ends.share(end)), end
    for side in range(len(ref.points)):
        assert close(ref.points[side], fast.points[side]), side
        assert close(ref.match_winner.share(str(side)), fast.match_winner.share(str(side)))


OWN_PATH = [("double-twelve", 3), ("all-fives", 3), ("two-player", 2), ("card-domino", 4)]


@pytest.mark.parametrize(("rid", "n"), OWN_PATH, ids=[f"{r}-{n}" for r, n in OWN_PATH])
def test_the_checks_own_path_as_python_is_the_compiled_one(rid: str, n: int) -> None:
    """Lazily shuffled stock and numbers from the generator: the same rounds from the
    source run as Python and from the machine code, given the same generator."""
    spec = SPECS[rid]
    engine = JitBoard(spec, compile_tables(spec, n))
    got = []
    for play in (jit_board.play_rounds, python_source(jit_board.play_rounds)):
        rng = np.random.default_rng(11)
        deals = engine.deal(rng, 8)
        starter, lead = engine.first_rule(deals.hands, lead_any=False)
        original = jit_board.play_rounds
        jit_board.play_rounds = play
        try:
            out = engine.play(deals, starter, lead, np.zeros(8, dtype=bool), ("random",) * n, rng)
        finally:
            jit_board.play_rounds = original
        got.append(out)
    for name in Rounds.__dataclass_fields__:
        assert (getattr(got[0], name) == getattr(got[1], name)).all(), name
    assert got[0].draws.sum() > 0


# ---------------------------------------------------------------- the compiled line games
def test_deals_are_whole_and_follow_the_redeal_rule() -> None:
    spec = SPECS["partnership"]
    t = compile_tables(spec, 4)
    engine = JitBoard(spec, t)
    deals = engine.deal(np.random.default_rng(3), 2000)
    assert deals.redeals is not None
    assert deals.redeals.sum() > 0  # five doubles in a hand happens, and is dealt again
    for g in range(2000):
        masks = [sum(1 << i for i in hand) for hand in deals.hands[g].tolist()]
        assert [m.bit_count() for m in masks] == [7] * 4
        assert all((m & t.double_mask).bit_count() < 5 for m in masks)
        every = 0
        for m in masks:
            assert not every & m
            every |= m
        assert every == t.full_mask


def test_stock_deals_hold_every_tile_once() -> None:
    spec = SPECS["two-player"]
    t = compile_tables(spec, 2)
    deals = JitBoard(spec, t).deal(np.random.default_rng(5), 500)
    for g in range(500):
        held = [i for hand in deals.hands[g].tolist() for i in hand]
        assert sorted(held + deals.rest[g].tolist()) == list(range(len(t.tiles)))


def test_the_tile_turned_up_from_a_lazy_stock_is_any_non_double_alike() -> None:
    """Two-player turns up the start tile and puts a double back: from a stock shuffled
    as it is drawn, the tile turned up (first in ``rest`` after play) is never a double,
    and every other tile comes up about equally often."""
    spec = SPECS["two-player"]
    t = compile_tables(spec, 2)
    engine = JitBoard(spec, t)
    rng = np.random.default_rng(9)
    g = 20_000
    deals = engine.deal(rng, g)
    starter, lead = engine.first_rule(deals.hands, lead_any=False)
    engine.play(deals, starter, lead, np.zeros(g, dtype=bool), ("random",) * 2, rng)
    turned = np.bincount(deals.rest[:, 0], minlength=len(t.tiles))
    doubles = np.array(t.is_double, dtype=bool)
    assert turned[doubles].sum() == 0, "a double was turned up"
    share = turned[~doubles] / g
    expected = 1 / (~doubles).sum()
    assert np.abs(share - expected).max() < 6 * np.sqrt(expected / g), share.round(4)


def _figures(line: FastLine, matches: int) -> dict[str, Any]:
    ms = line.play_matches(np.random.default_rng(11), matches, ("random",) * line.n)
    r = ms.rounds
    single = r.winners.sum(axis=1) == 1
    return {
        "turns": r.turns.astype(float),
        "draws": r.draws.astype(float),
        "passes": r.passes.astype(float),
        "out": (r.end == 0).astype(float),
        "side 0 wins": (single & (r.winners.argmax(axis=1) == 0)).astype(float),
        "points 0": r.points[:, 0].astype(float),
        "match side 0": (ms.winners[:, 0] & (ms.winners.sum(axis=1) == 1)).astype(float),
    }


STAT_CASES = [("card-domino", 2), ("block-classic", 4), ("partnership", 4), ("two-player", 2)]


@pytest.mark.skipif(not HAVE_JIT, reason="numba is off: the check plays the numpy engine")
@pytest.mark.parametrize(("rid", "n"), STAT_CASES, ids=[f"{r}-{n}" for r, n in STAT_CASES])
def test_the_check_with_and_without_the_compiled_path_agrees(rid: str, n: int) -> None:
    """Means of the round and match figures, compiled vs numpy ``FastLine`` (fixed
    seeds, so this cannot flake): within 4.5 standard errors."""
    spec = SPECS[rid]
    t = compile_tables(spec, n)
    compiled = _figures(JitBoard(spec, t), 8000)
    numpy_ = _figures(FastLine(spec, t), 8000)
    for key, a in compiled.items():
        b = numpy_[key]
        se = float(np.sqrt(a.var() / len(a) + b.var() / len(b))) or 1e-9
        z = (a.mean() - b.mean()) / se
        assert abs(z) < 4.5, (
            f"{rid}, {n} players: {key} {a.mean():.4f} vs {b.mean():.4f} (z {z:.1f})"
        )


# ---------------------------------------------------------------- the compiled trains
@needs_jit
@pytest.mark.parametrize("rid", GAMES)
def test_whole_matches_follow_the_station_series(rid: str) -> None:
    """A match plays the file's rounds with starters moving on and every station once."""
    spec = SPECS[rid]
    engine = JitTrains(spec, compile_tables(spec, 4))
    per = spec.params.match.rounds
    assert per is not None
    ms = engine.play_matches(np.random.default_rng(7), 50, ("random",) * 4)
    assert ms.count == 50
    assert len(ms.match_of) == 50 * per
    assert ms.rounds.starter[:per].tolist() == [k % 4 for k in range(per)]
    # penalty points: the match winners have the highest (least negative) total
    totals = ms.rounds.points.reshape(50, per, -1).sum(axis=1)
    best = totals.max(axis=1)
    assert (ms.winners == (totals == best[:, None])).all()
    # every round ends, out or blocked, and the tiles add up
    assert set(np.unique(ms.rounds.end).tolist()) <= {0, 1}


def _kernel_trains(spec: RuleSpec, n: int, matches: int) -> list[RoundResult]:
    engine = Engine(spec, n)
    out: list[RoundResult] = []
    for seed in range(matches):
        out.extend(play_match(engine, make_bots(["random"], n, seed), seed).rounds)
    return out


@needs_jit
@pytest.mark.parametrize("rid", GAMES)
def test_dealing_inside_plays_the_kernels_game(rid: str) -> None:
    """Dealt and decided inside the compiled code (the stock drawn lazily), whole
    matches give the kernel's statistics: mean turns, draws, passes and hand values and
    the share of blocked rounds agree within 4.5 standard errors."""
    spec = SPECS[rid]
    n = 3
    want = _kernel_trains(spec, n, 90)
    engine = JitTrains(spec, compile_tables(spec, n))
    rng = np.random.default_rng(11)
    ms = engine.play_matches(rng, 1500, ("random",) * n)
    r = ms.rounds
    kernel = {
        "turns": [x.turns for x in want],
        "draws": [x.draws for x in want],
        "passes": [x.passes for x in want],
        "seat 0 hand": [x.hand_values[0] for x in want],
        "blocked": [float(x.end == "blocked") for x in want],
    }
    fast = {
        "turns": r.turns,
        "draws": r.draws,
        "passes": r.passes,
        "seat 0 hand": r.hand_values[:, 0],
        "blocked": (r.end == 1).astype(float),
    }
    for name, values in kernel.items():
        a = np.asarray(values, dtype=float)
        b = np.asarray(fast[name], dtype=float)
        se = float(np.sqrt(a.var() / len(a) + b.var() / len(b)))
        z = abs(a.mean() - b.mean()) / se
        assert z < 4.5, f"{rid}: {name} kernel {a.mean():.2f}, compiled {b.mean():.2f} (z={z:.1f})"


@needs_jit
@pytest.mark.parametrize("rid", GAMES)
def test_the_rules_check_plays_the_game_on_the_compiled_path(rid: str) -> None:
    spec = SPECS[rid]
    per = spec.params.match.rounds
    assert per is not None
    opts = CheckOptions(
        rounds=40 * per, players=(4,), workers=1, seed=3, judge_rounds=per, invariant_rounds=per
    )
    result = run_check(spec, opts)
    (run,) = result.runs
    assert run.path == "fast"
    assert run.stats.rounds == 40 * per
    assert run.stats.matches == 40
    counted = run.stats.clause_rounds
    assert counted["setup.deal"] == 40 * per
    assert counted.get("end.out", 0) + counted.get("end.blocked", 0) == 40 * per
