"""Chicken Foot on the kernel: six arms on the centre, three toes on every double,
whole matches with every bot, records that replay, and the double-12 set as a variant.

``scenarios/play.chicken_foot.toml`` plays a scripted round; here the layout's rule is
checked move by move.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from deckgen.engine import DealRecord, Engine, make_bots, play_match
from deckgen.engine.chickenfoot import ChickenFoot
from deckgen.engine.record import load_record, match_record, record_json, replay
from deckgen.rulespec import load_rules
from deckgen.tiles import Tile

SPEC = load_rules("huehnerfuss")


def _name(i: int) -> str:
    return str(SPEC.dset.tiles[i])


def test_six_arms_then_a_foot_of_three_toes() -> None:
    short = SPEC.with_changes({"deal.hand_size": {str(n): 5 for n in range(2, 9)}})
    idx = {str(t): i for i, t in enumerate(SPEC.dset.tiles)}
    hands = [["1-9", "2-9", "3-9", "2-2", "1-1"], ["4-9", "5-9", "6-9", "0-2", "5-8"]]
    used = {x for h in hands for x in h}
    rest = ["2-7", "3-4", "2-5"]
    rest += [str(t) for t in SPEC.dset.tiles if str(t) not in used | set(rest)]
    deal = DealRecord([[idx[x] for x in h] for h in hands], [idx[x] for x in rest], [])
    state = Engine(short, 2, check_invariants=True).start_round(random.Random(0), deal=deal)
    lay = state.layout
    assert isinstance(lay, ChickenFoot)
    assert lay.ends == [9] * 6
    for _ in range(6):  # only the centre until it has six arms: one move per tile
        moves = state.legal_moves()
        assert {m.end for m in moves} == {lay.missing[0]}
        assert all(_name(m.tile).endswith("-9") for m in moves)
        state.apply(moves[0])
    assert not lay.missing
    double = next(m for m in state.legal_moves() if _name(m.tile) == "2-2")
    state.apply(double)
    assert lay.closed[double.end]
    assert lay.ends[6:] == [2, 2, 2]
    assert lay.missing == [6, 7, 8]
    # seat 1 may only play on the first toe, though 5-8 would fit elsewhere later
    assert [(_name(m.tile), m.end) for m in state.legal_moves()] == [("0-2", 6)]


@pytest.mark.parametrize("players", [2, 4, 8])
def test_every_bot_plays_a_match_and_it_replays(players: int, tmp_path: Path) -> None:
    engine = Engine(SPEC, players, check_invariants=True)
    names = ["smart", "greedy", "random"]
    m = play_match(engine, make_bots(names, players, 9), 9, record=True)
    assert [SPEC.dset.tiles[r.turned_up] for r in m.rounds] == [
        Tile(v, v) for v in range(9, -1, -1)
    ]
    assert all("play.chicken_foot" in r.clauses for r in m.rounds)
    path = tmp_path / "cf.json"
    path.write_text(record_json(match_record(SPEC, m, seed=9, bots=names[:players])))
    rep = replay(load_record(path))
    assert rep.ok, rep.message


def test_the_double_twelve_set_is_a_parameter() -> None:
    big = SPEC.with_changes(
        {
            "set": "double-12",
            "match.rounds": 13,
            "deal.hand_size": {"2": 21, "3": 18, "4": 15, "5": 13, "6": 11, "7": 10, "8": 9},
        }
    )
    m = play_match(Engine(big, 4, check_invariants=True), make_bots(["random"], 4, 3), 3)
    assert len(m.rounds) == 13
    assert big.params.board.shape == "chicken_foot"
