"""A rules file checked to the end: played, reported, its design findings replayed with
skilled players, its two-way readings tried.

Takes a :class:`~deckgen.rulespec.RuleSpec` and :class:`~deckgen.rulecheck.check.CheckOptions`;
gives the finished report (docs/rules-check.md). The one sequence behind every report a
user reads: ``deckgen rules check`` and ``deckgen.check_rules``
(:func:`deckgen.api.checks.check_rules`), the demo's checks of the bundled files
(:func:`deckgen.rulecheck.files.check_to_folder`) and the check in the designer's
edition of a booklet, so a finding carries the same severity everywhere (Chicken Foot's
blocked rounds are a ``notice`` once smart players show that they mostly come from
random bots, never a ``fail`` in one place and a ``notice`` in another).
"""

from __future__ import annotations

from typing import Any

from deckgen.progress import Reporter
from deckgen.rulecheck.check import CheckOptions, run_check
from deckgen.rulecheck.report import build_report
from deckgen.rulespec import RuleSpec


def checked_report(
    spec: RuleSpec,
    options: CheckOptions,
    *,
    reporter: Reporter | None = None,
    confirm: bool = True,
    readings: bool = True,
) -> dict[str, Any]:
    """Check ``spec`` as ``options`` say and give the finished report: with ``confirm``
    every design finding of ``warn`` or worse is replayed with skilled players
    (:mod:`deckgen.rulecheck.confirm`), with ``readings`` the clauses that can be read
    two ways are tried both ways (:mod:`deckgen.rulecheck.readings`); neither runs
    for a file whose play is broken, and the confirmation not for one with gaps."""
    report = build_report(run_check(spec, options, reporter=reporter))
    if confirm and report["verdict"] not in ("gaps", "broken"):
        from deckgen.rulecheck.confirm import confirm as replay_with_skilled_players

        replay_with_skilled_players(report, spec, seed=options.seed, workers=options.workers)
    if readings and report["verdict"] != "broken":
        from deckgen.rulecheck.readings import reading_findings
        from deckgen.rulecheck.report import add_findings

        add_findings(report, reading_findings(spec, seed=options.seed))
    return report
