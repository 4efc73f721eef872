"""``deckgen demo``: make the whole product for the built-in demo into one folder.

Combines the pillars (sets table; later the deck, the rules check and the booklets),
so it lives apart from each of them. Writes everything through a staging folder: the
demo folder gets a complete set of new files or keeps its old ones.
"""

from __future__ import annotations

from pathlib import Path

from deckgen import atomic
from deckgen.progress import CollectingReporter, Reporter
from deckgen.setstable import set_rows, sets_json, sets_markdown


def make_demo(out_dir: str | Path, *, reporter: Reporter | None = None) -> list[Path]:
    """Write the demo outputs into ``out_dir``; return the paths written."""
    reporter = reporter or CollectingReporter()
    out_dir = Path(out_dir)
    written: list[str] = []
    with atomic.staged_dir(out_dir) as stage:
        rows = set_rows()
        atomic.write_text(stage / "sets.md", sets_markdown(rows))
        atomic.write_text(stage / "sets.json", sets_json(rows))
        written += ["sets.md", "sets.json"]
        # The demo deck: cards.pdf, back.pdf, preview.png, manifest.json in deck/.
        from deckgen.deck.build import build_deck
        from deckgen.resources import images_dir

        deck = build_deck(images_dir() / "demo-deck.toml", stage / "deck", reporter=reporter)
        written += [f"deck/{path.name}" for path in deck.files]
        written += _demo_match(stage)
        written += _demo_checks(stage, reporter)
    return [out_dir / name for name in written]


def _demo_match(stage: Path) -> list[str]:
    """One seeded match of the card-domino rules: its record and its readable course."""
    from deckgen.engine import Engine, make_bots, play_match
    from deckgen.engine.course import match_lines
    from deckgen.engine.record import match_record, record_json
    from deckgen.rulespec import load_rules

    spec = load_rules("card-domino")
    bots = ["smart", "greedy", "random"]
    seed = 2026
    match = play_match(
        Engine(spec, 3, check_invariants=True), make_bots(bots, 3, seed), seed, record=True
    )
    atomic.write_text(
        stage / "rules" / "card-domino-match.json",
        record_json(match_record(spec, match, seed=seed, bots=bots)),
    )
    atomic.write_text(
        stage / "rules" / "card-domino-match.txt",
        "\n".join(match_lines(spec, match, bots=bots)) + "\n",
    )
    return ["rules/card-domino-match.json", "rules/card-domino-match.txt"]


def _demo_checks(stage: Path, reporter: Reporter) -> list[str]:
    """The rules check of every bundled rules file: check-<id>.json and .md (the card
    domino with more rounds; see docs/rules-check.md)."""
    from deckgen.rulecheck.bundled import check_bundled

    return [p.relative_to(stage).as_posix() for p in check_bundled(stage, reporter=reporter)]
