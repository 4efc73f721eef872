"""``deckgen demo``: make the whole product for the built-in demo into one folder.

Combines the pillars, so it lives apart from each of them: the sets table; the
MeinSpiel-style double-7 card deck from ``images/demo-deck.toml`` (cover, 36 cards,
imprint with the short rules, backs with the demo logo, A4 sheets for duplex printing);
one recorded match of the card-domino rules; the rules check of every bundled rules
file; the booklets of the card-domino rules in German and English (with the check's
figures), and of Mexican Train for a double-12 deck; and ``README.md``, an index of
what was made. Everything is written through
a staging folder: the demo folder gets a complete set of new files or keeps its old
ones.
"""

from __future__ import annotations

import json
from pathlib import Path

from deckgen import atomic
from deckgen.progress import CollectingReporter, Reporter
from deckgen.setstable import set_rows, sets_json, sets_markdown

DEMO_RULES = "card-domino"
DEMO_SEED = 2026


def make_demo(
    out_dir: str | Path = "output/demo", *, reporter: Reporter | None = None
) -> list[Path]:
    """Write the demo outputs into ``out_dir``; return the paths written."""
    reporter = reporter or CollectingReporter()
    out_dir = Path(out_dir)
    written: list[str] = []
    with atomic.staged_dir(out_dir) as stage:
        rows = set_rows()
        atomic.write_text(stage / "sets.md", sets_markdown(rows))
        atomic.write_text(stage / "sets.json", sets_json(rows))
        written += ["sets.md", "sets.json"]
        written += _demo_deck(stage, reporter)
        reporter.start("demo: playing a recorded match", None)
        written += _demo_match(stage)
        reporter.finish()
        written += _demo_checks(stage, reporter)
        written += _demo_booklets(stage, reporter)
        written += _demo_train_booklets(stage, reporter)
        atomic.write_text(stage / "README.md", _index(stage, written))
        written.append("README.md")
    return [out_dir / name for name in written]


def _demo_deck(stage: Path, reporter: Reporter) -> list[str]:
    """The demo deck with the short rules on its imprint card and A4 duplex sheets."""
    from deckgen.prepress.printout import PrintOptions
    from deckgen.product import build_printed_deck, load_printed_deck
    from deckgen.resources import images_dir

    deck = load_printed_deck(images_dir() / "demo-deck.toml")
    result = build_printed_deck(
        deck,
        stage / "deck",
        PrintOptions(sheets="A4", duplex="long"),
        reporter=reporter,
        strict_text=True,
    )
    return [f"deck/{path.name}" for path in result.files]


def _demo_match(stage: Path) -> list[str]:
    """One seeded match of the card-domino rules: its record and its readable course."""
    from deckgen.engine import Engine, make_bots, play_match
    from deckgen.engine.course import match_lines
    from deckgen.engine.record import match_record, record_json
    from deckgen.rulespec import load_rules

    spec = load_rules(DEMO_RULES)
    bots = ["smart", "greedy", "random"]
    match = play_match(
        Engine(spec, 3, check_invariants=True),
        make_bots(bots, 3, DEMO_SEED),
        DEMO_SEED,
        record=True,
    )
    atomic.write_text(
        stage / "rules" / "card-domino-match.json",
        record_json(match_record(spec, match, seed=DEMO_SEED, bots=bots)),
    )
    atomic.write_text(
        stage / "rules" / "card-domino-match.txt",
        "\n".join(match_lines(spec, match, bots=bots)) + "\n",
    )
    return ["rules/card-domino-match.json", "rules/card-domino-match.txt"]


CHECKS = "checks"
"""The demo's folder of rules check reports (with their charts and example records)."""


def _demo_checks(stage: Path, reporter: Reporter) -> list[str]:
    """The rules check of every bundled rules file: checks/check-<id>.json and .md with
    their charts (the card domino with more rounds; see docs/rules-check.md)."""
    from deckgen.rulecheck.bundled import check_bundled

    paths = check_bundled(stage / CHECKS, reporter=reporter)
    return [p.relative_to(stage).as_posix() for p in paths]


def _demo_booklets(stage: Path, reporter: Reporter) -> list[str]:
    """The card-domino booklets, German and English, A5 and imposed for saddle stitch,
    picturing the demo deck and printing the figures of the check just run."""
    from deckgen.booklet.make import load_check_report, make_booklets
    from deckgen.resources import images_dir

    paths = make_booklets(
        DEMO_RULES,
        stage / "booklet",
        langs=("de", "en"),
        deck=images_dir() / "demo-deck.toml",
        check_report=load_check_report(stage / CHECKS / f"check-{DEMO_RULES}.json"),
        impose=True,
        age=6,
        reporter=reporter,
    )
    return [p.relative_to(stage).as_posix() for p in paths]


TRAIN_RULES = "mexican-train"
"""The game a double-12 deck is bought for: its booklets come with the demo too."""


def _demo_train_booklets(stage: Path, reporter: Reporter) -> list[str]:
    """The Mexican Train booklets, German and English, for a double-12 deck (the demo
    deck's design with 91 tiles), printing the figures of the check just run."""
    from deckgen.booklet.make import load_check_report, make_booklets

    paths = make_booklets(
        TRAIN_RULES,
        stage / TRAIN_RULES,
        langs=("de", "en"),
        check_report=load_check_report(stage / CHECKS / f"check-{TRAIN_RULES}.json"),
        reporter=reporter,
    )
    return [p.relative_to(stage).as_posix() for p in paths]


_DESCRIPTIONS = {
    "sets.md": "the domino sets double-6 ... double-18 (tiles, pips, printed deck size)",
    "sets.json": "the same, for scripts",
    "deck/cards.pdf": "every card front, one per page, with bleed (TrimBox/BleedBox set)",
    "deck/back.pdf": "the card back, same geometry",
    "deck/preview.png": "contact sheet of all fronts and the back",
    "deck/manifest.json": "every file and card of the deck build",
    "deck/sheets.pdf": "A4 sheets for home printing: fronts, then backs for long-edge duplex",
    "deck/calibration.pdf": "duplex calibration sheet: measures your printer's back shift",
    "deck/preflight.json": "print preflight: picture dpi, safe margin, fonts, colour",
    "rules/card-domino-match.json": "a recorded match (replay: deckgen rules replay FILE)",
    "rules/card-domino-match.txt": "the same match, readable",
    "booklet/booklet-de.pdf": "rule booklet, German, A5",
    "booklet/booklet-en.pdf": "rule booklet, English, A5",
    "booklet/booklet-de-press.pdf": "German booklet for the press: bleed, CMYK, 4n pages",
    "booklet/booklet-en-press.pdf": "English booklet for the press: bleed, CMYK, 4n pages",
    "booklet/booklet-de-print.pdf": "German booklet imposed for saddle stitching, crop marks",
    "booklet/booklet-en-print.pdf": "English booklet imposed for saddle stitching, crop marks",
    f"{TRAIN_RULES}/booklet-de.pdf": "Mexican Train rule booklet for a double-12 deck, German",
    f"{TRAIN_RULES}/booklet-en.pdf": "Mexican Train rule booklet for a double-12 deck, English",
}


def _describe(name: str) -> str:
    if name in _DESCRIPTIONS:
        return _DESCRIPTIONS[name]
    base = name.removeprefix(f"{CHECKS}/")
    if base.startswith("check-") and base.endswith(".json"):
        return f"rules check report of {base[6:-5]} (versioned JSON)"
    if base.startswith("check-") and base.endswith(".md"):
        return f"rules check report of {base[6:-3]}, readable, with its charts"
    return ""


def _is_report(name: str) -> bool:
    base = name.removeprefix(f"{CHECKS}/")
    return base.startswith("check-") and base.endswith(".json")


def _listed(name: str) -> bool:
    """Index rows: every file but the check's charts and example records, which the
    Markdown reports link to."""
    return not name.startswith(f"{CHECKS}/") or name.endswith((".md",)) or _is_report(name)


def _verdicts(stage: Path, written: list[str]) -> list[str]:
    lines = []
    for name in written:
        if _is_report(name):
            report = json.loads((stage / name).read_text(encoding="utf-8"))
            lines.append(f"- `{report.get('rules', {}).get('id', name)}`: {report['verdict']}")
    return lines


def _index(stage: Path, written: list[str]) -> str:
    rows = "\n".join(
        f"| [`{name}`]({name}) | {_describe(name)} |" for name in sorted(written) if _listed(name)
    )
    charts = sum(1 for name in written if not _listed(name))
    verdicts = "\n".join(_verdicts(stage, written))
    return f"""# deckgen demo

Everything deckgen makes for its built-in demo: a MeinSpiel-style double-7 picture
domino (cover, 36 cards, an imprint card with the short rules, backs with the demo
logo), A4 sheets to print at home, the card-domino rule booklets in German and English,
the Mexican Train booklets for a double-12 deck, and the rules check of every bundled
rules file. Made by `make demo` (`deckgen demo`).

| file | what it is |
|---|---|
{rows}

The rules check reports in `{CHECKS}/` link to the {charts} further files beside them
(charts, and example game records where a report has any).

Rules check verdicts, the worst finding of each report (`ok`: nothing found; `notice`:
worth knowing, nothing to change; `warn` and `fail`: a design problem or a text that
contradicts the rules, graded by size; `gaps`: situations the file does not decide;
`broken`: play breaks). A design finding is replayed with skilled players first: one
that comes from random play alone is a notice. Clauses never reached are listed in each
report with a proof or a bound:

{verdicts}
"""
