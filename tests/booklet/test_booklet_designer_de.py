"""The German designer's edition speaks German: findings, reasons and charts (issue 26).

The rules check writes its findings in English (``message``) and keeps each one's
template key and figures (``text``); the designer's booklet fills the German template
of :mod:`deckgen.rulecheck.messages` from the same figures. The reports here are real
checks of a few hundred rounds, with the file's limits set tight so that the design
findings fire, plus the findings of a rules text with a typed-in number and of a
clause that can be read two ways.
"""

from __future__ import annotations

import copy
import io
import re
import string
from functools import cache
from typing import Any, get_args

import pytest
from pypdf import PdfReader

from deckgen.booklet.content import Extras, build_booklet
from deckgen.booklet.designer import DesignerPart
from deckgen.booklet.html import page_format
from deckgen.booklet.i18n import translations
from deckgen.booklet.model import Figure, Table
from deckgen.resources import PROJECT_ROOT
from deckgen.rulecheck.charts import wins_svg
from deckgen.rulecheck.diagnostics import WarningId
from deckgen.rulecheck.messages import KINDS, MESSAGES, message_of, said, say
from deckgen.rulecheck.readings import FIGURES, READINGS, Comparison, Replay, finding
from deckgen.rulespec import GAP_SITUATIONS, RuleSpec, load_rules, rules_from_data

A5 = page_format("a5")
TIGHT = {
    "draws_per_dealt_max": 0.1,
    "stock_drained_max": 0.0,
    "blocked_max": 0.0,
    "tie_max": 0.0,
    "first_player_excess_max": 0.0,
    "seat_match_excess_max": 0.0,
    "significance": 0.49,
    "playing_time_minutes": 1,
}
"""Limits every round breaks: the design findings fire on a short check."""
TEXT_DEFECTS = {
    "card-domino": ("clause", "play.draw_limit", "{draw_limit_word}", "five"),
    "all-fives": ("summary", "", ".", ". The highest tile is 9/9 of a double-nine set."),
}
"""A number typed into the English text: what goes stale when a parameter changes."""
ENGLISH = re.compile(
    r"\b(players:|of rounds|rounds end|the file|limit \d|chi-square|matches|turns per round"
    r"|share of those|seat \d|the engine|says|names|write the|can be read two ways)\b"
)
"""English that a finding or a chart would print."""


def _defective(spec: RuleSpec) -> RuleSpec:
    raw = copy.deepcopy(spec.raw)
    where, cid, old, new = TEXT_DEFECTS[spec.id]
    if where == "clause":
        clause = next(c for c in raw["clause"] if c["id"] == cid)
        clause["text"]["en"] = clause["text"]["en"].replace(old, new)
    else:
        raw["summary"]["en"] = raw["summary"]["en"].rstrip(".") + new
    return rules_from_data(raw)


@cache
def report(rules_id: str) -> dict[str, Any]:
    """A real check of ``rules_id`` with tight limits, and the findings of a text defect
    and of an ambiguous clause added the way the check adds late findings."""
    from deckgen.rulecheck.check import CheckOptions, run_check
    from deckgen.rulecheck.report import add_findings, build_report
    from deckgen.rulecheck.statics import spec_findings

    spec = load_rules(rules_id)
    raw = copy.deepcopy(spec.raw)
    raw["check"] = {**raw.get("check", {}), **TIGHT}
    options = CheckOptions(rounds=400, workers=1, players=tuple(spec.player_counts[:2]))
    rep = build_report(run_check(rules_from_data(raw), options))
    late = spec_findings(_defective(spec))
    replay = Replay(2, 1200, 90, 1e-4, [Comparison("out", 0.52, 0.47, 2e-5)])
    late.append(finding(READINGS[2], replay))
    add_findings(rep, late)
    return rep


def _part(rules_id: str, lang: str) -> DesignerPart:
    t = translations(lang)

    def gettext(text: str, **values: object) -> str:
        out = t.gettext(text)
        return out % values if values else out

    return DesignerPart(load_rules(rules_id), lang, report(rules_id), gettext, A5.text_width_mm)


def _flat(text: str) -> str:
    """PDF text as one line: hyphenation undone, every run of spaces one space."""
    text = re.sub(r"[\u2010-]\n", "", text)
    return re.sub(r"[\s\u00a0\u202f]+", " ", text)


@cache
def designer_pdf(rules_id: str) -> bytes:
    """The German designer's edition of ``rules_id`` with :func:`report`'s findings."""
    from deckgen.booklet.make import prepare, render_booklet_pdf

    rules = load_rules(rules_id)
    prepared = prepare(
        rules, fmt=A5, check_report=report(rules_id), langs=("de",), edition="designer"
    )
    return render_booklet_pdf(prepared, "de", A5, edition="designer")


@cache
def designer_pages(rules_id: str) -> str:
    """The text of the German designer pages (from the findings on) of ``rules_id``."""
    pages = [p.extract_text() for p in PdfReader(io.BytesIO(designer_pdf(rules_id))).pages]
    first = next(i for i, t in enumerate(pages) if "Befunde der Regelprüfung" in t)
    return _flat("\n".join(pages[first:]))


# -- every kind has its German -------------------------------------------------------------
def test_every_finding_reason_gap_and_reading_kind_has_a_german_template() -> None:
    kinds = [*get_args(WarningId), "ambiguous_clause"]
    missing = [k for k in kinds if not any(m == k or m.startswith(k + ".") for m in MESSAGES)]
    assert not missing, f"finding kinds without a template: {missing}"
    parts = [f"reading.{r.id}.{side}" for r in READINGS for side in ("played", "other")]
    parts += [f"figure.{key}" for key in FIGURES]
    parts += [f"gap.{sit}" for sit in GAP_SITUATIONS] + ["gap.unstated"]
    parts += [f"kind.{key}" for key in KINDS]
    reasons = ("deal", "violation", "termination", "round_limit", "gap", "opening")
    parts += [f"reason.{r}" for r in reasons]
    assert not [p for p in parts if p not in MESSAGES], "parts without a template"
    untranslated = [key for key, t in MESSAGES.items() if not t.de]
    assert not untranslated, f"templates without German: {untranslated}"


def test_the_textcheck_kinds_are_the_messages_kinds() -> None:
    from deckgen.rulecheck.textcheck import KINDS as COUNTED

    assert set(COUNTED) == set(KINDS)


def test_a_kind_without_german_and_an_old_report_fall_back_to_english() -> None:
    future = {"id": "new_kind", "message": "a new finding", "text": said("new_kind", n=3)}
    assert message_of(future, "de") == "a new finding"
    old = {"id": "blocked", "message": "2 players: 30.0 % of rounds end blocked"}
    assert message_of(old, "de") == old["message"]
    assert message_of(old, "en") == old["message"]


def test_german_numbers_and_words() -> None:
    text = say(said("stock_drained", n=3, pct=12.25, drawable=14, k=1234, of=10000,
                    pct_limit=10.0), "de")  # fmt: skip
    assert text == (
        "Mit 3 Spielern wird in 12,2\u202f% der Runden der ganze Vorrat von 14 Steinen leer "
        "gezogen (1.234 von 10.000; Grenze 10\u202f%)."
    )
    p = say(said("first_player", n=4, pct=62.3, excess=12.3, fair=50.0, pct_limit=10,
                 p=2.3e-29), "de")  # fmt: skip
    assert "p\u00a0=\u00a02,3·10⁻²⁹" in p


def _glossary_avoid_de() -> list[re.Pattern[str]]:
    out = []
    for line in (PROJECT_ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] not in ("English", "---"):
            out += [re.compile(x) for x in re.findall(r"`([^`]+)`", cells[3])]
    return out


def test_german_templates_use_the_glossarys_words() -> None:
    bad = [
        (key, rx.pattern)
        for key, t in MESSAGES.items()
        for rx in _glossary_avoid_de()
        if t.de and rx.search(t.de)
    ]
    assert not bad, bad


# -- the booklet --------------------------------------------------------------------------
@pytest.mark.parametrize("rules_id", ["card-domino", "all-fives"])
def test_german_designer_pdf_prints_every_finding_in_german(rules_id: str) -> None:
    rep = report(rules_id)
    ids = {w["id"] for w in rep["warnings"]}
    assert {"text_number", "ambiguous_clause", "first_player"} <= ids or {
        "text_set",
        "ambiguous_clause",
        "first_player",
    } <= ids, ids
    text = designer_pages(rules_id)
    for w in rep["warnings"]:
        german = _flat(message_of(w, "de"))
        assert german != _flat(w["message"]), w["id"]
        assert german[:60] in text, f"{w['id']}: {german[:60]!r} is not printed"
        assert _flat(w["message"])[:40] not in text, f"{w['id']} printed in English"
    english = sorted(set(ENGLISH.findall(text)))
    assert not english, f"English on the German designer pages: {english}"
    assert "Hinweis" in text or "Warnung" in text or "Fehler" in text


def test_findings_are_set_flush_left_as_sentences_are_read() -> None:
    """The findings are sentences: every line of the finding column starts where its
    header does (they were centred, each line at its own indent)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(designer_pdf("card-domino"))
    text = next(
        tp
        for tp in (page.get_textpage() for page in doc)
        if "Schwere" in tp.get_text_range() and "Befund" in tp.get_text_range()
    )
    rects = [text.get_rect(i) for i in range(text.count_rects())]
    lines = [(r, text.get_text_bounded(*r).strip()) for r in rects]
    (header,) = [r for r, line in lines if line == "Befund"]
    column = [
        r[0]
        for r, line in lines
        if r[3] < header[1] and r[0] > header[0] - 20 and not line.startswith("Seite ")
    ]  # below the header, in its column, not the page number
    assert len(column) >= 6, column
    spread = max(column) - min(column)
    assert spread < 1.0, f"lines of the finding column start at {sorted(column)}"
    assert abs(min(column) - header[0]) < 1.0, "the header stands over its column's text"


def test_german_charts_carry_german_labels() -> None:
    part = _part("card-domino", "de")
    svgs = [b.svg for s in part.per_players() for b in s.blocks if isinstance(b, Figure)]
    assert len(svgs) == 2 * len(report("card-domino")["players"])
    both = "\n".join(svgs)
    for word in ("Spielzüge je Runde", "Spieler 1", "■ Runden", "■ Partien", "gestrichelt"):
        assert word in both, word
    assert re.search(r"\d,\d min<", both), "minutes with a decimal comma"
    assert "\u202f%" in both
    for word in ("seat", "rounds", "matches", "turns per round", "dashed", "fair"):
        assert word not in both, word


def test_english_charts_are_the_checks_own() -> None:
    part = _part("card-domino", "en")
    st = report("card-domino")["players"]["2"]["stats"]
    assert wins_svg(dict(st), "t", "seat", part.chart_labels()) == wins_svg(dict(st), "t", "seat")


def test_english_findings_are_the_reports_messages() -> None:
    rep = report("all-fives")
    section = _part("all-fives", "en").findings()
    table = next(b for b in section.blocks if isinstance(b, Table))
    printed = [text for label, text in table.rows if label != "not reached"]
    assert sorted(printed) == sorted(w["message"] for w in rep["warnings"])
    unseen = [text for label, text in table.rows if label == "not reached"]
    assert len(unseen) == len(rep["never_reached"])
    for cid, text in zip(sorted(rep["never_reached"]), sorted(unseen), strict=True):
        # named by its id and its first words, not by the id alone
        assert text.startswith(f"Rule {cid} (\u201c"), text


def test_a_rule_never_reached_is_named_by_its_words_in_german() -> None:
    rep = report("all-fives")
    assert rep["never_reached"], "all-fives at 400 rounds reaches every rule: pick another"
    section = _part("all-fives", "de").findings()
    table = next(b for b in section.blocks if isinstance(b, Table))
    unseen = [text for label, text in table.rows if label == "nie erreicht"]
    assert len(unseen) == len(rep["never_reached"]), table.rows
    assert all(t.startswith("Die Regel ") and "\u201e" in t for t in unseen), unseen
    assert not [t for t in unseen if ENGLISH.search(t)], unseen


def test_gaps_are_reasons_in_german() -> None:
    from deckgen.rulecheck.check import CheckOptions, run_check
    from deckgen.rulecheck.report import build_report

    spec = load_rules(
        str(PROJECT_ROOT / "tests" / "rulecheck" / "fixtures" / "no-later-starter.toml")
    )
    rep = build_report(run_check(spec, CheckOptions(rounds=300, workers=1, players=(2,))))
    assert rep["verdict"] == "gaps", rep["verdict"]
    booklet = build_booklet(spec, "de", A5, Extras(edition="designer", report=rep))
    section = next(s for s in booklet.sections if s.key == "findings")
    rows = [r for b in section.blocks if isinstance(b, Table) for r in b.rows]
    gaps = [text for label, text in rows if label == "Lücke" and " " in text]
    assert gaps, rows
    assert all(t.startswith("Mit 2 Spielern trat die Lage start.later") for t in gaps), gaps
    assert not [t for t in gaps if ENGLISH.search(t)]
    english = build_booklet(spec, "en", A5, Extras(edition="designer", report=rep))
    section = next(s for s in english.sections if s.key == "findings")
    rows = [r for b in section.blocks if isinstance(b, Table) for r in b.rows]
    assert [t for label, t in rows if label == "gap" and " " in t] == rep["reasons"]


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


GERMAN_ONLY_FIELDS = {
    "reason.gap": {"what"},
    "proof.opening": {"situation"},
    "gap.unstated": {"clause"},
    "text_set": {"top"},
}
"""German templates that name a figure the English leaves out (each finding carries it)."""


def test_german_templates_name_only_figures_the_finding_carries() -> None:
    extra = {
        key: _fields(t.de) - _fields(t.en) - GERMAN_ONLY_FIELDS.get(key, set())
        for key, t in MESSAGES.items()
        if t.de
    }
    assert not {k: v for k, v in extra.items() if v}


def test_every_key_the_check_says_has_a_template() -> None:
    used = set()
    for path in (PROJECT_ROOT / "deckgen" / "rulecheck").glob("*.py"):
        used |= set(re.findall(r'said\(\s*"([^"{]+)"', path.read_text(encoding="utf-8")))
    assert len(used) > 60
    assert not sorted(used - set(MESSAGES))
