"""The command line behaves the same everywhere.

- ``--json`` is a flag everywhere and means one thing: print JSON on stdout (files are
  written by options that name them: ``--report``, ``--md``, ``--record``, ``--out``);
- ``--players`` / ``-n`` takes the same form in ``rules play`` and ``rules check``;
- help shows no ``<bool>`` or ``<list[...]>`` labels, and a group's help names all of
  its commands;
- with stdout off a terminal, a long command prints a line when each step starts and
  ends, as it happens (never into ``--json`` output, never before an ``error:``).
"""

from __future__ import annotations

import inspect
import itertools
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.core import TyperGroup, TyperOption
from typer.testing import CliRunner

from deckgen.cli import app

DECKGEN = str(Path(sys.executable).parent / "deckgen")


def _commands(group: TyperGroup, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    ctx = typer.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        yield (*path, name)
        if isinstance(command, TyperGroup):
            yield from _commands(command, (*path, name))


ROOT = typer.main.get_command(app)
assert isinstance(ROOT, TyperGroup)
COMMANDS = sorted(_commands(ROOT))


def _command(path: tuple[str, ...]) -> Any:
    command: Any = ROOT
    for name in path:
        assert isinstance(command, TyperGroup)
        found = command.get_command(typer.Context(command), name)
        assert found is not None
        command = found
    return command


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_a_commands_summary_is_one_unbroken_paragraph(path: tuple[str, ...]) -> None:
    """The first paragraph of a command's help is what its group's list shows; a line
    break in it shows up as a ragged break in the middle of that list."""
    summary = (_command(path).help or "").strip().split("\n\n")[0]
    assert summary, f"deckgen {' '.join(path)} has no help"
    assert "\n" not in summary, f"deckgen {' '.join(path)}: {summary!r}"


def _joins(text: str) -> list[str]:
    """Each place a later paragraph of ``text`` breaks a line: the word before the break,
    a space and the word after it."""
    pairs = []
    for paragraph in inspect.cleandoc(text).split("\n\n")[1:]:
        lines = [line.split() for line in paragraph.splitlines()]
        pairs += [f"{a[-1]} {b[0]}" for a, b in itertools.pairwise(lines) if a and b]
    return pairs


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_help_text_flows_as_paragraphs_not_as_the_source_lines(path: tuple[str, ...]) -> None:
    """A docstring's line breaks are the source's, not the reader's: at any width the
    help reflows them (at 2,000 columns each paragraph is one line)."""
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "2000"})
    assert result.exit_code == 0, result.output
    for pair in _joins(_command(path).help or ""):
        assert any(pair in " ".join(line.split()) for line in result.output.splitlines()), (
            f"deckgen {' '.join(path)} --help breaks the line at {pair!r}"
        )


@pytest.mark.parametrize("path", [(), *COMMANDS], ids=lambda p: " ".join(p) or "deckgen")
def test_help_has_no_python_type_labels(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "<bool>" not in result.output
    assert "<list[" not in result.output


GROUPS = [p for p in COMMANDS if isinstance(_command(p), TyperGroup)]


@pytest.mark.parametrize("path", GROUPS, ids=" ".join)
def test_group_help_names_every_command(path: tuple[str, ...]) -> None:
    group = _command(path)
    text = (group.help or "").lower()
    for name in group.list_commands(typer.Context(group)):
        assert name in text, f"`deckgen {' '.join(path)} --help` does not mention {name}"


def test_json_is_a_flag_that_prints_on_stdout_everywhere() -> None:
    with_json = []
    for path in COMMANDS:
        command = _command(path)
        for param in command.params:
            if "--json" in getattr(param, "opts", []):
                assert isinstance(param, TyperOption), " ".join(path)
                assert param.is_flag, " ".join(path)
                assert "stdout" in (param.help or ""), " ".join(path)
                with_json.append(path)
    assert ("rules", "check") in with_json
    assert ("deck", "build") in with_json


@pytest.mark.parametrize("path", [("rules", "play"), ("rules", "check")], ids=" ".join)
def test_players_takes_the_same_form(path: tuple[str, ...]) -> None:
    options = {o: p for p in _command(path).params for o in getattr(p, "opts", [])}
    assert options["--players"] is options["-n"]
    assert options["--players"].metavar == "N[,N...]"


def test_players_in_play_and_check(tmp_path: Path) -> None:
    runner = CliRunner()
    play = runner.invoke(app, ["rules", "play", "card-domino", "-n", "3", "--seed", "1", "--json"])
    assert play.exit_code == 0, play.output
    assert json.loads(play.stdout)["players"] == 3
    several = runner.invoke(app, ["rules", "play", "card-domino", "--players", "3,4"])
    assert several.exit_code == 2
    assert "one number of players" in several.stderr
    check = runner.invoke(
        app,
        [
            *["rules", "check", "card-domino", "-n", "3,4", "--rounds", "500", "--workers", "1"],
            *["--json", "--no-fast"],
        ],
    )
    assert check.exit_code in (0, 3, 5, 6), check.output  # ok, gaps or a design finding
    assert sorted(json.loads(check.stdout)["players"]) == ["3", "4"]
    bad = runner.invoke(app, ["rules", "check", "card-domino", "--players", "three"])
    assert bad.exit_code == 2
    assert "--players 2,3,4" in bad.stderr


def test_progress_lines_arrive_while_the_command_runs() -> None:
    """Off a terminal, stdout gets a line as each step starts (stderr stays for errors)."""
    with subprocess.Popen(
        [DECKGEN, "rules", "check", "two-player", "--rounds", "100000", "--workers", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        still_running = proc.poll() is None
        rest, errors = proc.communicate()
    assert errors == ""
    assert first.startswith("checking two-player (")
    assert still_running, "the first progress line came only when the command had ended"
    assert "checking two-player: done in" in rest


def test_progress_lines_stay_out_of_json_and_errors(tmp_path: Path) -> None:
    deck = tmp_path / "d.toml"
    deck.write_text('name = "D"\n')
    runner = CliRunner()
    built = runner.invoke(app, ["deck", "build", str(deck), "--out", str(tmp_path / "o")])
    assert built.exit_code == 0, built.output
    assert "drawing cards (30 steps) ..." in built.stdout
    assert built.stdout.index("drawing cards: done in") < built.stdout.index("wrote ")
    as_json = runner.invoke(
        app, ["deck", "build", str(deck), "--out", str(tmp_path / "j"), "--json"]
    )
    assert json.loads(as_json.stdout)["manifest"]["deck"] == "D"
    (tmp_path / "pic.png").write_text("not a picture")
    deck.write_text('name = "D"\n[back]\nlogo = "pic.png"\n')
    refused = runner.invoke(app, ["deck", "build", str(deck), "--out", str(tmp_path / "x")])
    assert refused.exit_code == 2
    assert refused.stderr.startswith("error: ")
    assert "\n" not in refused.stderr.strip()
