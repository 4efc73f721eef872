from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from deckgen.errors import InputError, SpecError
from deckgen.rulespec import (
    ENGINE_CLAUSES,
    SECTION_IDS,
    list_rules,
    load_rules,
    rules_from_data,
)
from deckgen.rulespec.clauses import required_clause_ids
from deckgen.specfile import load_toml

RULES = Path(__file__).resolve().parent.parent / "rules"


def _card_raw() -> dict[str, Any]:
    return load_toml(RULES / "card-domino.toml")


def test_every_bundled_file_loads_and_states_what_it_needs() -> None:
    specs = list_rules()
    assert {s.id for s in specs} >= {"card-domino"}
    for spec in specs:
        have = set(spec.clause_ids())
        assert set(required_clause_ids(spec.params)) <= have
        for lang in ("de", "en"):
            sections = spec.sections(lang)
            assert [s.id for s in sections] == [
                i for i in SECTION_IDS if i in {s.id for s in sections}
            ]
            texts = [c.text for s in sections for c in s.clauses]
            assert all(t and "{" not in t for t in texts)
            assert spec.notes(lang), f"{spec.id} has no notes"


@pytest.mark.parametrize(
    "ref",
    [
        "card-domino",
        "Karten-Domino",
        "card domino",
        "KARTENDOMINO",
        str(RULES / "card-domino.toml"),
    ],
)
def test_found_by_id_alias_name_and_path(ref: str) -> None:
    assert load_rules(ref).id == "card-domino"


def test_unknown_id_has_did_you_mean() -> None:
    with pytest.raises(InputError) as err:
        load_rules("card-domno")
    assert "did you mean 'card-domino'" in str(err.value)


def test_changed_parameters_change_the_text() -> None:
    spec = load_rules("card-domino")
    for lang in ("de", "en"):
        three, two, six = {"de": ("drei", "zwei", "sechs"), "en": ("three", "two", "six")}[lang]
        assert three in spec.clause_text("play.draw_limit", lang)  # small counts as words
        changed = spec.with_changes(
            {"turn.draw_limit": 2, "deal.hand_size.2": 9, "match.rounds": 6}
        )
        assert two in changed.clause_text("play.draw_limit", lang)
        assert three not in changed.clause_text("play.draw_limit", lang)
        assert "9" in changed.clause_text("setup.deal", lang)
        assert six in changed.clause_text("match.end", lang)
        assert changed.sha256 != spec.sha256
    assert spec.deal_table()[2].hand_size == 6
    assert spec.deal_table()[0].stock == 22


def test_missing_required_clause_is_refused() -> None:
    raw = _card_raw()
    raw["clause"] = [c for c in raw["clause"] if c["id"] != "end.reserve"]
    with pytest.raises(SpecError) as err:
        rules_from_data(raw, path="x.toml")
    assert "end.reserve" in str(err.value)


def test_unknown_placeholder_is_refused_with_hint() -> None:
    raw = _card_raw()
    raw = copy.deepcopy(raw)
    raw["clause"][0]["text"]["en"] = "Play {rounds} rounds of {draw_limt} draws."
    with pytest.raises(SpecError) as err:
        rules_from_data(raw, path="x.toml")
    assert "draw_limt" in str(err.value)
    assert "did you mean 'draw_limit'" in str(err.value)


def test_unknown_key_and_bad_value_are_refused() -> None:
    raw = _card_raw()
    raw["turn"]["draw_limmit"] = 3
    with pytest.raises(SpecError) as err:
        rules_from_data(raw, path="x.toml")
    assert "turn.draw_limmit" in str(err.value)
    assert "draw_limit" in str(err.value)
    raw = _card_raw()
    raw["deal"]["hand_size"] = {"2": 30, "3": 7, "4": 6}
    with pytest.raises(SpecError):
        rules_from_data(raw, path="x.toml")


def test_engine_clause_vocabulary_is_sectioned() -> None:
    assert all(sec in SECTION_IDS for sec, _, _ in ENGINE_CLAUSES.values())
