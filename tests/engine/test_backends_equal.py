"""Every back-end equals the kernel round for round, random bots included.

Each round has its own deal seed and its own stream of decision numbers: the kernel's
random bots share one ``random.Random`` per round (so the k-th random decision of the
round uses the stream's k-th number), the lean back-end gets the same generator, and
the numpy back-ends get the same numbers as an array (:class:`RoundStreams`) and the
kernel's recorded deals. For every bundled rules file, player count and bot line-up,
every back-end that supports the case must give the kernel's whole round result; a
failure names the case, the round and the first action where they part.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pytest

from deckgen.engine import Engine, RoundResult
from deckgen.engine.backends import lean
from deckgen.engine.players import GreedyBot, Player, RandomBot
from deckgen.engine.results import Action
from deckgen.engine.tables import compile_tables
from deckgen.rulecheck.arrays import Hands
from deckgen.rulecheck.batchcount import clause_masks
from deckgen.rulecheck.fastboard import FastBoard
from deckgen.rulecheck.fastline import (
    END_CODES,
    Deals,
    FastLine,
    Rounds,
    RoundStreams,
    unsupported,
)
from deckgen.rulespec import RuleSpec, list_rules, load_rules, rules_from_data

LINEUPS: tuple[tuple[str, ...], ...] = (("random",), ("greedy",), ("random", "greedy"))
ROUNDS = 40
STREAM = 400
"""Numbers per round stream (more than any round decides)."""

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _specs() -> dict[str, RuleSpec]:
    """Every bundled rules file, the benchmark anchors and variants that reach the
    other branches (spinner, keeping a drawn tile, a long line, other scoring)."""
    out = {s.id: s for s in list_rules()}
    out["anchor-openspiel"] = load_rules(BENCH / "engine_openspiel.toml")
    out["anchor-dominoes"] = load_rules(BENCH / "engine_dominoes.toml")
    dc, bc = out["draw-classic"], out["block-classic"]
    out["v-spinner"] = dc.with_changes({"board.shape": "spinner"})
    out["v-may"] = dc.with_changes({"turn.play_drawn": "may"})
    out["v-two-may"] = out["two-player"].with_changes({"turn.play_drawn": "may"})
    out["v-card-may"] = out["card-domino"].with_changes({"turn.play_drawn": "may"})
    out["v-twelve-line"] = out["double-twelve"].with_changes({"board.shape": "line"})
    out["v-penalty"] = bc.with_changes(
        {"scoring.method": "penalty", "match.end": "rounds", "match.rounds": 3}
    )
    out["v-differences"] = bc.with_changes({"scoring.method": "lowest_takes_differences"})
    out["v-rounded"] = _with_clause(dc, {"scoring.round_to": 5}, ROUNDING)
    return out


ROUNDING = {
    "id": "score.rounding",
    "section": "scoring",
    "text": {
        "de": "Die Punkte am Rundenende werden auf ein Vielfaches von {round_to} gerundet.",
        "en": "A round's points are rounded to the nearest multiple of {round_to}.",
    },
}


def _with_clause(spec: RuleSpec, changes: dict[str, Any], clause: dict[str, Any]) -> RuleSpec:
    """``spec`` with ``changes`` and the clause they need stated."""
    raw = copy.deepcopy(spec.raw)
    for key, value in changes.items():
        section, name = key.split(".")
        raw[section][name] = value
    raw["clause"] = [*raw["clause"], clause]
    return rules_from_data(raw, path=spec.path)


SPECS = _specs()
CASES = [
    (rid, n, lineup) for rid, s in SPECS.items() for n in s.player_counts for lineup in LINEUPS
]


class Logged:
    """A round's stream, logging which seat used each number."""

    def __init__(self, seed: int, seat: int, log: list[int], shared: random.Random) -> None:
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
    prev_starter: int
    result: RoundResult
    decisions: list[int]
    """The seat of each random decision, in order."""


def _players(lineup: tuple[str, ...], n: int, stream_seed: int, log: list[int]) -> list[Player]:
    shared = random.Random(stream_seed)
    out: list[Player] = []
    for seat in range(n):
        name = lineup[min(seat, len(lineup) - 1)]
        if name == "random":
            out.append(RandomBot(Logged(stream_seed, seat, log, shared)))  # type: ignore[arg-type]
        else:
            out.append(GreedyBot(random.Random(0)))
    return out


def _kernel_rounds(spec: RuleSpec, n: int, lineup: tuple[str, ...]) -> list[Round]:
    engine = Engine(spec, n, check_invariants=True)
    out = []
    for i in range(ROUNDS):
        deal_seed, stream_seed = 1000 + i, 5000 + i
        round_no = 1 if i % 2 == 0 else 2
        prev = (i // 2) % n if round_no > 1 else -1
        log: list[int] = []
        r = engine.play_round(
            random.Random(deal_seed),
            _players(lineup, n, stream_seed, log),
            round_no=round_no,
            prev_starter=prev,
            prev_winner=prev,
            record=True,
        )
        out.append(Round(i, deal_seed, stream_seed, round_no, prev, r, log))
    return out


def _describe(spec: RuleSpec, a: Action) -> str:
    tile = str(spec.dset.tiles[a.tile]) if a.tile >= 0 else ""
    return f"seat {a.seat} {a.kind} {tile}".rstrip()


def _decision_actions(r: RoundResult) -> list[Action]:
    """The kernel's actions that were choices (leads, plays and passes after drawing)."""
    assert r.actions is not None
    out = []
    prev: Action | None = None
    for a in r.actions:
        if a.kind in ("lead", "play") or (a.kind == "pass" and prev and prev.kind == "draw"):
            out.append(a)
        prev = a
    return out


def _where_counts_part(r: RoundResult, got: dict[str, Any]) -> str:
    """The first kernel action after which its running counts exceed the back-end's."""
    assert r.actions is not None
    draws = passes = played = 0
    for k, a in enumerate(r.actions, start=1):
        draws += a.kind == "draw"
        passes += a.kind == "pass"
        played += a.kind in ("lead", "play")
        if draws > got["draws"] or passes > got["passes"] or played > got["played"]:
            return f"action {k} ({a.kind} by seat {a.seat})"
    return "after the kernel's last action"


def _fail(
    case: str, backend: str, rnd: Round, want: dict[str, Any], got: dict[str, Any], where: str
) -> str:
    diff = ", ".join(
        f"{k}: kernel {want[k]!r}, {backend} {got[k]!r}" for k in want if want[k] != got[k]
    )
    return (
        f"{case}: {backend} differs from the kernel in round {rnd.index} "
        f"(deal seed {rnd.deal_seed}, stream seed {rnd.stream_seed}, round_no {rnd.round_no}); "
        f"they part at {where}; {diff}"
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


def _check_lean(spec: RuleSpec, n: int, case: str, rounds: list[Round]) -> int:
    engine = Engine(spec, n)
    checked = 0
    for rnd in rounds:
        log: list[int] = []
        got = engine.play_round(
            random.Random(rnd.deal_seed),
            _players(("random",), n, rnd.stream_seed, log),
            round_no=rnd.round_no,
            prev_starter=rnd.prev_starter,
            prev_winner=rnd.prev_starter,
        )
        want = replace(rnd.result, deal=None, actions=None)
        if got != want:
            k = next(
                (k for k, (a, b) in enumerate(zip(log, rnd.decisions, strict=False)) if a != b),
                min(len(log), len(rnd.decisions)),
            )
            acts = _decision_actions(rnd.result)
            where = (
                f"decision {k + 1}: the kernel's {_describe(spec, acts[k])}"
                if k < len(acts)
                else f"decision {k + 1}, after the kernel's last choice"
            )
            raise AssertionError(_fail(case, "lean", rnd, _fields(want), _fields(got), where))
        checked += 1
    return checked


class KernelRound(Protocol):
    """A round the kernel played, with its seeds (each equality test has its own kind)."""

    @property
    def index(self) -> int: ...
    @property
    def deal_seed(self) -> int: ...
    @property
    def stream_seed(self) -> int: ...
    @property
    def round_no(self) -> int: ...
    @property
    def result(self) -> RoundResult: ...


def _clauses_agree(
    case: str, backend: str, spec: RuleSpec, n: int, rounds: Sequence[KernelRound], out: Rounds
) -> None:
    """Every clause the check counts from the fast path's rounds
    (:func:`~deckgen.rulecheck.batchcount.clause_masks`) is counted in exactly the rounds
    where the kernel decided it."""
    masks = clause_masks(spec, n, out, np.array([rnd.round_no == 1 for rnd in rounds]))
    for k, rnd in enumerate(rounds):
        want = set(rnd.result.clauses) & set(masks)
        got = {cid for cid, mask in masks.items() if mask[k]}
        if got != want:
            raise AssertionError(
                f"{case}: {backend} counts {sorted(got - want)} and misses {sorted(want - got)} "
                f"in round {rnd.index} (deal seed {rnd.deal_seed}, stream seed "
                f"{rnd.stream_seed}, round_no {rnd.round_no}; the kernel decided "
                f"{sorted(rnd.result.clauses)})"
            )


def _stream(seed: int) -> list[float]:
    gen = random.Random(seed)
    return [gen.random() for _ in range(STREAM)]


def _check_numpy(
    spec: RuleSpec, n: int, lineup: tuple[str, ...], case: str, rounds: list[Round], board: bool
) -> int:
    t = compile_tables(spec, n)
    engine_line: FastLine = FastBoard(spec, t) if board else FastLine(spec, t)
    g = len(rounds)
    tiles = len(spec.dset)
    if board:
        hands: Hands = np.zeros((g, n, tiles), dtype=bool)
    else:
        hands = np.zeros((g, n), dtype=engine_line.dtype)
    first = rounds[0].result.deal
    assert first is not None
    width = len(first.stock) + len(first.dead)
    rest = np.zeros((g, width), dtype=np.int64)
    for k, rnd in enumerate(rounds):
        d = rnd.result.deal
        assert d is not None
        for s, h in enumerate(d.hands):
            if board:
                hands[k, s, h] = True
            else:
                hands[k, s] = sum(1 << i for i in h)
        rest[k] = d.stock + d.dead
    op = spec.params.opening
    later = np.array([rnd.round_no > 1 for rnd in rounds])
    lead_any = later & (op.later_lead == "any")
    starter, lead = engine_line.first_rule(hands, lead_any=False)
    for k, rnd in enumerate(rounds):  # later rounds: the kernel's starter rule
        if rnd.round_no > 1 and op.later_starter in ("next_seat", "round_winner"):
            starter[k] = rnd.result.starter
            lead[k] = -1
        if lead_any[k]:
            lead[k] = -1
    numbers = np.array([_stream(rnd.stream_seed) for rnd in rounds])
    kinds = tuple(lineup[min(s, len(lineup) - 1)] for s in range(n))
    out = engine_line.play(
        Deals(hands, rest), starter, lead, lead_any, kinds, RoundStreams(numbers)
    )
    name = "numpy board" if board else "numpy line"
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
    return g


@pytest.mark.parametrize(
    ("rid", "n", "lineup"), CASES, ids=[f"{r}-{n}-{'+'.join(b)}" for r, n, b in CASES]
)
def test_every_backend_equals_the_kernel(rid: str, n: int, lineup: tuple[str, ...]) -> None:
    spec = SPECS[rid]
    case = f"{rid}, {n} players, {'+'.join(lineup)}"
    rounds = _kernel_rounds(spec, n, lineup)
    t = compile_tables(spec, n)
    checked = 0
    if lineup == ("random",) and lean.supports(t) is None:
        checked += _check_lean(spec, n, case, rounds)
    # compiled only: trains and feet (*_jit_trains.py), scoring during play (*_jit_board.py)
    numpy_plays = t.shape not in ("trains", "chicken_foot") and not t.ends_multiple
    numpy_plays = numpy_plays and spec.params.scoring.round_to is None  # (*_jit_board.py)
    if unsupported(spec, lineup, n) is None and numpy_plays:
        if t.shape == "line" and len(t.tiles) <= 64:
            checked += _check_numpy(spec, n, lineup, case, rounds, board=False)
        checked += _check_numpy(spec, n, lineup, case, rounds, board=True)
    elsewhere = spec.params.scoring.round_to is not None  # compiled only: *_jit_board.py
    assert checked or elsewhere or lean.supports(t) is not None, f"{case}: nothing compared"


def test_a_differing_backend_is_named_with_its_round_and_action() -> None:
    spec = SPECS["card-domino"]
    rounds = _kernel_rounds(spec, 3, ("random",))
    other = [replace(r, stream_seed=r.stream_seed + 1) for r in rounds]
    with pytest.raises(AssertionError, match=r"lean differs from the kernel in round 0 .*decision"):
        _check_lean(spec, 3, "card-domino", other)
    with pytest.raises(AssertionError, match=r"numpy line differs from the kernel in round 0"):
        _check_numpy(spec, 3, ("random",), "card-domino", other, board=False)
