"""Game records: round trips for every variant, tampered records, gaps, the board."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from deckgen.engine import Engine, make_bots, play_match
from deckgen.engine.board import board_after, build_board
from deckgen.engine.match import match_over
from deckgen.engine.record import GameRecord, load_record, match_record, record_json, replay
from deckgen.errors import SpecError
from deckgen.rulespec import list_rules, load_rules, rules_from_data

SPECS = {s.id: s for s in list_rules()}


def _record(rid: str, players: int, seed: int, bots: list[str]) -> dict:  # type: ignore[type-arg]
    spec = SPECS[rid]
    m = play_match(Engine(spec, players), make_bots(bots, players, seed), seed, record=True)
    return match_record(spec, m, seed=seed, bots=bots)


@pytest.mark.parametrize("rid", sorted(SPECS))
def test_round_trip_every_variant(rid: str, tmp_path: Path) -> None:
    spec = SPECS[rid]
    for n in spec.player_counts:
        rec = _record(rid, n, 100 + n, ["smart", "random", "greedy"])
        path = tmp_path / f"{rid}-{n}.json"
        path.write_text(record_json(rec), encoding="utf-8")
        report = replay(load_record(path))
        assert report.ok, report.message
        assert report.actions == sum(len(r["actions"]) for r in rec["rounds"])


def _first_play(rec: dict, rno: int) -> int:  # type: ignore[type-arg]
    return next(k for k, a in enumerate(rec["rounds"][rno]["actions"]) if a["act"] == "play")


def test_tampered_move_fails_at_that_action() -> None:
    rec = _record("card-domino", 3, 4, ["random"])
    bad = copy.deepcopy(rec)
    k = _first_play(bad, 1)
    a = bad["rounds"][1]["actions"][k]
    a["end"] = 1 - a["end"]
    report = replay(GameRecord.model_validate(bad))
    assert not report.ok
    assert report.round_no == 2
    assert report.action_no == k + 1
    assert f"action {k + 1}" in report.message


def test_tampered_draw_and_score_and_deal_fail() -> None:
    rec = _record("two-player", 2, 9, ["random"])
    for rno, r in enumerate(rec["rounds"]):
        draws = [k for k, a in enumerate(r["actions"]) if a["act"] == "draw"]
        if draws:
            bad = copy.deepcopy(rec)
            k = draws[0]
            other = next(
                t for t in bad["rounds"][rno]["deal"]["stock"] if t != r["actions"][k]["tile"]
            )
            bad["rounds"][rno]["actions"][k]["tile"] = other
            report = replay(GameRecord.model_validate(bad))
            assert not report.ok
            assert report.round_no == rno + 1
            assert report.action_no == k + 1
            break
    else:
        pytest.fail("no draw in the match")
    bad = copy.deepcopy(rec)
    bad["rounds"][0]["result"]["points"][1] -= 1
    report = replay(GameRecord.model_validate(bad))
    assert not report.ok
    assert "points" in report.message
    bad = copy.deepcopy(rec)
    hand0 = bad["rounds"][0]["deal"]["hands"][0]
    hand0[0] = bad["rounds"][0]["deal"]["hands"][1][0]
    report = replay(GameRecord.model_validate(bad))
    assert not report.ok
    assert "exactly once" in report.message
    bad = copy.deepcopy(rec)
    bad["rounds"][0]["actions"] = bad["rounds"][0]["actions"][:-1]
    assert not replay(GameRecord.model_validate(bad)).ok


def test_broken_record_file_is_a_user_error(tmp_path: Path) -> None:
    p = tmp_path / "r.json"
    p.write_text("{not json", encoding="utf-8")
    with pytest.raises(SpecError):
        load_record(p)
    p.write_text(json.dumps({"format": "deckgen-game-record", "version": 2}), encoding="utf-8")
    with pytest.raises(SpecError):
        load_record(p)


def test_board_state_for_diagrams_matches_engine_ends() -> None:
    for rid in ("two-player", "double-twelve", "partnership"):
        spec = SPECS[rid]
        n = spec.player_counts[-1]
        e = Engine(spec, n)
        r = e.play_round(random.Random(3), make_bots(["random"], n, 3), record=True)
        assert r.actions is not None
        first_seat = r.actions[0].seat if r.turned_up < 0 else -1
        plays = [a for a in r.actions if a.kind == "play"]
        board = build_board(spec.params.board.shape, e.t.tiles, r.lead_tile, first_seat, plays)
        assert len(board.tiles) == r.tiles_played + (1 if r.turned_up >= 0 else 0)
        for p in board.tiles[1:]:
            parent = board.tiles[p.parent]
            assert p.inner in (parent.inner, parent.outer)
            assert p.tile.has(p.inner)
        if rid == "double-twelve":
            assert board.spinner == 0
            assert board.tiles[0].crosswise
            assert len(board.ends) == 4 + 2 * sum(1 for p in board.tiles[1:] if p.crosswise)
        else:
            assert len(board.ends) == 2
            assert not any(p.crosswise for p in board.tiles)
        assert json.dumps(board.as_dict())
        assert board_after(spec, r) == board
        for k in (1, len(r.actions) // 2):
            want = 1 + sum(1 for a in r.actions[:k] if a.kind == "play")
            assert len(board_after(spec, r, upto=k).tiles) == want


def _without(rid: str, section: str, key: str, clause: str) -> object:
    raw = copy.deepcopy(SPECS[rid].raw)
    raw[section].pop(key, None)
    raw["clause"] = [c for c in raw["clause"] if c["id"] != clause]
    raw["note"] = [n for n in raw.get("note", []) if clause not in n.get("clauses", [])]
    return rules_from_data(raw, path=f"{rid}-bare.toml")


def test_missing_rules_become_gaps_not_inventions() -> None:
    bare = _without("double-twelve", "opening", "no_double", "start.no_double")
    e = Engine(bare, 2, check_invariants=True)  # type: ignore[arg-type]
    rng = random.Random(0)
    gaps = []
    for _ in range(300):
        r = e.play_round(rng, make_bots(["random"], 2, 0))
        gaps += [g.situation for g in r.gaps]
    assert "start.no_double" in gaps  # about 1 deal in 10 has no double with 2 players
    bare = _without("block-classic", "opening", "later_starter", "start.later")
    e = Engine(bare, 2)  # type: ignore[arg-type]
    m = play_match(e, make_bots(["random"], 2, 1), 1)
    assert "start.later" in [g.situation for g in m.all_gaps()]
    bare = _without("two-player", "match", "tie", "match.tie")
    e = Engine(bare, 2)  # type: ignore[arg-type]
    totals = [-10, -10]
    gaps2: list = []  # type: ignore[type-arg]
    assert match_over(e, totals, 4, set(), gaps2) == (0, 1)
    assert [g.situation for g in gaps2] == ["match.tie"]


def test_several_reach_target_rule() -> None:
    e = Engine(SPECS["double-twelve"], 3)
    fired: set[str] = set()
    gaps: list = []  # type: ignore[type-arg]
    assert match_over(e, [104, 120, 50], 7, fired, gaps) == (1,)
    assert "match.several_at_target" in fired
    assert not gaps
    fired = set()
    assert match_over(e, [110, 110, 50], 7, fired, gaps) is None  # level: play on
    assert "match.tie" in fired


def test_load_rules_by_alias_matches_record_rules() -> None:
    assert load_rules("Doppel-12").id == "double-twelve"
    assert load_rules("Partnerdomino").id == "partnership"


def test_broken_invariant_during_replay_is_a_failed_replay(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """An engine invariant that breaks while replaying is reported, not a traceback.

    The fifth time a recorded seat is asked, it also slips one of its own tiles into the
    stock (through the round its view carries), so the kernel's own tile check finds a
    tile in two places after that move."""
    from deckgen.engine import record

    rec = _record("two-player", 2, 3, ["random"])
    calls = {"n": 0}
    real = record._Scripted.choose

    def cheating(self, view, moves):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 5:
            held = (view.hand & -view.hand).bit_length() - 1
            view.round.stock.append(held)
        return real(self, view, moves)

    monkeypatch.setattr(record._Scripted, "choose", cheating)
    report = replay(GameRecord.model_validate(rec))
    assert calls["n"] >= 5
    assert not report.ok
    assert "invariant broke" in report.message
    assert "is also somewhere else" in report.message or "missing or doubled" in report.message
