"""The compiled train and chicken-foot engine equals the kernel round for round.

For Mexican Train and Chicken Foot, every player count and the line-ups random, greedy
and random+greedy, the kernel plays rounds with their own deal seed and their own stream
of decision numbers (its random bots share one ``random.Random`` per round, so the k-th
random decision of a round uses the stream's k-th number) over many station doubles
(round numbers 1 to 14, so the series wraps); the compiled engine
(:mod:`deckgen.rulecheck.jit_trains`) gets the kernel's recorded deals and the same
numbers as an array and must give the kernel's whole round result. The same source runs
as plain Python on a few rounds too. A failure names the case, the round and the first
action where they part.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from deckgen.engine import Engine, RoundResult, make_bots, play_match
from deckgen.engine.players import GreedyBot, Player, RandomBot
from deckgen.engine.results import Action
from deckgen.rulecheck.check import CheckOptions, run_check
from deckgen.rulecheck.fastline import END_CODES, Rounds
from deckgen.rulecheck.fastmatch import play_matches
from deckgen.rulecheck.jit import HAVE_JIT, python_source
from deckgen.rulecheck.jit_trains import Given, JitTrains, make_jit_trains, play_batch
from deckgen.rulecheck.trains_scope import unsupported
from deckgen.rulespec import RuleSpec, load_rules
from tests.engine.test_backends_equal import _clauses_agree

GAMES = ("mexican-train", "chicken-foot")
LINEUPS: tuple[tuple[str, ...], ...] = (("random",), ("greedy",), ("random", "greedy"))
ROUNDS = 28
STREAM = 3000
"""Numbers per round stream (more than any round decides)."""

SPECS = {rid: load_rules(rid) for rid in GAMES}
CASES = [(rid, n, lineup) for rid in GAMES for n in SPECS[rid].player_counts for lineup in LINEUPS]
_MT, _CF = SPECS["mexican-train"], SPECS["chicken-foot"]


def _variant(
    spec: RuleSpec, changes: dict[str, Any], add: tuple[str, ...] = (), drop: tuple[str, ...] = ()
) -> RuleSpec:
    """``spec`` with ``changes``, clauses ``add`` (a plain text) and without ``drop``."""
    clauses = [c for c in spec.raw["clause"] if c["id"] not in drop]
    for cid in add:
        text = {"de": f"Testregel {cid}.", "en": f"Test rule {cid}."}
        section = "setup" if cid.startswith("setup.") else "scoring"
        clauses.append({"id": cid, "section": section, "text": text})
    return spec.with_changes({**changes, "clause": clauses})


_UNTIL = {"turn.draw": "until_playable", "turn.draw_limit": None}
VARIANTS = {
    # drawing until a tile fits, a stock reserve (end.reserve), partners, a bonus
    "v-trains-until": _variant(_MT, _UNTIL, drop=("play.draw_limit",)),
    "v-trains-reserve": _variant(
        _MT, {"deal.stock_reserve": 6, "scoring.out_bonus": 25}, ("end.reserve", "score.bonus")
    ),
    "v-trains-teams": _variant(_MT, {"players.teams": "opposite_at_4"}, ("setup.teams",)),
    "v-feet-limit": _variant(
        _CF, {"turn.draw_limit": 3, "deal.stock_reserve": 2}, ("end.reserve",)
    ),
    "v-feet-until": _variant(_CF, _UNTIL, drop=("play.draw_limit",)),
}
VARIANT_CASES = [(vid, n, lineup) for vid in VARIANTS for n in (2, 4) for lineup in LINEUPS[::2]]

needs_jit = pytest.mark.skipif(not HAVE_JIT, reason="numba is not installed")


class Logged:
    """A round's shared stream, logging which seat used each number."""

    def __init__(self, seat: int, log: list[int], shared: random.Random) -> None:
        self.seat = seat
        self.log = log
        self.shared = shared

    def random(self) -> float:
        self.log.append(self.seat)
        return self.shared.random()


@dataclass
class Round:
    """One round of a case: its seeds and what the kernel gave."""

    index: int
    deal_seed: int
    stream_seed: int
    round_no: int
    result: RoundResult


def _players(lineup: tuple[str, ...], n: int, stream_seed: int) -> list[Player]:
    shared = random.Random(stream_seed)
    log: list[int] = []
    out: list[Player] = []
    for seat in range(n):
        name = lineup[min(seat, len(lineup) - 1)]
        if name == "random":
            out.append(RandomBot(Logged(seat, log, shared)))  # type: ignore[arg-type]
        else:
            out.append(GreedyBot(random.Random(0)))
    return out


def _kernel_rounds(spec: RuleSpec, n: int, lineup: tuple[str, ...], count: int) -> list[Round]:
    engine = Engine(spec, n, check_invariants=True)
    out = []
    for i in range(count):
        deal_seed, stream_seed = 1000 + i, 5000 + i
        round_no = 1 + i % 14
        prev = (i // 14 + round_no - 2) % n if round_no > 1 else -1
        r = engine.play_round(
            random.Random(deal_seed),
            _players(lineup, n, stream_seed),
            round_no=round_no,
            prev_starter=prev,
            prev_winner=prev,
            record=True,
        )
        out.append(Round(i, deal_seed, stream_seed, round_no, r))
    return out


def _given(engine: JitTrains, rounds: list[Round]) -> Given:
    """The kernel's deals (before the station double is set out) and decision streams."""
    g = len(rounds)
    n = engine.n
    hands = np.zeros((g, n, 2), dtype=np.uint64)
    width = len(engine.t.tiles) + 1
    rest = np.full((g, width), -1, dtype=np.int64)
    for k, rnd in enumerate(rounds):
        d = rnd.result.deal
        assert d is not None
        for s, hand in enumerate(d.hands):
            for i in hand:
                hands[k, s, i >> 6] |= np.uint64(1 << (i & 63))
        rest[k, : len(d.stock)] = d.stock
    numbers = np.array(
        [
            [gen.random() for _ in range(STREAM)]
            for gen in (random.Random(r.stream_seed) for r in rounds)
        ]
    )
    return Given(
        np.array([r.round_no for r in rounds], dtype=np.int64),
        np.array([r.result.starter for r in rounds], dtype=np.int64),
        hands,
        rest,
        numbers,
    )


def _fields(r: RoundResult) -> dict[str, Any]:
    return {
        "end": r.end,
        "out_seat": r.out_seat,
        "starter": r.starter,
        "turns": r.turns,
        "draws": r.draws,
        "passes": r.passes,
        "played": r.tiles_played,
        "hand_values": tuple(r.hand_values),
        "points": tuple(r.points),
        "winners": tuple(r.winners),
    }


def _got(out: Rounds, k: int) -> dict[str, Any]:
    return {
        "end": END_CODES[int(out.end[k])],
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


def _where(r: RoundResult, got: dict[str, Any]) -> str:
    """The first kernel action after which its running counts exceed the back-end's."""
    assert r.actions is not None
    draws = passes = played = 0
    a: Action
    for k, a in enumerate(r.actions, start=1):
        draws += a.kind == "draw"
        passes += a.kind == "pass"
        played += a.kind in ("lead", "play")
        if draws > got["draws"] or passes > got["passes"] or played > got["played"]:
            return f"action {k} ({a.kind} by seat {a.seat}, tile {a.tile}, end {a.end})"
    return "after the kernel's last action"


def _compare(
    case: str, backend: str, spec: RuleSpec, n: int, lineup: tuple[str, ...], rounds: list[Round],
    fn: Any = None,
) -> None:  # fmt: skip
    engine = make_jit_trains(spec, n)
    kinds = tuple(lineup[min(s, len(lineup) - 1)] for s in range(n))
    out = engine.play_rounds(_given(engine, rounds), kinds, np.random.default_rng(0), fn)
    for k, rnd in enumerate(rounds):
        want = _fields(rnd.result)
        got = _got(out, k)
        if got != want:
            diff = ", ".join(
                f"{f}: kernel {want[f]!r}, {backend} {got[f]!r}" for f in want if want[f] != got[f]
            )
            raise AssertionError(
                f"{case}: {backend} differs from the kernel in round {rnd.index} (deal seed "
                f"{rnd.deal_seed}, stream seed {rnd.stream_seed}, round_no {rnd.round_no}); "
                f"they part at {_where(rnd.result, got)}; {diff}"
            )
    _clauses_agree(case, backend, spec, n, rounds, out)


@needs_jit
@pytest.mark.parametrize(
    ("rid", "n", "lineup"), CASES, ids=[f"{r}-{n}-{'+'.join(b)}" for r, n, b in CASES]
)
def test_compiled_trains_equal_the_kernel(rid: str, n: int, lineup: tuple[str, ...]) -> None:
    spec = SPECS[rid]
    assert unsupported(spec, lineup, n) is None
    case = f"{rid}, {n} players, {'+'.join(lineup)}"
    _compare(case, "compiled", spec, n, lineup, _kernel_rounds(spec, n, lineup, ROUNDS))


@needs_jit
@pytest.mark.parametrize(
    ("vid", "n", "lineup"),
    VARIANT_CASES,
    ids=[f"{v}-{n}-{'+'.join(b)}" for v, n, b in VARIANT_CASES],
)
def test_compiled_variants_equal_the_kernel(vid: str, n: int, lineup: tuple[str, ...]) -> None:
    """Rules the bundled files do not use, but the engine plays: other draw rules, a
    stock reserve, partners, a bonus for going out."""
    spec = VARIANTS[vid]
    assert unsupported(spec, lineup, n) is None
    case = f"{vid}, {n} players, {'+'.join(lineup)}"
    _compare(case, "compiled", spec, n, lineup, _kernel_rounds(spec, n, lineup, ROUNDS))


@pytest.mark.parametrize("rid", GAMES)
def test_the_same_source_as_python_equals_the_kernel(rid: str) -> None:
    spec = SPECS[rid]
    for n, lineup in ((3, ("random", "greedy")), (6, ("random",))):
        rounds = _kernel_rounds(spec, n, lineup, 4)
        with np.errstate(over="ignore"):
            _compare(f"{rid}, {n}", "python", spec, n, lineup, rounds, python_source(play_batch))


@needs_jit
def test_a_differing_round_is_named_with_its_case_round_and_action() -> None:
    spec = SPECS["mexican-train"]
    rounds = _kernel_rounds(spec, 3, ("random",), 2)
    other = [Round(r.index, r.deal_seed, r.stream_seed + 1, r.round_no, r.result) for r in rounds]
    with pytest.raises(
        AssertionError, match=r"compiled differs from the kernel in round 0 .*part at"
    ):
        _compare("mexican-train, 3", "compiled", spec, 3, ("random",), other)


@needs_jit
@pytest.mark.parametrize("rid", GAMES)
def test_whole_matches_follow_the_station_series(rid: str) -> None:
    """A match plays the file's rounds with starters moving on and every station once."""
    spec = SPECS[rid]
    engine = make_jit_trains(spec, 4)
    per = spec.params.match.rounds
    assert per is not None
    ms = play_matches(engine, np.random.default_rng(7), 50, ("random",) * 4)  # type: ignore[arg-type]
    assert ms.count == 50
    assert len(ms.match_of) == 50 * per
    assert ms.rounds.starter[:per].tolist() == [k % 4 for k in range(per)]
    # penalty points: the match winners have the highest (least negative) total
    totals = ms.rounds.points.reshape(50, per, -1).sum(axis=1)
    best = totals.max(axis=1)
    assert (ms.winners == (totals == best[:, None])).all()
    # every round ends, out or blocked, and the tiles add up
    assert set(np.unique(ms.rounds.end).tolist()) <= {0, 1}


def _kernel_matches(spec: RuleSpec, n: int, matches: int) -> list[RoundResult]:
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
    want = _kernel_matches(spec, n, 90)
    engine = make_jit_trains(spec, n)
    rng = np.random.default_rng(11)
    ms = play_matches(engine, rng, 1500, ("random",) * n)  # type: ignore[arg-type]
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
