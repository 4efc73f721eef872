"""The rules check's text findings against the parameters: the summary is held to the
draw rule, the words of ``turn.play_drawn`` and ``scoring.tie`` are read in their own
clauses, and the messages quote the text's own words, once per contradiction, with
every tile that only one language names (a designer review)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from deckgen.rulecheck.diagnostics import diagnose_texts
from deckgen.rulecheck.messages import message_of
from deckgen.rulecheck.statics import spec_findings
from deckgen.rulecheck.textcheck import check_texts
from deckgen.rulespec import RuleSpec, load_rules, load_rules_file

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = sorted((ROOT / "rules").glob("*.toml")) + sorted((ROOT / "bench").glob("*.toml"))


def _with_texts(spec: RuleSpec, changes: dict[str, Any], **texts: tuple[str, str]) -> RuleSpec:
    """``spec`` with parameters changed and clause texts replaced (id: (en, de))."""
    clauses = [dict(c) for c in spec.raw["clause"]]
    for c in clauses:
        if c["id"] in texts:
            en, de = texts[c["id"]]
            c["text"] = {"en": en, "de": de}
    return spec.with_changes({**changes, "clause": clauses})


LIMIT_CLAUSE = {
    "id": "play.draw_limit",
    "section": "play",
    "text": {
        "en": "If it does not fit, the player draws again, but never more than "
        "{draw_limit_word} tiles in one turn.",
        "de": "Passt er nicht, wird weitergezogen, aber höchstens {draw_limit_word} Steine "
        "in einem Zug.",
    },
}
LIMITED = {"turn.draw": "limited", "turn.draw_limit": 2}


def _limited(name: str = "draw-classic") -> RuleSpec:
    """A bundled file turned to a limited draw (2 tiles), its texts as they are, with
    the draw limit clause that the limited draw needs (the reviewer's variant)."""
    spec = load_rules(name)
    clauses = [dict(c) for c in spec.raw["clause"]]
    at = next(i for i, c in enumerate(clauses) if c["id"] == "play.draw") + 1
    clauses.insert(at, LIMIT_CLAUSE)
    return spec.with_changes({**LIMITED, "clause": clauses})


def _summary(spec: RuleSpec, changes: dict[str, Any], en: str, de: str) -> RuleSpec:
    return spec.with_changes({**changes, "summary": {"en": en, "de": de}})


def _about(found: list[dict[str, Any]], needle: str) -> list[dict[str, Any]]:
    return [f for f in found if needle in f["message"]]


# ---------------------------------------------------------------- the summary
def test_summary_drawing_until_one_fits_contradicts_a_limited_draw() -> None:
    base = load_rules("draw-classic")
    assert diagnose_texts(base) == []
    spec = _limited()
    found = [f for f in diagnose_texts(spec) if f.get("where") == "the summary"]
    assert len(found) == 1, found
    (f,) = found
    assert f["id"] == "clause_params"
    assert f["param"] == "turn.draw"
    assert f["message"].startswith("the summary says 'until one fits' (en)")
    assert "turn.draw = limited" in f["message"]
    assert "Kurzbeschreibung" in message_of(f, "de")
    # the statics carry it, so the verdict fails
    assert any(w.get("where") == "the summary" for w in spec_findings(spec))


def test_summary_is_read_in_german_too() -> None:
    spec = _summary(
        _limited(), {},
        "Double-six dominoes for {players} players with a stock.",
        "Doppel-6-Domino für {players} Spieler mit Vorrat: Wer nicht anlegen kann, zieht, "
        "bis ein Stein passt.",
    )  # fmt: skip
    (f,) = [f for f in diagnose_texts(spec) if f.get("where") == "the summary"]
    assert "'bis ein stein passt' (de)" in f["message"]


def test_summary_with_a_limited_draw_of_its_own_is_fine() -> None:
    # "at most" and "bis zu" with the draw limit: the file's own value
    for name in ("two-player", "card-domino"):
        spec = load_rules(name)
        assert [f for f in diagnose_texts(spec) if f.get("where") == "the summary"] == []


def test_summary_must_draw_is_not_read_as_play_drawn() -> None:
    spec = _summary(
        load_rules("draw-classic"), {"turn.play_drawn": "may"},
        "A player who cannot lay a tile must draw until one fits.",
        "Wer nicht anlegen kann, muss ziehen, bis ein Stein passt.",
    )  # fmt: skip
    assert [f for f in diagnose_texts(spec) if f.get("where") == "the summary"] == []


# ---------------------------------------------------------------- play_drawn, tie
def test_play_drawn_must_in_english_contradicts_may() -> None:
    spec = _with_texts(
        load_rules("draw-classic"), {"turn.play_drawn": "may"},
        **{"play.play_drawn": (
            "A drawn tile that fits must be laid at once, and that ends the turn.",
            "Einen passenden gezogenen Stein darf man anlegen, muss aber nicht; danach ist "
            "der Spielzug vorbei.",
        )},
    )  # fmt: skip
    found = _about(diagnose_texts(spec), "play.play_drawn")
    assert len(found) == 1, found
    msg = found[0]["message"]
    assert "'must be laid' (en)" in msg
    assert "turn.play_drawn = must" in msg
    assert "turn.play_drawn = may" in msg


def test_play_drawn_may_in_both_languages_is_fine() -> None:
    spec = _with_texts(
        load_rules("draw-classic"), {"turn.play_drawn": "may"},
        **{"play.play_drawn": (
            "A drawn tile that fits may be laid, but need not be; either way the turn ends.",
            "Einen passenden gezogenen Stein darf man anlegen, muss aber nicht; danach ist "
            "der Spielzug vorbei.",
        )},
    )  # fmt: skip
    assert _about(diagnose_texts(spec), "play.play_drawn") == []


def test_play_drawn_german_muss_contradicts_may() -> None:
    spec = _with_texts(
        load_rules("draw-classic"), {"turn.play_drawn": "may"},
        **{"play.play_drawn": (
            "The tile that fits is laid straight away, and that ends the turn.",
            "Der passende Stein muss sofort angelegt werden; damit ist der Spielzug vorbei.",
        )},
    )  # fmt: skip
    (f,) = _about(diagnose_texts(spec), "play.play_drawn")
    assert "'muss' (de)" in f["message"]


def test_play_drawn_may_contradicts_must() -> None:
    spec = _with_texts(
        load_rules("draw-classic"), {},
        **{"play.play_drawn": (
            "A drawn tile that fits may be laid; the turn ends.",
            "Einen passenden gezogenen Stein darf man anlegen; danach ist der Spielzug vorbei.",
        )},
    )  # fmt: skip
    (f,) = _about(diagnose_texts(spec), "play.play_drawn")
    assert "turn.play_drawn = may" in f["message"]
    assert "turn.play_drawn = must" in f["message"]


def test_play_drawn_words_count_only_in_their_clause() -> None:
    # play.pass of the reviewer's file: "muss legen" there is about the hand, not the draw
    spec = _with_texts(
        load_rules("draw-classic"), {"turn.play_drawn": "may"},
        **{"play.pass": (
            "If nothing fits, the player misses the turn. A player who can lay a tile "
            "from their hand must play it.",
            "Passt nichts, setzt der Spieler aus. Wer aus der Hand legen kann, muss legen.",
        )},
    )  # fmt: skip
    assert _about(diagnose_texts(spec), "turn.play_drawn") == []


def test_tie_they_all_score_contradicts_nobody_scores() -> None:
    base = load_rules("draw-classic")
    assert base.params.scoring.tie == "nobody_scores"
    spec = _with_texts(
        base, {},
        **{"score.tie": (
            "If several players tie for the fewest pips, they all score.",
            "Haben mehrere Spieler gleich wenige Augen, bekommt in dieser Runde niemand Punkte.",
        )},
    )  # fmt: skip
    (f,) = _about(diagnose_texts(spec), "score.tie")
    assert "'they all score' (en)" in f["message"]
    assert "scoring.tie = nobody_scores" in f["message"]


def test_tie_nobody_scores_contradicts_all_lowest_score() -> None:
    spec = load_rules("double-twelve").with_changes({"scoring.tie": "nobody_scores"})
    (f,) = _about(diagnose_texts(spec), "score.tie")
    assert "scoring.tie = all_lowest_score" in f["message"]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_bundled_files_have_no_text_findings(path: Path) -> None:
    spec = load_rules_file(path)
    found = [
        f for f in spec_findings(spec)
        if f["id"] == "clause_params" or f["id"].startswith("text_")
    ]  # fmt: skip
    assert found == [], [f["message"] for f in found]


# ---------------------------------------------------------------- messages
def _draw_limit_three() -> RuleSpec:
    return _with_texts(
        load_rules("two-player"), {"turn.draw_limit": 2},
        **{"play.draw_limit": (
            "If it does not fit, the player draws again, but never more than three tiles in "
            "one turn.",
            "Passt er nicht, wird weitergezogen, aber höchstens drei Steine in einem Zug.",
        )},
    )  # fmt: skip


def test_german_text_is_quoted_in_its_own_words() -> None:
    found = _about(check_texts(_draw_limit_three()), "(de)")
    assert len(found) == 1, [f["message"] for f in found]
    assert "(de) says 'drei Steine'" in found[0]["message"]
    assert "tiles'" not in found[0]["message"]
    assert "„drei Steine“" in message_of(found[0], "de")
    en = _about(check_texts(_draw_limit_three()), "(en)")
    assert "(en) says 'three tiles'" in en[0]["message"]


def test_one_contradiction_is_reported_once_per_language() -> None:
    found = [
        f for f in check_texts(_draw_limit_three())
        if f["where"] == "clause play.draw_limit" and f["param"] == "turn.draw_limit"
    ]  # fmt: skip
    assert len(found) == 2, [f["message"] for f in found]
    assert sorted("(en)" in f["message"] for f in found) == [False, True]


def test_every_tile_only_one_language_names_is_listed() -> None:
    spec = _with_texts(
        load_rules("draw-classic"), {},
        **{"start.first": (
            "The player holding the highest double begins: ask who has the 6/6, then the "
            "5/5, and so on, until somebody answers.",
            "Es beginnt, wer den höchsten Pasch hat: Man fragt zuerst nach dem 9/9, dann "
            "nach dem 8/8 und so weiter, bis sich jemand meldet.",
        )},
    )  # fmt: skip
    (f,) = [f for f in check_texts(spec) if f["id"] == "text_languages"]
    assert "(only in one of them: 5/5, 6/6, 8/8, 9/9)" in f["message"]
    assert "5/5, 6/6, 8/8, 9/9" in message_of(f, "de")
