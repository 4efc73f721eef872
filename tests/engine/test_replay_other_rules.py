"""``rules replay --rules OTHER``: the note and the mismatch say what differs.

A designer replayed a two-player record under card-domino and was told the rules
"changed since this record was made", and that the deal "does not hold every tile of
the set", without naming the other rules or the sets' sizes.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from deckgen.cli import app


def test_replaying_under_other_rules_names_both_rules_and_the_sets_sizes(tmp_path: Path) -> None:
    record = tmp_path / "two.json"
    played = CliRunner().invoke(
        app, ["rules", "play", "two-player", "--seed", "3", "--record", str(record)]
    )
    assert played.exit_code == 0, played.output
    result = CliRunner().invoke(app, ["rules", "replay", str(record), "--rules", "card-domino"])
    assert result.exit_code == 1
    assert (
        "note: this game was recorded under the rules 'two-player' and is replayed under "
        "'card-domino'"
    ) in result.stderr
    assert "changed since this record was made" not in result.stderr
    assert "double-7 has 36 tiles; the deal holds 28" in result.stdout


def test_replaying_under_its_own_rules_has_no_note(tmp_path: Path) -> None:
    record = tmp_path / "two.json"
    CliRunner().invoke(app, ["rules", "play", "two-player", "--seed", "3", "--record", str(record)])
    result = CliRunner().invoke(app, ["rules", "replay", str(record)])
    assert result.exit_code == 0, result.output
    assert "note:" not in result.stderr
