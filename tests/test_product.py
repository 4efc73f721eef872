"""``imprint.rules`` in a deck file: the short rules of a rules file on the imprint card."""

from __future__ import annotations

from pathlib import Path

import pypdf
from typer.testing import CliRunner

from deckgen.cli import app

DECK = """\
name = "Club Domino"
set = "double-7"
[card]
size = "{size}"
[imprint]
text = "Made by the **Family Club**, 2026."
rules = "{rules}"
"""


def _write(tmp_path: Path, size: str, rules: str = "card-domino") -> Path:
    deck = tmp_path / "deck.toml"
    deck.write_text(DECK.format(size=size, rules=rules))
    return deck


def test_short_rules_on_imprint_card(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["deck", "build", str(_write(tmp_path, "meinspiel")), "--out", str(out), "-q"]
    )
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(out / "cards.pdf")
    imprint = " ".join(reader.pages[-1].extract_text().split())
    assert "Family Club" in imprint
    assert "never more than three cards in one turn" in imprint  # the draw limit of card-domino
    assert "card-domino" not in imprint  # the reference itself is never printed


def test_short_rules_follow_the_deck_language(runner: CliRunner, tmp_path: Path) -> None:
    deck = _write(tmp_path, "meinspiel")
    deck.write_text(
        deck.read_text().replace('set = "double-7"', 'set = "double-7"\nlanguage = "de"')
    )
    out = tmp_path / "out"
    assert runner.invoke(app, ["deck", "build", str(deck), "--out", str(out), "-q"]).exit_code == 0
    imprint = " ".join(pypdf.PdfReader(out / "cards.pdf").pages[-1].extract_text().split())
    assert "3" in imprint
    assert "Karte" in imprint


def test_short_rules_that_cannot_fit_fail_cleanly(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["deck", "build", str(_write(tmp_path, "36 x 40")), "--out", str(out), "-q"]
    )
    assert result.exit_code == 2
    assert "do not fit" in result.stderr
    assert "minimum readable size" in result.stderr
    assert not out.exists()


def test_unknown_rules_reference(runner: CliRunner, tmp_path: Path) -> None:
    deck = _write(tmp_path, "meinspiel", rules="card-domnio")
    result = runner.invoke(app, ["deck", "build", str(deck), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert "card-domino" in result.stderr
