"""The compiled line engine (:mod:`deckgen.rulecheck.jit_line`) equals the kernel.

Round for round, from the kernel's deals and each round's stream of decision numbers
(as ``test_backends_equal.py`` checks the other back-ends): every bundled line rules
file, the benchmark anchors and the line variants, every player count, the line-ups
random, greedy and random + greedy. The same source run as plain Python
(:func:`~deckgen.rulecheck.jit.python_source`) gives the same on a few rounds, and the
compiled deal equals its own Python source. Where the rules check feeds the engine
from a generator it deals and decides with its own numbers (several choices from one
number, :data:`~deckgen.rulecheck.jit_line.RECYCLE`), so the check's figures with and
without the compiled path agree statistically, not number for number: the last tests
compare them with fixed seeds (deterministic, a z-score bound).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from deckgen.engine.tables import compile_tables
from deckgen.rulecheck import jit_line
from deckgen.rulecheck.fastline import END_CODES, Deals, FastLine, RoundStreams
from deckgen.rulecheck.fastmatch import play_matches
from deckgen.rulecheck.jit import HAVE_JIT, python_source
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

CASES = [
    (rid, n, lineup)
    for rid, s in SPECS.items()
    for n in s.player_counts
    for lineup in LINEUPS
    if jit_line.supports(s, lineup, n) is None
]
LINE_IDS = {rid for rid, _, _ in CASES}
COMPILED = (
    "_popcount _kth _has _flip _holder _greedy _score _deal_one _redo _play _first_rule _deal"
)


def _as_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every compiled function of the engine replaced by its plain-Python source."""
    for name in COMPILED.split():
        monkeypatch.setattr(jit_line, name, python_source(getattr(jit_line, name)))


def _kernel_deals(rounds: list[Round], n: int) -> Deals:
    """The kernel's recorded deals as the compiled engine takes them."""
    g = len(rounds)
    first = rounds[0].result.deal
    assert first is not None
    width = len(first.stock) + len(first.dead)
    hands = np.zeros((g, n, 2), dtype=np.uint64)
    rest = np.zeros((g, width), dtype=np.int64)
    for k, rnd in enumerate(rounds):
        d = rnd.result.deal
        assert d is not None
        for s, h in enumerate(d.hands):
            mask = sum(1 << i for i in h)
            hands[k, s] = (mask & 0xFFFFFFFFFFFFFFFF, mask >> 64)
        rest[k] = d.stock + d.dead
    return Deals(hands, rest)


def check_compiled(
    spec: RuleSpec, n: int, lineup: tuple[str, ...], case: str, rounds: list[Round]
) -> int:
    """Play the kernel's rounds on the compiled engine; raise naming the first
    difference (case, round, field)."""
    engine = jit_line.JitLine(spec, compile_tables(spec, n))
    deals = _kernel_deals(rounds, n)
    op = spec.params.opening
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
    kinds = tuple(lineup[min(s, len(lineup) - 1)] for s in range(n))
    out = engine.play(deals, starter, lead, lead_any, kinds, RoundStreams(numbers))
    name = "compiled line" if HAVE_JIT else "compiled line (as Python)"
    for k, rnd in enumerate(rounds):
        got = {
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
    _clauses_agree(case, name, spec, n, rounds, out)
    return len(rounds)


def test_every_line_case_is_compiled() -> None:
    """The bundled line files, both anchors and the line variants are all covered (a
    file that rounds its round points plays on the board engine: *_jit_board.py)."""
    line = {k for k, s in SPECS.items() if s.params.board.shape == "line"}
    want = {k for k in line if SPECS[k].params.scoring.round_to is None}
    assert line - want == {"v-rounded"}
    assert want >= {"card-domino", "two-player", "draw-classic", "block-classic", "partnership"}
    assert want >= {"anchor-openspiel", "anchor-dominoes", "v-may", "v-two-may", "v-card-may"}
    assert want >= {"v-twelve-line", "v-penalty", "v-differences"}
    assert want == LINE_IDS, sorted(want ^ LINE_IDS)
    assert len(SPECS["v-twelve-line"].dset) > 64


@pytest.mark.parametrize(
    ("rid", "n", "lineup"), CASES, ids=[f"{r}-{n}-{'+'.join(b)}" for r, n, b in CASES]
)
def test_compiled_line_equals_the_kernel(rid: str, n: int, lineup: tuple[str, ...]) -> None:
    spec = SPECS[rid]
    case = f"{rid}, {n} players, {'+'.join(lineup)}"
    assert check_compiled(spec, n, lineup, case, _kernel_rounds(spec, n, lineup)) > 0


@pytest.fixture
def as_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every compiled function of the engine replaced by its plain-Python source."""
    _as_python(monkeypatch)


PY_CASES = [
    ("card-domino", 3, ("random", "greedy")),
    ("two-player", 2, ("random",)),
    ("partnership", 4, ("greedy", "random")),
    ("v-card-may", 2, ("random",)),
    ("v-twelve-line", 2, ("random", "greedy")),
    ("v-penalty", 3, ("random",)),
]


@pytest.mark.parametrize(("rid", "n", "lineup"), PY_CASES, ids=[c[0] for c in PY_CASES])
@pytest.mark.usefixtures("as_python")
def test_the_source_as_python_equals_the_kernel(rid: str, n: int, lineup: tuple[str, ...]) -> None:
    spec = SPECS[rid]
    rounds = _kernel_rounds(spec, n, lineup)[:6]
    case = f"{rid}, {n} players, {'+'.join(lineup)} (as Python)"
    assert check_compiled(spec, n, lineup, case, rounds) == 6


def _deal_and_play(rid: str, n: int, seed: int) -> tuple[Any, ...]:
    engine = jit_line.JitLine(SPECS[rid], compile_tables(SPECS[rid], n))
    rng = np.random.default_rng(seed)
    deals = engine.deal(rng, 5)
    starter, lead = engine.first_rule(deals.hands, lead_any=False)
    r = engine.play(deals, starter, lead, np.zeros(5, dtype=bool), ("random",) * n, rng)
    assert deals.redeals is not None
    return deals.hands.tolist(), deals.rest.tolist(), deals.redeals.tolist(), r.turns.tolist()


@pytest.mark.skipif(not HAVE_JIT, reason="numba is off: nothing compiled to compare")
@pytest.mark.parametrize(("rid", "n"), [("two-player", 2), ("partnership", 4)])
def test_compiled_deal_and_play_equal_their_python_source(
    rid: str, n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From a generator too (several choices per number), number for number."""
    compiled = _deal_and_play(rid, n, 7)
    _as_python(monkeypatch)
    assert _deal_and_play(rid, n, 7) == compiled


def test_deals_are_whole_and_follow_the_redeal_rule() -> None:
    spec = SPECS["partnership"]
    t = compile_tables(spec, 4)
    engine = jit_line.JitLine(spec, t)
    deals = engine.deal(np.random.default_rng(3), 2000)
    assert deals.redeals is not None
    assert deals.redeals.sum() > 0  # five doubles in a hand happens, and is dealt again
    for g in range(2000):
        masks = [int(w0) | int(w1) << 64 for w0, w1 in deals.hands[g].tolist()]
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
    deals = jit_line.JitLine(spec, t).deal(np.random.default_rng(5), 500)
    for g in range(500):
        held = [
            i for w0, w1 in deals.hands[g].tolist() for i in range(128) if (w0 | w1 << 64) >> i & 1
        ]
        assert sorted(held + deals.rest[g].tolist()) == list(range(len(t.tiles)))


def test_a_differing_compiled_engine_is_named_with_its_round_and_field() -> None:
    spec = SPECS["card-domino"]
    rounds = _kernel_rounds(spec, 3, ("random",))
    other = [replace(r, stream_seed=r.stream_seed + 1) for r in rounds]
    with pytest.raises(AssertionError, match=r"compiled line.* differs from the kernel in round 0"):
        check_compiled(spec, 3, ("random",), "card-domino", other)


STAT_CASES = [("card-domino", 2), ("block-classic", 4), ("partnership", 4), ("two-player", 2)]


def _figures(line: FastLine, matches: int) -> dict[str, Any]:
    ms = play_matches(line, np.random.default_rng(11), matches, ("random",) * line.n)
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


@pytest.mark.skipif(not HAVE_JIT, reason="numba is off: the check plays the numpy engine")
@pytest.mark.parametrize(("rid", "n"), STAT_CASES, ids=[f"{r}-{n}" for r, n in STAT_CASES])
def test_the_check_with_and_without_the_compiled_path_agrees(rid: str, n: int) -> None:
    """Means of the round and match figures, compiled vs numpy ``FastLine`` (fixed
    seeds, so this cannot flake): within 4.5 standard errors."""
    spec = SPECS[rid]
    t = compile_tables(spec, n)
    compiled = _figures(jit_line.JitLine(spec, t), 8000)
    numpy_ = _figures(FastLine(spec, t), 8000)
    for key, a in compiled.items():
        b = numpy_[key]
        se = float(np.sqrt(a.var() / len(a) + b.var() / len(b))) or 1e-9
        z = (a.mean() - b.mean()) / se
        assert abs(z) < 4.5, (
            f"{rid}, {n} players: {key} {a.mean():.4f} vs {b.mean():.4f} (z {z:.1f})"
        )
