"""Writing a check report to files: JSON, Markdown, and the example game records beside them.

Takes a rules file, its report and target paths; writes each file atomically (a
failed run leaves the old files) and gives the paths written. Also
:func:`check_to_folder`, which checks rules files and writes ``check-<id>.json`` and
``check-<id>.md`` into one folder (used by ``deckgen demo``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from deckgen import atomic
from deckgen.progress import CollectingReporter, Reporter
from deckgen.rulecheck.charts import charts_of
from deckgen.rulecheck.check import CheckOptions
from deckgen.rulecheck.checked import checked_report
from deckgen.rulecheck.examples import write_examples
from deckgen.rulecheck.markdown import report_markdown
from deckgen.rulespec import RuleSpec


def report_json(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=1, ensure_ascii=False) + "\n"


def write_report(
    spec: RuleSpec,
    report: dict[str, Any],
    *,
    json_path: Path | None = None,
    md_path: Path | None = None,
) -> list[Path]:
    """Write the report (and its example records, beside the first file) to disk."""
    written: list[Path] = []
    first = json_path or md_path
    if first is None:
        return written
    for path in (json_path, md_path):
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
    stem = first.name.split(".")[0] or "check"
    written += write_examples(spec, report, first.parent, stem)
    if json_path is not None:
        atomic.write_text(json_path, report_json(report))
        written.append(json_path)
    if md_path is not None:
        charts: dict[str, dict[str, str]] = {}
        mstem = md_path.name.split(".")[0] or "check"
        for key, sec in report["players"].items():
            for name, svg in charts_of(key, sec, report["playing_time"]).items():
                target = md_path.parent / f"{mstem}.{key}p.{name}.svg"
                atomic.write_text(target, svg)
                written.append(target)
                charts.setdefault(key, {})[name] = target.name
        atomic.write_text(md_path, report_markdown(report, charts))
        written.append(md_path)
    return written


def check_to_folder(
    specs: list[RuleSpec],
    folder: Path,
    options: CheckOptions,
    *,
    reporter: Reporter | None = None,
) -> tuple[dict[str, dict[str, Any]], list[Path]]:
    """Check each rules file to the end, as ``deckgen rules check`` does
    (:func:`~deckgen.rulecheck.checked.checked_report`); write ``check-<id>.json`` and
    ``.md`` into ``folder``.

    Gives the reports by rules id and the paths written.
    """
    reporter = reporter or CollectingReporter()
    reports: dict[str, dict[str, Any]] = {}
    written: list[Path] = []
    for spec in specs:
        report = checked_report(spec, options, reporter=reporter)
        reports[spec.id] = report
        written += write_report(
            spec,
            report,
            json_path=folder / f"check-{spec.id}.json",
            md_path=folder / f"check-{spec.id}.md",
        )
    return reports, written
