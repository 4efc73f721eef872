"""Errors of the option parser itself are one paragraph too, for every command.

Typer's vendored click checks some values before deckgen sees them: numbers with a
range (``--age 200``), choices (``--format a0``), non-numbers for numeric options, a
missing argument or option value, unknown options and commands. Its own output is a
usage box of several lines; deckgen turns each into one ``error:`` paragraph, exit 2
(``deckgen.cli._DeckgenGroup``). The cases here are generated from the real command
tree, so a new command or option is covered without editing this file.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import pytest
import typer
from typer._click.core import Command
from typer._click.exceptions import UsageError
from typer.testing import CliRunner

from deckgen.cli import app
from tests.hostile.contract import assert_clean_error

ROOT: Any = typer.main.get_command(app)


@dataclass(frozen=True)
class Case:
    """One bad command line: the words of the command, then the words after it."""

    command: tuple[str, ...]
    rest: tuple[str, ...]
    names: str
    """What the message must name (an option, ``argument``, ``command`` ...)."""

    @property
    def args(self) -> list[str]:
        return [*self.command, *self.rest]


def _leaves(command: Any, path: tuple[str, ...]) -> list[tuple[tuple[str, ...], Any]]:
    if not hasattr(command, "list_commands"):
        return [(path, command)]
    ctx = typer.Context(command)  # the root makes its groups on first use: ask for each
    out: list[tuple[tuple[str, ...], Any]] = []
    for name in command.list_commands(ctx):
        out.extend(_leaves(command.get_command(ctx, name), (*path, name)))
    return out


def _bad_values(option: Any) -> list[str]:
    """Values the parser must refuse for ``option`` (empty for a free text or path)."""
    annotation = option.type_descriptor.annotation
    inner = getattr(annotation, "__args__", (annotation,))[0]
    if option.is_flag:
        return []
    values: list[str] = []
    if inner in (int, float):
        values += ["zz", "\x1b[31mred", "1" + "9" * 5000 if inner is int else "1,5"]
    if inner is int:
        values += ["1.5"]
    if option.min is not None:
        values.append(str(option.min - 1))
    if option.max is not None:
        values.append(str(option.max + 1))
    if isinstance(inner, type) and issubclass(inner, enum.Enum):
        values += ["no-such-choice", "\x1b]0;title\x07"]
    return values


def _cases() -> list[Case]:
    cases: list[Case] = [
        Case((), ("--no-such-option",), "--no-such-option"),
        Case((), ("no-such-command",), "no-such-command"),
        Case(("rules",), ("no-such-command",), "no-such-command"),
    ]
    for path, command in _leaves(ROOT, ()):
        arguments = [p for p in command.params if p.param_type_name == "argument"]
        options = [p for p in command.params if p.param_type_name == "option"]
        required = [p for p in options if p.required]
        given = tuple("x" for p in arguments if p.required)
        if given:
            cases.append(Case(path, (), "missing argument"))
        if required:
            cases.append(Case(path, given, "missing option"))
        given += tuple(w for p in required for w in (max(p.opts, key=len), "x"))
        if all(p.nargs == 1 for p in arguments):
            cases.append(Case(path, (*given, "x", "extra"), "unexpected extra argument"))
        cases.append(Case(path, (*given, "--no-such-option"), "--no-such-option"))
        for option in options:
            name = max(option.opts, key=len)
            if option.is_flag:
                cases.append(Case(path, (*given, f"{name}=zz"), name))
                continue
            cases.append(Case(path, (*given, name), name))  # the value is missing
            cases.extend(Case(path, (*given, name, v), name) for v in _bad_values(option))
    return cases


CASES = _cases()


def _parse_fails(case: Case) -> bool:
    """The parser alone refuses the case (so running it never starts real work)."""
    command: Any = ROOT
    for word in case.command:
        command = command.commands[word]
    try:
        name = (case.command or ("deckgen",))[-1]
        # the base class's make_context: the root's own one already reports the error
        with Command.make_context(command, name, list(case.rest)) as ctx:
            if getattr(command, "commands", None):
                command.resolve_command(ctx, list(case.rest))
    except UsageError:
        return True
    return False


def test_every_command_and_option_is_covered() -> None:
    commands = {case.command for case in CASES}
    assert ("rules", "booklet") in commands
    assert ("deck", "build") in commands
    assert len(commands) >= 15, sorted(commands)
    assert any(case.args[-2:] == ["--age", "100"] for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[" ".join(c.args)[:70] for c in CASES])
def test_parser_error_is_one_paragraph(case: Case) -> None:
    assert _parse_fails(case), f"the parser accepted {case.args}"
    result = CliRunner().invoke(app, case.args)
    output = result.output
    assert result.exit_code == 2, (result.exit_code, output[-500:])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert output.startswith("error: "), output[:300]
    assert "Usage:" not in output, output
    assert "╭" not in output, output
    assert_clean_error(output)
    assert case.names.lower() in output.lower(), output
    command = " ".join(("deckgen", *case.command))
    assert f"'{command} --help'" in output, output


@pytest.mark.parametrize(
    "args",
    [["--help"], ["rules", "--help"], ["rules", "booklet", "--help"], ["deck", "build", "-h"]],
)
def test_help_is_unchanged(args: list[str]) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Usage: deckgen" in result.output
    assert "error:" not in result.output


@pytest.mark.parametrize("args", [[], ["rules"], ["deck"]])
def test_group_without_arguments_still_shows_its_help(args: list[str]) -> None:
    result = CliRunner().invoke(app, args)
    assert "Usage: deckgen" in result.output
    assert "error:" not in result.output
