"""A name a user must type is never cut in a listing, on a terminal or piped to a file.

Shows: ``deck presets``, ``sets`` and ``rules list`` written to a pipe (not a terminal,
where rich would lay them out for 80 columns) carry every name whole; on a narrow
terminal the name column keeps its names whole too.
"""

from __future__ import annotations

import io
import json

from typer.testing import CliRunner

from deckgen.cli import app

runner = CliRunner()


def test_deck_presets_piped_names_every_preset_whole() -> None:
    names = [
        p["name"]
        for p in json.loads(runner.invoke(app, ["deck", "presets", "--json"]).stdout)["presets"]
    ]
    table = runner.invoke(app, ["deck", "presets"])
    assert table.exit_code == 0, table.output
    assert "…" not in table.stdout, table.stdout
    for name in names:
        assert f" {name} " in table.stdout, f"{name} is cut:\n{table.stdout}"


def test_sets_and_rules_list_piped_name_everything_whole() -> None:
    sets = runner.invoke(app, ["sets", "double-6", "double-18"])
    assert sets.exit_code == 0, sets.output
    assert " double-18 " in sets.stdout
    assert "…" not in sets.stdout
    rules = runner.invoke(app, ["rules", "list"])
    assert rules.exit_code == 0, rules.output
    listed = json.loads(runner.invoke(app, ["rules", "list", "--json"]).stdout)
    ids = [r["id"] for r in listed["rules"]]
    for rule_id in ids:
        assert rule_id in rules.stdout.split(), f"{rule_id} is cut:\n{rules.stdout}"


def test_a_narrow_terminal_keeps_names_whole() -> None:
    from rich.console import Console
    from rich.table import Table

    from deckgen.cli.output import name_column

    names = ["drivethrucards", "makeplayingcards", "thegamecrafter"]
    table = Table()
    name_column(table, "name", names)
    table.add_column("writes")
    for name in names:
        table.add_row(name, "a long description of what this preset writes, to squeeze")
    buffer = io.StringIO()
    Console(file=buffer, width=40).print(table)
    for name in names:
        assert name in buffer.getvalue(), buffer.getvalue()
