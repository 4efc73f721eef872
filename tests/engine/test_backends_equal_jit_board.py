"""The compiled board engine (:mod:`deckgen.rulecheck.jit_board`) equals the kernel round
for round, and match for match where points are scored during play.

As in ``test_backends_equal.py``: each round has its own deal seed and its own stream
of decision numbers; the compiled engine gets the kernel's recorded deals and the same
numbers (:class:`RoundStreams`). Every board case (spinner, every double across, the
double-twelve line too long for masks, All Fives with its points during play), every
player count, every bot line-up; a failure names the case, the round and the first
differing field. The same source also runs as plain Python on a few rounds
(:func:`~deckgen.rulecheck.jit.python_source`), and whole matches of the fast match
logic (:mod:`deckgen.rulecheck.fastmatch`) are replayed from the kernel's matches.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from deckgen.engine import Engine, play_match
from deckgen.engine.players import Player, RandomBot
from deckgen.engine.results import MatchResult, RoundResult
from deckgen.engine.tables import compile_tables
from deckgen.rulecheck import jit_board
from deckgen.rulecheck.batchcount import count_batch
from deckgen.rulecheck.chunks import ChunkTask, run_chunk
from deckgen.rulecheck.fastline import END_CODES, Deals, Rounds, RoundStreams, unsupported
from deckgen.rulecheck.fastmatch import FastTask, _waves, make_fast, run_fast_chunk
from deckgen.rulecheck.jit import HAVE_JIT, python_source
from deckgen.rulecheck.jit_board import JitBoard
from deckgen.rulecheck.tally import PlayTally, merged
from deckgen.rulespec import RuleSpec
from tests.engine.test_backends_equal import (
    LINEUPS,
    SPECS,
    Round,
    _clauses_agree,
    _fail,
    _fields,
    _kernel_rounds,
    _stream,
    _where_counts_part,
)
from tests.rulecheck.test_fastline import _close

BOARD_IDS = ("double-twelve", "v-spinner", "all-fives", "v-twelve-line", "v-rounded")
CASES = [
    (rid, n, lineup) for rid in BOARD_IDS for n in SPECS[rid].player_counts for lineup in LINEUPS
]


def _deals(engine: JitBoard, rounds: list[Round]) -> Deals:
    """The kernel's recorded deals in the compiled engine's layout."""
    n = engine.n
    h = engine.t.hand_size
    g = len(rounds)
    first = rounds[0].result.deal
    assert first is not None
    hands = np.zeros((g, n, h), dtype=np.int64)
    rest = np.zeros((g, len(first.stock) + len(first.dead)), dtype=np.int64)
    for k, rnd in enumerate(rounds):
        d = rnd.result.deal
        assert d is not None
        for s, hand in enumerate(d.hands):
            hands[k, s] = hand
        rest[k] = d.stock + d.dead
    return Deals(hands, rest)


def _replay(
    engine: JitBoard, lineup: tuple[str, ...], rounds: list[Round]
) -> tuple[Rounds, NDArray[np.int64]]:
    """The compiled engine's rounds from the kernel's deals and streams."""
    spec = engine.spec
    op = spec.params.opening
    deals = _deals(engine, rounds)
    later = np.array([rnd.round_no > 1 for rnd in rounds])
    lead_any = later & (op.later_lead == "any")
    starter, lead = engine.first_rule(deals.hands, lead_any=False)
    for k, rnd in enumerate(rounds):  # later rounds: the kernel's starter rule
        if rnd.round_no > 1 and op.later_starter in ("next_seat", "round_winner"):
            starter[k] = rnd.result.starter
            lead[k] = -1
        if lead_any[k]:
            lead[k] = -1
    numbers = np.array([_stream(rnd.stream_seed) for rnd in rounds])
    kinds = tuple(lineup[min(s, len(lineup) - 1)] for s in range(engine.n))
    out = engine.play(deals, starter, lead, lead_any, kinds, RoundStreams(numbers))
    return out, starter


def _check(case: str, engine: JitBoard, rounds: list[Round], out: Rounds, name: str) -> None:
    for k, rnd in enumerate(rounds):
        got: dict[str, Any] = {
            "end": END_CODES[out.end[k]],
            "out_seat": int(out.out_seat[k]),
            "starter": int(out.starter[k]),
            "turns": int(out.turns[k]),
            "draws": int(out.draws[k]),
            "passes": int(out.passes[k]),
            "played": int(out.played[k]),
            "hand_values": tuple(out.hand_values[k].tolist()),
            "points": tuple(out.points[k].tolist()),
            "winners": tuple(np.nonzero(out.winners[k])[0].tolist()),
        }
        want = _fields(rnd.result)
        if got != want:
            where = _where_counts_part(rnd.result, got)
            raise AssertionError(_fail(case, name, rnd, want, got, where))
    _clauses_agree(case, name, engine.spec, engine.n, rounds, out)


@pytest.mark.parametrize(
    ("rid", "n", "lineup"), CASES, ids=[f"{r}-{n}-{'+'.join(b)}" for r, n, b in CASES]
)
def test_the_compiled_board_equals_the_kernel(rid: str, n: int, lineup: tuple[str, ...]) -> None:
    spec = SPECS[rid]
    case = f"{rid}, {n} players, {'+'.join(lineup)}"
    rounds = _kernel_rounds(spec, n, lineup)
    engine = JitBoard(spec, compile_tables(spec, n))
    out, _ = _replay(engine, lineup, rounds)
    _check(case, engine, rounds, out, "compiled board")
    if spec.params.scoring.ends_multiple:  # the points during play were really compared
        assert any(r.result.play_points and any(r.result.play_points) for r in rounds)


@pytest.fixture
def as_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled functions replaced by their plain-Python source."""
    for name in ("deal_rounds", "first_rule_rounds", "play_rounds"):
        monkeypatch.setattr(jit_board, name, python_source(getattr(jit_board, name)))


@pytest.mark.parametrize(("rid", "n"), [("double-twelve", 3), ("all-fives", 4), ("v-spinner", 2)])
@pytest.mark.usefixtures("as_python")
def test_the_same_source_as_python_equals_the_kernel(rid: str, n: int) -> None:
    spec = SPECS[rid]
    lineup = ("random", "greedy")
    rounds = _kernel_rounds(spec, n, lineup)[:6]
    engine = JitBoard(spec, compile_tables(spec, n))
    out, _ = _replay(engine, lineup, rounds)
    _check(f"{rid}, {n} players, as Python", engine, rounds, out, "board source as Python")


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


def test_a_differing_round_is_named() -> None:
    spec = SPECS["all-fives"]
    rounds = _kernel_rounds(spec, 2, ("random",))
    engine = JitBoard(spec, compile_tables(spec, 2))
    other = [replace(r, stream_seed=r.stream_seed + 1) for r in rounds]
    out, _ = _replay(engine, ("random",), other)
    with pytest.raises(AssertionError, match=r"compiled board differs from the kernel in round 0"):
        _check("all-fives", engine, rounds, out, "compiled board")


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
    """The compiled engine dealing the kernel's recorded deals, wave after wave, and
    deciding with the numbers the kernel's bots used in each round."""

    def __init__(
        self, spec: RuleSpec, players: int, matches: list[tuple[MatchResult, list[list[float]]]]
    ) -> None:
        super().__init__(spec, compile_tables(spec, players))
        self.matches = matches
        self.wave = 0
        self.active: list[int] = []

    def deal(self, rng: Any, count: int, first_rule: np.ndarray | None = None) -> Deals:
        w = self.wave
        self.active = [i for i, (m, _) in enumerate(self.matches) if len(m.rounds) > w]
        assert len(self.active) == count, (
            f"round {w + 1}: the fast match logic plays {count} matches on, "
            f"the kernel {len(self.active)}"
        )
        return _deals(self, [_as_round(self.matches[i][0], w) for i in self.active])

    def play(
        self,
        deals: Deals,
        starter: np.ndarray,
        lead_tile: np.ndarray,
        lead_any: np.ndarray,
        kinds: tuple[str, ...],
        rng: Any,
    ) -> Rounds:
        w = self.wave
        self.wave += 1
        width = max(len(self.matches[i][1][w]) for i in self.active) + 1
        numbers = np.zeros((len(self.active), width))
        for k, i in enumerate(self.active):
            used = self.matches[i][1][w]
            numbers[k, : len(used)] = used
        return super().play(deals, starter, lead_tile, lead_any, kinds, RoundStreams(numbers))


def _as_round(m: MatchResult, w: int) -> Round:
    return Round(w, 0, 0, w + 1, -1, m.rounds[w], [])


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
    ms = _waves(line, np.random.default_rng(0), len(kernel), ("random",) * n)
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


def test_the_check_takes_the_compiled_board() -> None:
    for rid in ("double-twelve", "all-fives"):
        spec = SPECS[rid]
        fast = make_fast(spec, 4)
        assert isinstance(fast, JitBoard) == HAVE_JIT
        why = unsupported(spec, ("random", "greedy"), 4)
        assert (why is None) == (HAVE_JIT or not spec.params.scoring.ends_multiple)


@pytest.mark.skipif(not HAVE_JIT, reason="without numba the check plays All Fives on the kernel")
@pytest.mark.parametrize(("n", "teams"), [(2, False), (4, True)])
def test_the_fast_count_names_partners_only_where_there_are_some(n: int, teams: bool) -> None:
    spec = SPECS["all-fives"]  # teams only at 4 (``opposite_at_4``)
    line = make_fast(spec, n)
    ms = _waves(line, np.random.default_rng(3), 20, ("random",) * n)
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
    fast = merged(run_fast_chunk(FastTask(task, 0, 1000)))
    for name in ("turns", "draws", "passes", "tiles_played", "match_turns", "match_rounds"):
        assert _close(getattr(ref, name), getattr(fast, name)), name
    for end in ("out", "blocked"):
        assert _close(ref.ends.share(end), fast.ends.share(end)), end
    for side in range(len(ref.points)):
        assert _close(ref.points[side], fast.points[side]), side
        assert _close(ref.match_winner.share(str(side)), fast.match_winner.share(str(side)))


@pytest.mark.parametrize("rid", ["double-twelve", "all-fives"])
def test_the_checks_own_path_as_python_is_the_compiled_one(rid: str) -> None:
    """Lazily shuffled stock and numbers from the generator: the same rounds from the
    source run as Python and from the machine code, given the same generator."""
    spec = SPECS[rid]
    engine = JitBoard(spec, compile_tables(spec, 3))
    got = []
    for play in (jit_board.play_rounds, python_source(jit_board.play_rounds)):
        rng = np.random.default_rng(11)
        deals = engine.deal(rng, 8)
        starter, lead = engine.first_rule(deals.hands, lead_any=False)
        original = jit_board.play_rounds
        jit_board.play_rounds = play
        try:
            out = engine.play(deals, starter, lead, np.zeros(8, dtype=bool), ("random",) * 3, rng)
        finally:
            jit_board.play_rounds = original
        got.append(out)
    for name in Rounds.__dataclass_fields__:
        assert (getattr(got[0], name) == getattr(got[1], name)).all(), name
    assert got[0].draws.sum() > 0
