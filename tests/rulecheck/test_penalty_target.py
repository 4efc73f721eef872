"""A match to a target under penalty scoring: the check names the cause, tune too.

Penalty points take each side's own pips off its total and only going out adds (the
bonus), so a target of 150 with a bonus of 5 needs at least 30 rounds in which the same
side goes out, and without a bonus it is never reached. A designer's review found the
check reporting only "matches did not end within 1000 rounds" for such a file, and
``rules tune`` blaming "how the game is built" (and printing negative minutes).
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from deckgen.rulecheck.messages import message_of
from deckgen.rulecheck.statics import spec_findings
from deckgen.rulecheck.tune import _interval
from deckgen.rulespec import RuleSpec, load_rules, rules_from_data

BUNDLED = sorted(p.stem for p in (Path(__file__).parents[2] / "rules").glob("*.toml"))


def _penalty(bonus: int, target: int = 150) -> RuleSpec:
    spec = load_rules("draw-classic")
    raw = copy.deepcopy(spec.raw)
    raw["scoring"].update(method="penalty", out_bonus=bonus)
    raw["match"]["target"] = target
    if bonus:
        text = {"de": "Wer ausmacht, bekommt {bonus} Punkte.", "en": "Going out earns {bonus}."}
        raw["clause"].append({"id": "score.bonus", "section": "scoring", "text": text})
    return rules_from_data(raw)


def _about_target(spec: RuleSpec, lang: str = "en") -> list[str]:
    return [
        message_of(f, lang)
        for f in spec_findings(spec)
        if f.get("param") == "match.target" and "penalty" in message_of(f, "en")
    ]


def test_a_penalty_match_to_a_target_says_how_many_rounds_of_going_out_it_needs() -> None:
    (en,) = _about_target(_penalty(5))
    assert "150 points take at least 30 rounds in which the same side goes out" in en
    assert "match.end = rounds" in en
    (de,) = _about_target(_penalty(5), "de")
    assert "150 Punkte brauchen mindestens 30 Runden" in de


def test_without_a_bonus_for_going_out_no_penalty_match_reaches_its_target() -> None:
    (en,) = _about_target(_penalty(0))
    assert "no match reaches 150 points" in en


@pytest.mark.parametrize("rid", BUNDLED)
def test_no_bundled_file_is_told_its_target_is_out_of_reach(rid: str) -> None:
    assert _about_target(load_rules(rid)) == []


def test_an_interval_of_minutes_or_shares_never_starts_below_zero() -> None:
    sec = {"stats": {"playing_time_minutes": {"ci95": [-316.0, 5214.0]}}}
    assert _interval("match_time", sec) == (0.0, 5214.0)
    signed = {
        "stats": {"first_player_win_share": {"ci95": [0.4, 0.6]}, "first_player_fair_share": 0.5}
    }
    low, high = _interval("first_player", signed) or (0.0, 0.0)
    assert low == pytest.approx(-0.1)
    assert high == pytest.approx(0.1)


def test_the_terminal_grades_design_warnings_as_the_markdown_report_does() -> None:
    """Under a broken verdict the terminal lists the design findings too: each with its
    severity, as the Markdown report labels them ("fail:", "warn:")."""
    from deckgen.cli.check import summary_lines

    report = {
        "rules": {"id": "x"},
        "verdict": "broken",
        "reasons": ["11 of 11 matches did not end"],
        "warnings": [{"severity": "fail", "message": "a match takes 82 hours"}],
        "players": {},
    }
    assert "  - fail: a match takes 82 hours" in summary_lines(report)
