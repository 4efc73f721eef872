"""The rules check of every bundled rules file, as ``deckgen demo`` runs it.

Takes a folder and a reporter; checks ``rules/*.toml`` (the demo's card-domino rules
with :data:`MAIN_ROUNDS` rounds, every other file with :data:`OTHER_ROUNDS`, so the
demo stays quick) and writes ``check-<id>.json`` and ``check-<id>.md`` into the
folder. A verdict other than ``ok`` is passed on as a warning.
"""

from __future__ import annotations

from pathlib import Path

from deckgen.progress import CollectingReporter, Reporter
from deckgen.rulecheck.check import CheckOptions
from deckgen.rulecheck.files import check_to_folder
from deckgen.rulespec import list_rules

MAIN_RULES = "card-domino"
MAIN_ROUNDS = 20_000
OTHER_ROUNDS = 2_000
SEED = 2026


def check_bundled(folder: Path, *, reporter: Reporter | None = None) -> list[Path]:
    """Check every bundled rules file into ``folder``; give the paths written."""
    reporter = reporter or CollectingReporter()
    written: list[Path] = []
    for spec in list_rules():
        rounds = MAIN_ROUNDS if spec.id == MAIN_RULES else OTHER_ROUNDS
        reports, paths = check_to_folder(
            [spec], folder, CheckOptions(rounds=rounds, seed=SEED), reporter=reporter
        )
        written += paths
        report = reports[spec.id]
        if report["verdict"] != "ok":
            reporter.warn(
                f"rules check of {spec.id}: {report['verdict']}: "
                + "; ".join(report["reasons"][:3])
            )
    return written
