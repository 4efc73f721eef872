"""An error is read first and whole: one complete paragraph, before any warning.

Shows: a deck that breaks a vendor rule prints its ``error:`` paragraph before the
preflight's warnings, complete (never "(message shortened)"), naming the rule and the
fix; an over-long message is shortened between two words, never inside one.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.errors import MAX_MESSAGE_CHARS, InputError

runner = CliRunner()


def test_a_rule_error_comes_first_and_whole(tmp_path: Path) -> None:
    deck = tmp_path / "night.toml"
    deck.write_text('name = "Night"\nset = "double-3"\n[card]\nbackground = "#000000"\n')
    result = runner.invoke(
        app, ["deck", "build", str(deck), "--preset", "meinspiel", "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 2, result.output
    lines = result.output.splitlines()
    errors = [i for i, line in enumerate(lines) if line.startswith("error:")]
    warnings = [i for i, line in enumerate(lines) if line.startswith("warning:")]
    assert len(errors) == 1, result.output
    assert warnings, "the preflight's details follow as warnings"
    assert errors[0] < warnings[0], "the error paragraph must come before the warnings"
    error = lines[errors[0]]
    assert "shortened" not in error
    assert error.endswith(".")
    assert "meinspiel" in error
    assert "contrast" in error


def test_a_long_message_is_cut_between_words() -> None:
    words = " ".join(f"word{n:03d}x" for n in range(200))
    message = InputError(words, where="somewhere", fix="do something").message()
    assert len(message) <= MAX_MESSAGE_CHARS
    assert message.endswith("(message shortened)")
    kept = message.removesuffix(" … (message shortened)")
    last = kept.split()[-1]
    assert len(last) == len("word000x"), f"cut inside a word: {last!r}"
