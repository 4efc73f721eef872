"""Facts printed in the booklet: from the rules check report, or simulated and labelled."""

from __future__ import annotations

import html as htmllib
import re
from typing import Any

import pytest

from deckgen.booklet.content import Extras, build_booklet
from deckgen.booklet.facts import facts_from_report
from deckgen.booklet.html import PAGE_FORMATS, render_html
from deckgen.booklet.play import facts_players, simulated_facts
from deckgen.rulespec import load_rules

A5 = PAGE_FORMATS["a5"]


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    from deckgen.rulecheck.check import CheckOptions, run_check
    from deckgen.rulecheck.report import build_report

    rules = load_rules("card-domino")
    return build_report(run_check(rules, CheckOptions(rounds=2000, players=(3,), workers=1)))


def _text(rules, extras: Extras, lang: str) -> str:  # type: ignore[no-untyped-def]
    body = render_html(build_booklet(rules, lang, A5, extras), A5).split("<body>", 1)[1]
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", body)))


def test_facts_from_the_check_report(report: dict[str, Any]) -> None:
    facts = facts_from_report(report, players=3)
    assert facts is not None
    assert facts.source == "check"
    stats = report["players"]["3"]["stats"]
    assert facts.rounds == stats["rounds"] >= 2000
    assert facts.blocked_share == stats["round_end"]["not_out"]["share"]
    assert facts.starter_win_share == stats["first_player_win_share"]["share"]
    assert facts.minutes_per_match == stats["playing_time_minutes"]["mean"]
    assert facts.seconds_per_turn == report["playing_time"]["seconds_per_turn"]
    assert facts.blocked_ci == tuple(stats["round_end"]["not_out"]["ci95"])


def test_report_without_figures_gives_none() -> None:
    assert facts_from_report({}, players=3) is None
    assert facts_from_report({"players": {"3": {"stats": {"rounds": 5}}}}, players=3) is None


def test_simulation_agrees_with_the_check(report: dict[str, Any]) -> None:
    rules = load_rules("card-domino")
    sim = simulated_facts(rules, rounds=2000)
    checked = facts_from_report(report, players=facts_players(rules))
    assert checked is not None
    assert sim.players == checked.players == 3
    assert checked.blocked_ci is not None
    assert checked.starter_ci is not None
    # independent samples of the same game: within a few standard errors
    assert abs(sim.blocked_share - checked.blocked_share) < 0.06
    assert abs(sim.starter_win_share - checked.starter_win_share) < 0.07
    assert abs(sim.turns_per_round - checked.turns_per_round) < 1.5


@pytest.mark.parametrize("lang", ["de", "en"])
def test_booklet_says_where_figures_come_from(report: dict[str, Any], lang: str) -> None:
    """The player's booklet prints no statistics: the title page's playing time with
    its footnote, and in the quick reference one line on how long a round takes, only
    when the check marked the figure reliable (never from the booklet's own rounds)."""
    rules = load_rules("card-domino")
    checked = facts_from_report(report, players=3)
    assert checked is not None
    text = _text(rules, Extras(facts=checked), lang)
    rounds = report["players"]["3"]["stats"]["rounds"]
    shown = f"{rounds:,}".replace(",", "." if lang == "de" else ",")
    assert shown in text  # the title page's footnote
    minutes = round(checked.minutes_per_match / checked.rounds_per_match)
    line = {
        "de": f"Eine Runde dauert etwa {minutes} Minuten",
        "en": f"A round takes about {minutes} minutes",
    }[lang]
    assert line in text
    sim_text = _text(rules, Extras(facts=simulated_facts(rules, rounds=500)), lang)
    assert line.split(" etwa")[0].split(" about")[0] not in sim_text
    for stat in ("95", "Rounds simulated", "Simulierte Runden", "Startspieler gewinnt"):
        assert stat not in text
    assert {"de": "ca. 20 Minuten", "en": "About 20 minutes"}[lang] in text
