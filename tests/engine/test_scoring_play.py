"""Scoring during play (All Fives): the open ends' count, its points, rounding, records.

The scenario files (``scenarios/score.ends-*.toml``, ``score.rounding.toml``) give the
whole round; here their ``play_points`` are checked too, every played round's points
are recounted from its actions by a fresh layout, and bad parameters are refused
naming the key.
"""

from __future__ import annotations

import json
import random
import tomllib
from collections.abc import Sequence
from pathlib import Path

import pytest

from deckgen.engine import DealRecord, Engine, Move, PlayerView, make_bots, play_match
from deckgen.engine.endcount import EndCount, counts_of_round, ends_points, rounded
from deckgen.engine.record import load_record, match_record, record_json, replay
from deckgen.engine.tables import compile_tables
from deckgen.errors import DeckgenError
from deckgen.rulespec import RuleSpec, load_rules

HERE = Path(__file__).resolve().parent / "scenarios"
PLAY_SCENARIOS = sorted(p for p in HERE.glob("*.toml") if "play_points" in p.read_text())


class Scripted:
    """Makes the leads and plays the scenario lists, in order (draws and passes are forced)."""

    name = "scripted"

    def __init__(self, spec: RuleSpec, expected: list[str]) -> None:
        self.tiles = spec.dset.tiles
        self.expected = expected

    def choose(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        want = self.expected[len(view.history)]
        for m in moves:
            kind = "leads" if m.end < 0 else "plays"
            text = f"{view.seat} {kind} {self.tiles[m.tile]}" + (
                f" on {m.value}" if m.end >= 0 else ""
            )
            if not m.is_pass and text == want:
                return m
        raise AssertionError(f"'{want}' is not a legal move")


@pytest.mark.parametrize("path", PLAY_SCENARIOS, ids=[p.stem for p in PLAY_SCENARIOS])
def test_points_scored_during_play(path: Path) -> None:
    data = tomllib.loads(path.read_text())
    spec = load_rules(data["rules"])
    if data.get("changes"):
        spec = spec.with_changes(data["changes"])
    index = {str(t): i for i, t in enumerate(spec.dset.tiles)}
    deal = DealRecord(
        hands=[[index[x] for x in h] for h in data["deal"]["hands"]],
        stock=[index[x] for x in data["deal"]["stock"]],
        dead=[],
    )
    n = data["players"]
    engine = Engine(spec, n, check_invariants=True)
    players = [Scripted(spec, data["expect"]["actions"]) for _ in range(n)]
    r = engine.play_round(random.Random(0), players, deal=deal, record=True)
    assert list(r.play_points) == data["expect"]["play_points"]
    assert r.actions is not None
    counted = counts_of_round(engine.t, "spinner", r.turned_up, r.actions, 5)
    per_side = [0] * len(engine.t.sides)
    for a, cp in zip(r.actions, counted, strict=True):
        if cp is not None:
            per_side[engine.t.side_of[a.seat]] += cp[1]
    assert per_side == list(r.play_points)


class _T:
    """A tiny tile table: 5-5, 1-5, 3-3, 0-5 (deck indices 0..3)."""

    lo = (5, 1, 3, 0)
    hi = (5, 5, 3, 5)
    pipsum = (10, 6, 6, 5)
    is_double = (True, False, True, False)
    suit = (8, 2, 0, 4, 0, 11)


def test_the_count_of_a_led_spinner_and_its_sides() -> None:
    from deckgen.engine.layouts import Spinner

    t = _T()
    lay = Spinner()
    ec = EndCount()
    ec.start(t, 0, lay.start(t, 0))
    assert ec.count(lay.ends) == 10  # the lone double counts once, both halves
    ec.placed(t, 1, 0, lay.place(t, 1, 0))
    assert ec.count(lay.ends) == 11  # 1 + the spinner still free on its other side
    ec.placed(t, 3, 1, lay.place(t, 3, 1))
    assert ec.count(lay.ends) == 1  # both long sides covered, the sides not yet played
    ec.placed(t, 2, 2, False)  # pretend a 3 lies on a side: it counts from now on
    lay.ends[2] = 3
    assert ec.count(lay.ends) == 1 + 0 + 6  # a double at the end counts both halves


def test_points_and_rounding() -> None:
    assert [ends_points(c, 5) for c in (0, 5, 7, 10, 25)] == [0, 5, 0, 10, 25]
    assert [rounded(p, 5) for p in (0, 2, 3, 6, 12, 13, 15)] == [0, 0, 5, 5, 10, 15, 15]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_bot_plays_records_and_replays(players: int, tmp_path: Path) -> None:
    spec = load_rules("muggins")
    engine = Engine(spec, players, check_invariants=True)
    t = compile_tables(spec, players)
    names = ["smart", "greedy", "random"][: min(players, 3)]
    m = play_match(engine, make_bots(names, players, 11), 11, record=True)
    assert max(m.totals) >= 150
    assert sum(sum(r.play_points) for r in m.rounds) > 0
    for r in m.rounds:
        assert r.actions is not None
        for cp in counts_of_round(t, "spinner", r.turned_up, r.actions, 5):
            assert cp is None or cp[1] % 5 == 0
        end_points = [p - d for p, d in zip(r.points, r.play_points, strict=True)]
        assert all(p % 5 == 0 for p in end_points)
    path = tmp_path / "af.json"
    path.write_text(record_json(match_record(spec, m, seed=11, bots=names)))
    rep = replay(load_record(path))
    assert rep.ok, rep
    data = json.loads(path.read_text())
    data["rounds"][0]["result"]["points"][0] += 5  # a changed score is found
    path.write_text(json.dumps(data))
    assert not replay(load_record(path)).ok


@pytest.mark.parametrize(
    ("key", "value"),
    [("scoring.ends_multiple", 1), ("scoring.round_to", 0), ("scoring.ends_multiple", "five")],
)
def test_bad_parameters_name_the_key(key: str, value: object) -> None:
    with pytest.raises(DeckgenError) as info:
        load_rules("all-fives").with_changes({key: value})
    assert key.split(".")[1] in str(info.value)


def test_teams_only_at_four() -> None:
    spec = load_rules("all-fives")
    assert spec.teams(3) == [(0,), (1,), (2,)]
    assert spec.teams(4) == [(0, 2), (1, 3)]
    with pytest.raises(DeckgenError, match="opposite_at_4"):
        spec.with_changes({"players.counts": [2, 3]})
