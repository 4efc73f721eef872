"""Mexican Train on the kernel: the train layout's rules, whole matches, records.

The scenario files ``scenarios/lead.station.toml``, ``play.open_train.toml`` and
``play.satisfy_double.toml`` play scripted rounds; here the train rules are checked
move by move (which trains a seat may use, the double to satisfy, open markers), every
bot plays whole matches with the invariants on, and the records replay exactly.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from deckgen.engine import DealRecord, Engine, make_bots, play_match
from deckgen.engine.record import load_record, match_record, record_json, replay
from deckgen.engine.trains import Trains, station_value
from deckgen.errors import DeckgenError
from deckgen.rulespec import load_rules
from deckgen.tiles import Tile

SPEC = load_rules("mexican")
SHORT = SPEC.with_changes({"deal.hand_size": {str(n): 3 for n in range(2, 9)}})


def _deal(hands: list[list[str]], stock: list[str]) -> DealRecord:
    idx = {str(t): i for i, t in enumerate(SPEC.dset.tiles)}
    used = {str(Tile.parse(x)) for h in hands for x in h} | {str(Tile.parse(x)) for x in stock}
    rest = [str(Tile.parse(x)) for x in stock] + [
        str(t) for t in SPEC.dset.tiles if str(t) not in used
    ]
    return DealRecord(
        hands=[[idx[str(Tile.parse(x))] for x in h] for h in hands],
        stock=[idx[x] for x in rest],
        dead=[],
    )


def test_station_goes_down_one_a_round() -> None:
    assert [station_value(12, r) for r in range(1, 14)] == list(range(12, -1, -1))
    assert station_value(9, 11) == 9


def test_which_trains_a_seat_may_use() -> None:
    engine = Engine(SHORT, 3, check_invariants=True)
    deal = _deal([["12-5", "5-5", "3-4"], ["12-1", "0-1", "5-6"], ["1-2", "2-3", "3-5"]], [])
    state = engine.start_round(random.Random(0), deal=deal)
    assert isinstance(state.layout, Trains)
    assert state.layout.ends == [12, 12, 12, 12]  # three trains and the Mexican Train
    moves = state.legal_moves()
    assert {m.end for m in moves} == {0, 3}  # own train and the Mexican Train
    state.apply(next(m for m in moves if m.end == 0))
    assert state.seat == 1
    assert {m.end for m in state.legal_moves()} == {1, 3}
    state.apply(next(m for m in state.legal_moves() if m.end == 1))
    # seat 2 holds no 12: draws one (no fit), passes and its train is open
    assert state.layout.open == [False, False, True]
    assert state.seat == 0
    double = next(m for m in state.legal_moves() if str(SPEC.dset.tiles[m.tile]) == "5-5")
    state.apply(double)
    # the double waits on seat 0's train: seat 0 moves again, only that end counts
    assert state.layout.pending == 0
    assert state.actions is not None
    assert [a.kind for a in state.actions[-3:]] == ["play", "draw", "pass"]
    assert state.seat == 1
    assert {m.end for m in state.legal_moves()} == {0}
    state.apply(state.legal_moves()[0])  # seat 1 covers it with 5-6
    assert state.layout.pending == -1
    assert state.layout.open[0]  # seat 0 passed while the double waited: open


@pytest.mark.parametrize("players", [2, 5, 8])
def test_every_bot_plays_a_match_and_it_replays(players: int, tmp_path: Path) -> None:
    engine = Engine(SPEC, players, check_invariants=True)
    names = ["smart", "greedy", "random"]
    m = play_match(engine, make_bots(names, players, 5), 5, record=True)
    assert len(m.rounds) == 13
    stations = [r.turned_up for r in m.rounds]
    assert [SPEC.dset.tiles[i] for i in stations] == [Tile(v, v) for v in range(12, -1, -1)]
    assert all(p <= 0 for r in m.rounds for p in r.points)
    assert any("play.open_train" in r.clauses for r in m.rounds)
    assert any("play.satisfy_double" in r.clauses for r in m.rounds)
    path = tmp_path / "mt.json"
    path.write_text(record_json(match_record(SPEC, m, seed=5, bots=names[:players])))
    rep = replay(load_record(path))
    assert rep.ok, rep.message


def test_trains_need_the_station() -> None:
    with pytest.raises(DeckgenError, match="station"):
        SPEC.with_changes({"opening.lead": "any"})
    with pytest.raises(DeckgenError, match="trains"):
        load_rules("two-player").with_changes({"opening.lead": "station"})


def _can_play(layout: Trains, hands: list[int]) -> list[int]:
    """The seats that hold a tile for a train they may use, read off the layout's state
    here (own train, open trains, the Mexican Train; only the double's while it waits)."""
    n = len(layout.open)
    out = []
    for s, hm in enumerate(hands):
        trains = (
            [layout.pending]
            if layout.pending >= 0
            else [e for e in range(n + 1) if e in (s, n) or layout.open[e]]
        )
        for e in trains:
            v = layout.ends[e]
            if any(hm >> i & 1 and v in (x.low, x.high) for i, x in enumerate(SPEC.dset.tiles)):
                out.append(s)
                break
    return out


def test_a_round_ends_blocked_only_when_nobody_can_play() -> None:
    """``end.blocked``: the passes of the last circle open trains, so an earlier passer
    may now fit a tile on one; the round goes on until nobody can play (11 % of
    2-player rounds ended too early before)."""
    engine = Engine(SPEC, 2)
    blocked = went_on = 0
    for seed in range(150):
        bots = make_bots(["random"], 2, seed)
        state = engine.start_round(random.Random(seed))
        while not state.is_over:
            moves = state.legal_moves()
            state.apply(bots[state.seat].choose(state.view((0, 0)), moves))
        assert state.actions is not None
        run = 0
        for a in state.actions:  # a play after a full circle of passes
            if a.kind == "pass":
                run += 1
            elif a.kind == "play":
                went_on += run >= 2
                run = 0
        if state.end == "blocked":
            blocked += 1
            assert isinstance(state.layout, Trains)
            assert not _can_play(state.layout, state.hands), (
                f"seed {seed}: the round was called blocked while a seat could still play"
            )
    assert blocked > 20
    assert went_on > 5
