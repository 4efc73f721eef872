"""The kernel plays the other reading of a clause when its tables say so.

Some clauses can be read two ways (``deckgen.rulecheck.readings``); the kernel plays
the rules files' reading by default and the other one when a field of its tables is
set (``Tables.block_on_passes``, ``Tables.draw_per_turn``, ``Tables.reserve_pass``). Each is
proved here on the hand-made deal of its scenario file (``scenarios/``): the same
deal and the same choices, played under both readings, the whole round written out.
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from deckgen.engine.finish import Finisher
from deckgen.engine.results import DealRecord, Gap, RoundResult
from deckgen.engine.setup import RoundStart, setup_round
from deckgen.engine.state import RoundState
from deckgen.engine.tables import Tables, compile_tables
from deckgen.rulespec import RuleSpec, load_rules

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def _scenario(name: str) -> tuple[RuleSpec, DealRecord, dict[str, Any]]:
    data = tomllib.loads((SCENARIOS / name).read_text())
    spec = load_rules(data["rules"])
    spec = spec.with_changes(data["changes"]) if "changes" in data else spec
    index = {str(t): i for i, t in enumerate(spec.dset.tiles)}
    deal = data["deal"]
    record = DealRecord(
        hands=[[index[x] for x in h] for h in deal["hands"]],
        stock=[index[x] for x in deal["stock"]],
        dead=[index[x] for x in deal.get("dead", [])],
    )
    return spec, record, data


def _play(spec: RuleSpec, t: Tables, deal: DealRecord, script: list[str]) -> RoundResult:
    """Play the deal with ``t``: each lay is the one ``script`` names next (draws,
    passes and the end come from the kernel); the round's actions are written out."""
    fired: set[str] = set()
    gaps: list[Gap] = []
    setup = setup_round(t, random.Random(0), RoundStart(), fired=fired, gaps=gaps, deal=deal)
    state = RoundState(t, Finisher(t), setup, fired=fired, gaps=gaps, actions=[], check=True)
    tiles = spec.dset.tiles
    while not state.is_over:
        assert state.actions is not None
        want = script[len(state.actions)] if len(state.actions) < len(script) else "(nothing)"
        for m in state.legal_moves():
            if f"{state.seat} plays {tiles[m.tile]} on {m.value} (end {m.end})" == want:
                state.apply(m)
                break
        else:
            raise AssertionError(f"action {len(state.actions)}: '{want}' is not a legal move")
    return state.result()


def _described(spec: RuleSpec, r: RoundResult) -> list[str]:
    tiles = spec.dset.tiles
    assert r.actions is not None
    out = []
    for a in r.actions:
        if a.kind == "pass":
            out.append(f"{a.seat} passes")
        elif a.kind == "draw":
            out.append(f"{a.seat} draws {tiles[a.tile]}")
        else:
            out.append(f"{a.seat} plays {tiles[a.tile]} on {a.value} (end {a.end})")
    return out


def test_block_after_a_full_circle_of_passes() -> None:
    """``end.blocked``, read as "a full circle of passes with an empty stock": seat 2's
    pass opens its train and seat 1 could lay 2-10 there, but the circle of passes is
    complete, so the round ends blocked at once. Seat 1 keeps 2-10, 5-6 and 0-1 (24
    pips), seat 2 keeps 3-4 (7)."""
    spec, deal, data = _scenario("end.blocked-open-train.toml")
    t = compile_tables(spec, 2)
    other = _play(spec, replace(t, block_on_passes=True), deal, data["expect"]["actions"])
    assert _described(spec, other) == [
        "0 draws 0-1",
        "0 passes",
        "1 plays 2-12 on 12 (end 1)",
        "0 passes",
        "1 passes",
    ]
    assert other.end == "blocked"
    assert list(other.points) == [-24, -7]
    # the files' reading (the default) plays on: seat 1 lays 2-10 on the opened train
    played = _play(spec, t, deal, data["expect"]["actions"])
    assert _described(spec, played) == data["expect"]["actions"]
    assert list(played.points) == data["expect"]["points"] == [-12, -7]


def test_one_draw_per_turn_even_to_cover_a_drawn_double() -> None:
    """``play.draw_limit``, read as "no more than one tile in one turn": seat 1 drew
    the 5-5 it laid, so it may not draw again to cover it; it passes (its train opens)
    and seat 2 must cover the double: it draws 5-6 and lays it. Seat 1 then has
    nothing for 6, 7 or 12 and passes; seat 2 goes out with 7-8."""
    spec, deal, data = _scenario("play.draw_limit-double.toml")
    t = compile_tables(spec, 2)
    script = [
        "0 plays 5-12 on 12 (end 0)",
        "1 plays 7-12 on 12 (end 1)",
        "0 draws 5-5",
        "0 plays 5-5 on 5 (end 0)",
        "0 passes",
        "1 draws 5-6",
        "1 plays 5-6 on 5 (end 0)",
        "0 passes",
        "1 plays 7-8 on 7 (end 1)",
    ]
    other = _play(spec, replace(t, draw_per_turn=True), deal, script)
    assert _described(spec, other) == script
    assert other.end == "out"
    assert list(other.points) == [-7, 0]
    assert other.draws == 2
    assert {"play.draw_limit", "play.open_train", "play.satisfy_double"} <= set(other.clauses)
    # the files' reading (the default): seat 1 draws 5-6 itself and covers its double
    played = _play(spec, t, deal, data["expect"]["actions"])
    assert _described(spec, played) == data["expect"]["actions"]
    assert "0 draws 5-6" in _described(spec, played)


def test_a_pass_when_own_draws_reach_the_reserve() -> None:
    """``end.reserve``, read as "the round ends when the next player cannot lay a
    tile": seat 1's third draw leaves only the reserve of 2 and 5-6 does not fit the
    turned-up 0-1, so it passes (the files' reading ends the round right there). Seat 2
    lays 1-1 across the 1; seat 1 still has nothing for 0 or 1 with only the reserve
    left, and the round ends. Seat 2 kept 2 pips fewer: 44 instead of 46."""
    spec, deal, data = _scenario("end.reserve-after-own-draws.toml")
    t = compile_tables(spec, 2)
    script = ["0 draws 4-6", "0 draws 5-5", "0 draws 5-6", "0 passes", "1 plays 1-1 on 1 (end 1)"]
    other = _play(spec, replace(t, reserve_pass=True), deal, script)
    assert _described(spec, other) == script
    assert other.end == "reserve"
    assert list(other.points) == [-108, -44]
    assert {"end.reserve", "play.pass"} <= set(other.clauses)
    played = _play(spec, t, deal, data["expect"]["actions"])
    assert _described(spec, played) == data["expect"]["actions"]
    assert list(played.points) == data["expect"]["points"] == [-108, -46]
    assert "play.pass" not in played.clauses


@pytest.mark.parametrize("field", ["block_on_passes", "draw_per_turn", "reserve_pass"])
def test_the_files_reading_is_the_default(field: str) -> None:
    """Compiled tables play the files' reading; a state copy keeps the turn's draws."""
    spec = load_rules("mexican-train")
    t = compile_tables(spec, 2)
    assert getattr(t, field) is False
    fired: set[str] = set()
    gaps: list[Gap] = []
    setup = setup_round(t, random.Random(3), RoundStart(), fired=fired, gaps=gaps)
    state = RoundState(t, Finisher(t), setup, fired=fired, gaps=gaps)
    state.turn_drew = 1
    assert state.copy().turn_drew == 1
