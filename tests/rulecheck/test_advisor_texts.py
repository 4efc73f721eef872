"""The check as an editor: every printed number and tile held to the parameters.

The corpus (``advisor_corpus.py``) is made from the bundled files by one change each;
every defect must be found for the right reason (a finding naming the changed clause or
parameter), and no harmless change may raise a finding.
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from advisor_corpus import Mutant, corpus

from deckgen.rulecheck.severity import grade
from deckgen.rulecheck.statics import spec_findings
from deckgen.rulespec import list_rules, load_rules

CORPUS = corpus()
CLASSES = sorted({m.cls for m in CORPUS} - {"control"})


def _found(m: Mutant) -> bool:
    spec = m.spec()
    if spec is None:  # refused when loaded: a clear error is a finding too
        return True
    return any(
        any(x in f["message"] or x == f.get("param") for x in m.mentions)
        for f in spec_findings(spec)
    )


def test_the_corpus_has_every_class() -> None:
    by_class: dict[str, int] = defaultdict(int)
    for m in CORPUS:
        by_class[m.cls] += 1
    assert {"text_number", "languages", "untranslated", "text_tile", "dead", "control"} <= set(
        by_class
    ), by_class
    assert all(n >= 5 for n in by_class.values()), by_class


@pytest.mark.parametrize("cls", CLASSES)
def test_every_defect_is_found_for_the_right_reason(cls: str) -> None:
    missed = [m.name for m in CORPUS if m.cls == cls and not _found(m)]
    assert not missed, f"{len(missed)} {cls} defects missed, first: {missed[:5]}"


def test_no_false_alarm_on_a_harmless_change() -> None:
    alarms = []
    for m in CORPUS:
        if m.cls != "control":
            continue
        spec = m.spec()
        assert spec is not None, m.name
        alarms += [f"{m.name}: {f['message']}" for f in spec_findings(spec)]
    assert not alarms, alarms[:5]


@pytest.mark.parametrize("spec", list_rules(), ids=lambda s: s.id)
def test_bundled_files_print_what_they_play(spec) -> None:  # type: ignore[no-untyped-def]
    assert [f["message"] for f in spec_findings(spec)] == []


def test_a_correct_rephrasing_of_drawing_until_one_fits_is_no_limited_draw() -> None:
    spec = load_rules("draw-classic")
    assert spec.params.turn.draw == "until_playable"
    clauses = [dict(c) for c in spec.raw["clause"]]
    for c in clauses:
        if c["id"] == "play.draw":
            c["text"] = {
                "en": "A player who cannot play draws one tile at a time until one fits, "
                "at most until the stock is empty.",
                "de": "Wer nicht legen kann, zieht einen Stein nach dem anderen, bis einer "
                "passt, höchstens bis der Vorrat leer ist.",
            }
    assert spec_findings(spec.with_changes({"clause": clauses})) == []


def test_four_arms_on_a_board_of_six() -> None:
    spec = load_rules("chicken-foot")
    clauses = [dict(c) for c in spec.raw["clause"]]
    for c in clauses:
        if c["id"] == "play.chicken_foot":
            c["text"] = {
                "en": c["text"]["en"].replace("six arms", "four arms"),
                "de": c["text"]["de"].replace("sechs Arme", "vier Arme"),
            }
    msgs = [f["message"] for f in spec_findings(spec.with_changes({"clause": clauses}))]
    assert any("play.chicken_foot" in m and "four" in m for m in msgs), msgs


def test_a_station_the_set_does_not_have() -> None:
    spec = load_rules("chicken-foot")  # double-9
    clauses = [dict(c) for c in spec.raw["clause"]]
    for c in clauses:
        if c["id"] == "lead.station":
            c["text"] = {k: v.replace("9/9", "12/12") for k, v in c["text"].items()}
    found = spec_findings(spec.with_changes({"clause": clauses}))
    assert any(f["id"] == "text_tile" and "12/12" in f["message"] for f in found), found


def test_a_number_written_as_a_word_counts() -> None:
    spec = load_rules("mexican-train")
    assert spec.params.turn.draw_limit == 1
    clauses = [dict(c) for c in spec.raw["clause"]]
    for c in clauses:
        if c["id"] == "play.draw_limit":
            c["text"] = {
                "en": "No more than three tiles are drawn in one turn.",
                "de": "In einem Zug werden höchstens drei Steine gezogen.",
            }
    found = spec_findings(spec.with_changes({"clause": clauses}))
    assert any(f["param"] == "turn.draw_limit" and "three" in f["message"] for f in found), found


def test_text_findings_fail_and_rates_are_graded_by_size() -> None:
    assert grade({"id": "text_number"}) == "fail"
    assert grade({"id": "text_untranslated"}) == "warn"
    assert grade({"id": "rare_clause"}) == "notice"
    # a blocked share just over its limit is a notice; three times the limit fails
    assert grade({"id": "blocked", "value": 0.26, "threshold": 0.25}) == "notice"
    assert grade({"id": "blocked", "value": 0.45, "threshold": 0.25}) == "warn"
    assert grade({"id": "blocked", "value": 0.80, "threshold": 0.25}) == "fail"
    # a starting player's edge of 1.5 times the limit is a notice, 5 times fails
    assert grade({"id": "first_player", "value": 0.15, "threshold": 0.10}) == "notice"
    assert grade({"id": "first_player", "value": 0.50, "threshold": 0.10}) == "fail"
    assert grade({"id": "match_time", "value": 300.0, "threshold": 240.0}) == "warn"
    assert grade({"id": "match_time", "value": 900.0, "threshold": 240.0}) == "fail"


@pytest.mark.parametrize("target", [300, 15000])
def test_a_match_far_longer_than_a_table_game_is_reported_with_its_time(target: int) -> None:
    from deckgen.rulecheck.check import CheckOptions, run_check
    from deckgen.rulecheck.report import build_report

    spec = load_rules("partnership")
    raw = dict(spec.raw)
    raw["match"] = {**raw["match"], "target": target}
    from deckgen.rulespec import rules_from_data

    report = build_report(run_check(rules_from_data(raw), CheckOptions(rounds=1500, workers=1)))
    (w,) = [w for w in report["warnings"] if w["id"] == "match_time"]
    assert "hours" in w["message"]
    assert "lower the target" in w["message"]
    assert w["severity"] == "fail"  # over 10 hours either way


def test_a_deal_that_does_not_fit_once_the_station_is_counted_is_refused() -> None:
    from deckgen.errors import DeckgenError
    from deckgen.rulespec import rules_from_data

    spec = load_rules("mexican-train")  # double-12: 91 tiles, the station double among them
    raw = dict(spec.raw)
    raw["deal"] = {**raw["deal"], "hand_size": {**raw["deal"]["hand_size"], "7": 13}}
    with pytest.raises(DeckgenError, match="station"):
        rules_from_data(raw)
