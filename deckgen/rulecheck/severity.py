"""How bad a finding is: ``notice``, ``warn`` or ``fail``, and the verdict they make.

Takes the findings of a check (the JSON-ready dicts of
:mod:`deckgen.rulecheck.diagnostics`, :mod:`deckgen.rulecheck.textcheck` and
:mod:`deckgen.rulecheck.statics`); gives each its ``severity`` and the verdict, which
is the worst finding's. The thresholds are data (:data:`TEXT`, :data:`RATE_STEPS`,
:data:`SEAT_STEPS`, :data:`HOURS`), documented in ``docs/rules-check.md``:

- a printed text that contradicts the parameters (printed is not played) fails;
  German and English that disagree fail; an untranslated text warns;
- a rule that can never decide anything warns; one that almost never does is a notice;
- a clause that can be read two ways with different games, and the file does not say
  which, warns (:mod:`deckgen.rulecheck.readings`);
- a rate over its limit (draws, drained stocks, blocked rounds, ties, playing time
  over the file's promise) is a notice up to 1.25 times the limit, a warning up to
  2 times, a failure beyond;
- a seat's or the starting player's advantage is a notice up to 2 times its limit, a
  warning up to 4 times, a failure beyond;
- a match longer than 4 hours warns, longer than 10 hours fails;
- a design finding that holds when every seat plays well (the ``smart`` bots) is graded
  by the skilled figure's lower 95 % bound (never above its grade with random bots);
  one that vanishes is a notice (:data:`VANISHED`), and says so.
"""

from __future__ import annotations

from typing import Any, Literal

Severity = Literal["notice", "warn", "fail"]
LEVELS: tuple[Severity, ...] = ("notice", "warn", "fail")

TEXT: dict[str, Severity] = {
    "clause_params": "fail",
    "text_number": "fail",
    "text_tile": "fail",
    "text_set": "fail",
    "text_languages": "fail",
    "text_untranslated": "warn",
    "ambiguous_clause": "warn",
    "dead_clause": "warn",
    "rare_clause": "notice",
    "no_winner": "notice",
}
"""Findings whose severity does not depend on a measured size."""

RATE_STEPS = (1.25, 2.0)
"""value / limit: up to the first a notice, up to the second a warning, then a failure."""
RATE_FINDINGS = ("draw_heavy", "stock_drained", "blocked", "ties", "playing_time")

SEAT_STEPS = (2.0, 4.0)
"""excess / limit for a seat's or the starting player's advantage."""
SEAT_FINDINGS = ("first_player", "seat_match")

HOURS = (4.0, 10.0)
"""A match longer than the first (hours) warns, longer than the second fails."""

DESIGN = (*RATE_FINDINGS, *SEAT_FINDINGS, "no_winner", "match_time")
"""Findings about how the game plays (as opposed to what its text says): the ones a
check confirms with skilled players."""


def _step(ratio: float, steps: tuple[float, float]) -> Severity:
    if ratio <= steps[0]:
        return "notice"
    if ratio <= steps[1]:
        return "warn"
    return "fail"


def grade(finding: dict[str, Any]) -> Severity:
    """The severity of one finding, before confirmation with skilled players."""
    fid = finding["id"]
    if fid in TEXT:
        return TEXT[fid]
    value, limit = finding.get("value"), finding.get("threshold")
    if fid == "match_time":
        hours = float(value or 0) / 60
        return "fail" if hours > HOURS[1] else "warn"
    if value is None or not limit:
        return "warn"
    ratio = float(value) / float(limit)
    if fid in SEAT_FINDINGS:
        return _step(ratio, SEAT_STEPS)
    return _step(ratio, RATE_STEPS)


VANISHED: Severity = "notice"
"""A design finding that vanishes with skilled players: the rules are not what to change
(a notice calls nothing a design problem), so it is never graded above a finding that
holds with them."""


def graded(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``findings`` with a ``severity`` each (a confirmed one keeps what it has)."""
    for f in findings:
        if "severity" not in f:
            f["severity"] = grade(f)
    return findings


def worst(findings: list[dict[str, Any]]) -> Severity | None:
    """The worst severity among ``findings`` (None when there are none)."""
    if not findings:
        return None
    return max((f["severity"] for f in findings), key=LEVELS.index)
