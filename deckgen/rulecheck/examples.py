"""Example game records for the report: a match that met each gap, or broke an invariant.

Takes a :class:`~deckgen.rulecheck.check.CheckResult` and its report; plays each named
match again from its seed (the same deal and bot choices: every match of a check run
is reproducible from its seed) with ``record=True`` and writes its game record next to
the report, so that ``deckgen rules replay FILE`` plays it once more under the rules.
Fills ``record`` in the report's examples with the file name (relative to the report).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from deckgen import atomic
from deckgen.engine import Engine, make_bots, play_match
from deckgen.engine.record import match_record, record_json
from deckgen.rulespec import RuleSpec

MAX_EXAMPLES = 20


def example_record(spec: RuleSpec, players: int, bots: list[str], seed: int) -> dict[str, Any]:
    """The game record of match ``seed`` as the check played it."""
    engine = Engine(spec, players)
    match = play_match(engine, make_bots(bots, players, seed), seed, record=True)
    return match_record(spec, match, seed=seed, bots=bots)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def write_examples(spec: RuleSpec, report: dict[str, Any], folder: Path, stem: str) -> list[Path]:
    """Write the example records named in ``report`` into ``folder``; return their paths."""
    written: list[Path] = []
    todo: list[tuple[dict[str, Any], str]] = []
    for key, sec in report["players"].items():
        for g in sec["gaps"]:
            if g["example"] is not None:
                todo.append((g["example"], f"{stem}.{key}p.gap-{_slug(g['situation'])}"))
        for i, v in enumerate(sec["invariants"]["violations"]):
            todo.append((v, f"{stem}.{key}p.violation-{i + 1}"))
    for example, name in todo[:MAX_EXAMPLES]:
        try:
            rec = example_record(spec, example["players"], example["bots"], example["seed"])
        except Exception:  # an engine that breaks cannot always record: the command stays
            continue
        path = folder / f"{name}.record.json"
        atomic.write_text(path, record_json(rec))
        example["record"] = path.name
        written.append(path)
    return written
