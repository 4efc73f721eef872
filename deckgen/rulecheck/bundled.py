"""The rules check of every bundled rules file, as ``deckgen demo`` runs it.

Takes a folder and a reporter; checks ``rules/*.toml`` and writes ``check-<id>.json``
and ``check-<id>.md`` into the folder: the demo's card-domino rules with
:data:`MAIN_ROUNDS` rounds, every other file with :data:`OTHER_ROUNDS` rounds of which
the reference engine plays :data:`OTHER_JUDGE_ROUNDS` (so the demo stays quick). A
verdict that asks for something (:func:`asks_for_action`: a warning, a failure, gaps,
broken play) is passed on as a warning; a notice stays in its report and the demo's
index.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from deckgen.engine.backends.registry import unsupported
from deckgen.engine.tables import compile_tables
from deckgen.progress import CollectingReporter, Reporter
from deckgen.rulecheck.check import CheckOptions
from deckgen.rulecheck.files import check_to_folder
from deckgen.rulespec import list_rules

MAIN_RULES = "card-domino"
MAIN_ROUNDS = 20_000
OTHER_ROUNDS = 4_000
OTHER_JUDGE_ROUNDS = 600
"""Rounds the reference engine plays (as the judge) for the other files in the demo."""
OTHER_INVARIANT_ROUNDS = 200
SEED = 2026


def check_bundled(folder: Path, *, reporter: Reporter | None = None) -> list[Path]:
    """Check every bundled rules file into ``folder``; give the paths written."""
    reporter = reporter or CollectingReporter()
    written: list[Path] = []
    for spec in list_rules():
        if spec.id == MAIN_RULES:
            opts = CheckOptions(rounds=MAIN_ROUNDS, seed=SEED)
        elif unsupported(spec, compile_tables(spec, spec.player_counts[0]), ("random",)):
            # only the kernel plays it (without numba: Mexican Train, Chicken Foot,
            # All Fives): the judge's rounds
            opts = CheckOptions(
                rounds=OTHER_JUDGE_ROUNDS,
                seed=SEED,
                judge_rounds=OTHER_JUDGE_ROUNDS,
                invariant_rounds=OTHER_INVARIANT_ROUNDS,
            )
        else:
            opts = CheckOptions(
                rounds=OTHER_ROUNDS,
                seed=SEED,
                judge_rounds=OTHER_JUDGE_ROUNDS,
                invariant_rounds=OTHER_INVARIANT_ROUNDS,
            )
        reports, paths = check_to_folder([spec], folder, opts, reporter=reporter)
        written += paths
        report = reports[spec.id]
        if asks_for_action(report["verdict"]):
            reporter.warn(warning_line(spec.id, report))
    return written


def asks_for_action(verdict: str) -> bool:
    """Whether a verdict asks the designer to change something: not ``ok``, and not
    ``notice`` (worth knowing, nothing to change; docs/rules-check.md)."""
    return verdict not in ("ok", "notice")


def warning_line(rules_id: str, report: dict[str, Any]) -> str:
    """One line for a verdict other than ``ok``: the verdict and the first three reasons
    (a graded reason names its level already: ``notice: ...``)."""
    said = "; ".join(report["reasons"][:3])
    verdict = report["verdict"]
    if not said.startswith(f"{verdict}:"):
        said = f"{verdict}: {said}" if said else verdict
    return f"rules check of {rules_id}: {said}"
