"""Booklet content comes from the rules file: change a parameter, the text changes."""

from __future__ import annotations

import html as htmllib
import re

import pytest

from deckgen.booklet.content import Extras, build_booklet
from deckgen.booklet.diagram import BoardView
from deckgen.booklet.html import PAGE_FORMATS, render_html
from deckgen.booklet.play import example_round
from deckgen.rulespec import list_rules, load_rules

A5 = PAGE_FORMATS["a5"]


def _text(rules, lang: str, edition: str = "player") -> str:  # type: ignore[no-untyped-def]
    html = render_html(build_booklet(rules, lang, A5, Extras(edition=edition)), A5)  # type: ignore[arg-type]
    body = html.split("<body>", 1)[1]
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", body)))


@pytest.mark.parametrize(
    ("rules_id", "change", "before", "after"),
    [
        (
            "card-domino",
            {"turn.draw_limit": 2},
            {"en": "never more than three cards", "de": "höchstens drei Karten"},
            {"en": "never more than two cards", "de": "höchstens zwei Karten"},
        ),
        (
            "card-domino",
            {"deal.hand_size.4": 5},
            {"en": "6 each with 4 players", "de": "je 6 bei 4 Spielern"},
            {"en": "5 each with 4 players", "de": "je 5 bei 4 Spielern"},
        ),
        (
            "card-domino",
            {"scoring.out_bonus": 10},
            {"en": "scores 5 plus points", "de": "erhält 5 Pluspunkte"},
            {"en": "scores 10 plus points", "de": "erhält 10 Pluspunkte"},
        ),
        (
            "card-domino",
            {"match.rounds": 6},
            {"en": "After four rounds the game is over", "de": "Nach vier Runden ist das Spiel"},
            {"en": "After six rounds the game is over", "de": "Nach sechs Runden ist das Spiel"},
        ),
    ],
)
@pytest.mark.parametrize("lang", ["de", "en"])
def test_changed_parameter_changes_text(rules_id, change, before, after, lang) -> None:  # type: ignore[no-untyped-def]
    rules = load_rules(rules_id)
    old = _text(rules, lang)
    new = _text(rules.with_changes(change), lang)
    assert before[lang] in old
    assert before[lang] not in new
    assert after[lang] in new
    assert after[lang] not in old


@pytest.mark.parametrize("lang", ["de", "en"])
def test_target_score_changes_text(lang: str) -> None:
    rules = next(r for r in list_rules() if r.params.match.end == "target")
    target = rules.params.match.target
    assert target is not None
    old = _text(rules, lang)
    new = _text(rules.with_changes({"match.target": target + 37}), lang)
    assert str(target + 37) in new
    assert str(target + 37) not in old


def test_every_clause_is_printed_and_notes_only_for_the_designer() -> None:
    for rules in list_rules():
        for lang in ("de", "en"):
            text = _text(rules, lang)
            designer = _text(rules, lang, "designer")
            for section in rules.sections(lang):
                for clause in section.clauses:
                    assert re.sub(r"\s+", " ", clause.text) in text, (rules.id, clause.id)
                    assert re.sub(r"\s+", " ", clause.text) in designer, (rules.id, clause.id)
            for note in rules.notes(lang):
                assert re.sub(r"\s+", " ", note.reason) not in text, (rules.id, note.id)
                assert re.sub(r"\s+", " ", note.decision) in designer, (rules.id, note.id)
                assert re.sub(r"\s+", " ", note.reason) in designer, (rules.id, note.id)


def test_user_text_is_escaped() -> None:
    rules = load_rules("card-domino").with_changes(
        {"name.en": '<img src="file:///etc/passwd"> & <b>Bold</b>'}
    )
    html = render_html(build_booklet(rules, "en", A5, Extras()), A5)
    assert '<img src="file:///etc/passwd">' not in html
    assert "&lt;img src=&#34;file:///etc/passwd&#34;&gt; &amp; &lt;b&gt;Bold&lt;/b&gt;" in html


@pytest.mark.parametrize("rules_id", [r.id for r in list_rules()])
def test_worked_example_adds_up(rules_id: str) -> None:
    rules = load_rules(rules_id)
    ex = example_round(rules)
    assert ex is not None
    values = rules.params.scoring.tile_values
    sums = tuple(sum(values.get(str(t), t.pips) for t in hand) for hand in ex.hands)
    assert sums == ex.hand_values  # our bookkeeping of the round agrees with the engine
    assert ex.placements
    for p in ex.placements:
        if isinstance(p.board, BoardView):
            line = p.board.line
            assert all(line[i][1] == line[i + 1][0] for i in range(len(line) - 1))
        elif p.board is not None and not any(k == "more" for _, _, k in p.board.labels):
            # (a long train shows only its newest tiles and a "more" label)
            assert len(p.board.tiles) == ex.placements.index(p) + 2  # the lead and each lay
    if ex.end == "out":
        assert ex.hands[ex.out_seat] == ()
