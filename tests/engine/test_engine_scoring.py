"""Each variant's scoring on hand-made positions, checked against its rules text."""

from __future__ import annotations

import pytest

from deckgen.engine.scoring import band_points, score_round
from deckgen.engine.tables import compile_tables
from deckgen.rulespec import load_rules


def _score(rid: str, players: int, end: str, out_seat: int, values: list[int]):  # type: ignore[no-untyped-def]
    spec = load_rules(rid)
    t = compile_tables(spec, players)
    return score_round(t, spec.params.scoring, end, out_seat, values)


@pytest.mark.parametrize(("pips", "points"), [(0, 1), (9, 1), (10, 2), (19, 2), (20, 3), (45, 5)])
def test_tens_bands(pips: int, points: int) -> None:
    assert band_points(pips, 10) == points
    assert band_points(pips, None) == pips


def test_partnership_out_scores_opponents_pips_by_tens() -> None:
    # seat 1 goes out; its partner seat 3 holds 4 pips, opponents hold 12 + 7 = 19 -> 2 points
    winners, points, fired, gaps = _score("partnership", 4, "out", 1, [12, 0, 7, 4])
    assert winners == (1,)
    assert points == (0, 2)
    assert not gaps
    assert {"score.out", "score.bands"} <= set(fired)


def test_partnership_blocked_lower_team_takes_all_pips_by_tens() -> None:
    # team 0+2: 10 + 5 = 15, team 1+3: 9 + 11 = 20; all pips 35 -> 4 points to team 0
    winners, points, fired, _ = _score("partnership", 4, "blocked", -1, [10, 9, 5, 11])
    assert winners == (0,)
    assert points == (4, 0)
    assert "score.blocked" in fired


def test_partnership_blocked_tie_nobody_scores() -> None:
    winners, points, fired, gaps = _score("partnership", 4, "blocked", -1, [10, 9, 5, 6])
    assert winners == ()
    assert points == (0, 0)
    assert "score.tie" in fired
    assert not gaps


def test_two_player_bonus_and_penalties() -> None:
    winners, points, fired, _ = _score("two-player", 2, "out", 0, [0, 23])
    assert winners == (0,)
    assert points == (5, -23)
    assert "score.bonus" in fired
    winners, points, fired, _ = _score("two-player", 2, "reserve", -1, [8, 23])
    assert winners == ()
    assert points == (-8, -23)
    assert "score.bonus" not in fired


def test_card_domino_four_players() -> None:
    _, points, _, _ = _score("card-domino", 4, "out", 2, [3, 11, 0, 20])
    assert points == (-3, -11, 5, -20)


def test_block_classic_winner_takes_the_others_pips() -> None:
    winners, points, _, _ = _score("block-classic", 3, "out", 1, [12, 0, 9])
    assert winners == (1,)
    assert points == (0, 21, 0)
    winners, points, _, _ = _score("block-classic", 3, "blocked", -1, [12, 4, 9])
    assert winners == (1,)
    assert points == (0, 21, 0)
    winners, points, fired, _ = _score("block-classic", 3, "blocked", -1, [12, 4, 4])
    assert winners == ()
    assert points == (0, 0, 0)
    assert "score.tie" in fired


def test_double_twelve_lowest_takes_the_differences() -> None:
    # the booklet's example: 15, 10 and 8 pips -> the 8 collects 7 + 2 = 9
    winners, points, _, _ = _score("double-twelve", 3, "blocked", -1, [15, 10, 8])
    assert winners == (2,)
    assert points == (0, 0, 9)
    # going out: zero pips collects every other count
    winners, points, _, _ = _score("double-twelve", 3, "out", 0, [0, 10, 8])
    assert winners == (0,)
    assert points == (18, 0, 0)
    # a tie for the lowest: both win and each collects from the higher hand
    winners, points, fired, _ = _score("double-twelve", 3, "blocked", -1, [15, 8, 8])
    assert winners == (1, 2)
    assert points == (0, 7, 7)
    assert "score.tie" in fired


def test_out_wins_even_against_a_zero_hand() -> None:
    winners, points, _, _ = _score("double-twelve", 2, "out", 1, [0, 0])
    assert winners == (1,)
    assert points == (0, 0)


def test_a_file_without_a_tie_rule_reports_a_gap() -> None:
    spec = load_rules("block-classic")
    raw = dict(spec.raw)
    raw["scoring"] = {k: v for k, v in raw["scoring"].items() if k != "tie"}
    raw["clause"] = [c for c in raw["clause"] if c["id"] != "score.tie"]
    raw["note"] = [n for n in raw["note"] if "score.tie" not in n["clauses"]]
    from deckgen.rulespec import rules_from_data

    bare = rules_from_data(raw, path="bare.toml")
    t = compile_tables(bare, 3)
    winners, points, fired, gaps = score_round(t, bare.params.scoring, "blocked", -1, [12, 4, 4])
    assert winners == ()
    assert points == (0, 0, 0)
    assert [g.situation for g in gaps] == ["score.tie"]
    assert "score.tie" not in fired
