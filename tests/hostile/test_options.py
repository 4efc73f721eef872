"""Options out of range: every option has a range and a message (exit 2, no traceback)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckgen.cli import app
from tests.hostile.contract import assert_refused

CASES = [
    ["rules", "booklet", "two-player", "--age", "200"],
    ["rules", "booklet", "two-player", "--age", "-1"],
    ["rules", "booklet", "two-player", "--lang", "fr"],
    ["rules", "booklet", "two-player", "--format", "a0"],
    ["rules", "play", "two-player", "--bots", ""],
    ["rules", "play", "two-player", "--bots", ",,,"],
    ["rules", "play", "two-player", "--bots", "genius"],
    ["rules", "play", "two-player", "--players", "9"],
    ["rules", "play", "two-player", "--players", "-3"],
    ["rules", "play", "two-player", "--seed", "-1"],
    ["rules", "play", "two-player", "--seed", str(10**30)],
    ["rules", "play", "two-player", "--human", "5"],
    ["rules", "check", "two-player", "--bots", ""],
    ["rules", "check", "two-player", "--rounds", "0"],
    ["rules", "check", "two-player", "--rounds", str(10**20)],
    ["rules", "check", "two-player", "--players", "1,99"],
    ["rules", "check", "two-player", "--players", "x"],
    ["rules", "check", "two-player", "--workers", "100000"],
    ["rules", "check", "two-player", "--seed", "-5"],
    ["rules", "check", "two-player", "--seconds-per-turn", "nan"],
    ["rules", "check", "two-player", "--seconds-per-turn", "1e300"],
    ["rules", "show", "two-player", "--lang", "xx"],
    ["rules", "show", "x" * 5000],
    ["deck", "new", "NEW/x.toml", "--set", "double-99"],
    ["deck", "new", "NEW/x.toml", "--name", "a\nb"],
    ["deck", "new", "NEW/x.toml", "--name", "N" * 1000],
    ["deck", "new", "NEW/x.toml", "--preset", "nope"],
    ["deck", "calibrate", "--paper", "A99", "--out", "NEW/c.pdf"],
    ["deck", "build", "DECK", "--sheets", "A99"],
    ["deck", "build", "DECK", "--back-offset", "1e9,0"],
    ["deck", "build", "DECK", "--back-offset", "nan,nan"],
    ["deck", "build", "DECK", "--preset", "../../etc/passwd"],
    ["sets", "double-99"],
    ["sets", "double-" + "9" * 5000],
]


@pytest.mark.parametrize("args", CASES, ids=[" ".join(a)[:60] for a in CASES])
def test_option_out_of_range_is_refused(args: list[str], tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('name = "T"\nset = "double-6"\n')
    args = [a.replace("NEW", str(tmp_path / "new")).replace("DECK", str(deck)) for a in args]
    result = CliRunner().invoke(
        app, [*args, "--out", str(tmp_path / "o")] if "build" in args else args
    )
    assert_refused(result)
    assert not (tmp_path / "new").exists()
    assert not (tmp_path / "o").exists()
