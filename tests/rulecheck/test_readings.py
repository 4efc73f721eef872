"""Rules that can be read two ways: the check plays both and says so (``ambiguous_clause``).

The bundled Mexican Train settles both of its two-way clauses (a sentence in the
clause, a note naming it), so the check reports nothing there. A copy with the
earlier texts ("No more than 1 tile is drawn in one turn", "nobody in turn can play")
and without the deciding note is reported for both, with the figures that differ.
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from deckgen.api.checks import check_rules
from deckgen.engine.results import RoundResult
from deckgen.engine.tables import Tables, compile_tables
from deckgen.rulecheck import readings
from deckgen.rulecheck.readings import (
    ALPHA,
    PARTED_MIN,
    READINGS,
    Reading,
    applicable,
    compare,
    reading_findings,
    settled,
)
from deckgen.rulecheck.severity import TEXT
from deckgen.rulespec import RuleSpec, list_rules, load_rules, rules_from_data

RULES = Path(__file__).resolve().parents[2] / "rules" / "mexican-train.toml"

SETTLING = {
    # the clause texts that say which reading the file means -> the earlier, open texts
    'text.de = "Dabei zieht man höchstens {draw_limit} Stein. Wer eben einen Pasch gelegt '
    "hat und ihn nun bedienen muss, darf dafür noch einmal bis zu {draw_limit} Stein "
    'ziehen, auch wenn er den Pasch selbst gerade gezogen hat."': 'text.de = "Wer an der '
    'Reihe ist, zieht dabei höchstens {draw_limit} Stein."',
    'text.en = "No more than {draw_limit} tile is drawn at a time. A player who has just '
    "laid a double and must now cover it may draw up to {draw_limit} more for that, even "
    'if the double itself was just drawn."': 'text.en = "No more than {draw_limit} tile is '
    'drawn in one turn."',
    'text.de = "Sie endet auch, wenn der Vorrat leer ist und keiner mehr legen kann, auch '
    'nicht an einem Zug, den ein Aussetzen eben geöffnet hat."': 'text.de = "Sie endet '
    'auch, wenn der Vorrat leer ist und reihum niemand mehr legen kann."',
    'text.en = "It also ends when the stock is empty and nobody can play any more, not even '
    'on a train that a pass has just opened."': 'text.en = "It also ends when the stock is '
    'empty and nobody in turn can play."',
}


def _without_note(text: str, note_id: str) -> str:
    start = text.index(f'[[note]]\nid = "{note_id}"')
    end = text.index("[[note]]", start + 1)
    return text[:start] + text[end:]


def open_copy(tmp_path: Path, *, texts: bool = True) -> RuleSpec:
    """A copy of mexican-train.toml without the note draw-for-double and (``texts``)
    with the earlier clause texts, which leave both readings open."""
    text = _without_note(RULES.read_text(encoding="utf-8"), "draw-for-double")
    if texts:
        for old, new in SETTLING.items():
            assert old in text, "the bundled texts changed: update SETTLING"
            text = text.replace(old, new)
    path = tmp_path / "mexican-train-open.toml"
    path.write_text(text, encoding="utf-8")
    return load_rules(path)


def test_the_bundled_file_settles_both_readings() -> None:
    spec = load_rules("mexican-train")
    found = applicable(spec)
    assert [r.clause for r in found] == ["end.blocked", "play.draw_limit"]
    assert all(settled(spec, r) for r in found)
    assert reading_findings(spec) == []


def test_every_bundled_file_settles_its_readings() -> None:
    arising = {}
    for spec in list_rules():
        found = applicable(spec)
        assert all(settled(spec, r) for r in found), spec.id
        arising[spec.id] = [r.clause for r in found]
    assert arising["two-player"] == arising["card-domino"] == ["end.reserve"]
    assert arising["chicken-foot"] == arising["all-fives"] == arising["block-classic"] == []


def test_a_reserve_read_the_other_way_ends_rounds_differently(tmp_path: Path) -> None:
    """two-player without its note reserve-mid-draw and with a plain end.reserve text:
    a pass when one's own draws reach the reserve lets the next player lay more tiles."""
    text = (RULES.parent / "two-player.toml").read_text(encoding="utf-8")
    text = _without_note(text, "reserve-mid-draw")
    start = text.index('[[clause]]\nid = "end.reserve"')
    end = text.index("[[clause]]", start + 1)
    text = text[:start] + RESERVE + text[end:]
    path = tmp_path / "two-player-open.toml"
    path.write_text(text, encoding="utf-8")
    spec = load_rules(path)
    [f] = reading_findings(spec)
    assert f["clause"] == "end.reserve"
    figures = f["figures"]
    assert figures["passes"]["other"] > figures["passes"]["played"]
    assert figures["passes"]["p_value"] < ALPHA
    assert "the passes per round from" in f["message"]


RESERVE = (
    '[[clause]]\nid = "end.reserve"\nsection = "scoring"\n'
    'text.de = "Sie endet auch, wenn nur noch {reserve} Steine im Vorrat liegen und der '
    'Spieler am Zug nicht legen kann."\n'
    'text.en = "It also ends when only {reserve} tiles are left in the stock and the player '
    'to move cannot lay a tile."\n\n'
)


def test_a_sentence_or_a_note_naming_the_clause_settles_it(tmp_path: Path) -> None:
    """Without the note draw-for-double, the clauses' own sentences ("even if the double
    itself was just drawn", "not even on a train that a pass has just opened") settle
    both; with the earlier texts nothing does, until a note names the clause."""
    spec = open_copy(tmp_path, texts=False)
    assert all(settled(spec, r) for r in applicable(spec))
    spec = open_copy(tmp_path)
    assert not any(settled(spec, r) for r in applicable(spec))
    note = {
        "id": "block",
        "kind": "unclear",
        "clauses": ["end.blocked"],
        "decision": {"de": "Erst wenn keiner legen kann.", "en": "Only when nobody can play."},
        "reason": {"de": "So ist es klar.", "en": "It is clear that way."},
    }
    raw = {**spec.raw, "note": [*spec.raw["note"], note]}
    decided = rules_from_data(raw)
    assert [r.clause for r in applicable(decided) if not settled(decided, r)] == ["play.draw_limit"]


def test_the_open_copy_is_reported_for_both_readings(tmp_path: Path) -> None:
    spec = open_copy(tmp_path)
    found = {f["clause"]: f for f in reading_findings(spec, seed=3)}
    assert set(found) == {"end.blocked", "play.draw_limit"}
    for f in found.values():
        assert f["id"] == "ambiguous_clause"
        assert f["players"] == 2
        assert f["message"].startswith(f"clause {f['clause']} can be read two ways: (1) ")
        assert "the engine plays (2)" in f["message"]
        assert "say in the text which one the game has" in f["message"]
        assert f["parted"] / f["rounds"] > PARTED_MIN
    # a full circle of passes ends more rounds blocked, with more points left in hand
    blocked = found["end.blocked"]["figures"]
    assert blocked["blocked"]["other"] > blocked["blocked"]["played"]
    assert blocked["blocked"]["p_value"] < ALPHA
    assert blocked["points"]["other"] > blocked["points"]["played"]
    assert "the share of rounds ending blocked from" in found["end.blocked"]["message"]
    # one draw a turn changes which rounds go how (about half of them), not the averages
    assert "of rounds" in found["play.draw_limit"]["message"]


def test_the_same_seed_gives_the_same_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(readings, "REPLAY_TURNS", 20_000)  # a shorter replay will do here
    spec = open_copy(tmp_path)
    reading = READINGS[0]
    first, again = compare(spec, reading, seed=5), compare(spec, reading, seed=5)
    assert first == again
    assert 200 <= first.rounds <= 3_000
    # the file's own rounds, played once for every reading of the file, are the same
    shared: dict[int, list[RoundResult]] = {}
    compare(spec, READINGS[1], seed=5, shared=shared)
    assert compare(spec, reading, seed=5, shared=shared) == first
    assert compare(spec, reading, seed=6) != first


@pytest.mark.parametrize("reading", READINGS, ids=[r.id for r in READINGS])
def test_each_reading_sets_one_kernel_field(reading: Reading) -> None:
    t = compile_tables(load_rules("mexican-train"), 2)
    other = reading.other_tables(t)
    changed = [f.name for f in fields(Tables) if getattr(t, f.name) != getattr(other, f.name)]
    assert changed in (["block_on_passes"], ["draw_per_turn"], ["reserve_pass"])
    assert getattr(t, changed[0]) is False  # the files' reading is the kernel's default


def test_check_rules_warns_and_says_which_clause(tmp_path: Path) -> None:
    assert TEXT["ambiguous_clause"] == "warn"
    spec = open_copy(tmp_path)
    opts = {"rounds": 100, "players": (2,), "fast": False, "confirm": False, "workers": 1}
    check = check_rules(spec, **opts)  # type: ignore[arg-type]
    ambiguous = [w for w in check.report["warnings"] if w["id"] == "ambiguous_clause"]
    assert sorted(w["clause"] for w in ambiguous) == ["end.blocked", "play.draw_limit"]
    assert all(w["severity"] == "warn" for w in ambiguous)
    assert check.verdict in ("warn", "fail", "gaps")
    if check.verdict == "warn":
        assert any("clause end.blocked can be read two ways" in r for r in check.reasons)
    quiet = check_rules(spec, readings=False, **opts)  # type: ignore[arg-type]
    assert not [w for w in quiet.report["warnings"] if w["id"] == "ambiguous_clause"]
