"""The ``deckgen`` command line: thin commands that parse options, call one library
function and report. Heavy libraries are imported inside the commands, never here, so
``deckgen --help`` stays instant.

Exit codes: 0 success; 1 a check that failed (``rules replay``); 2 a user error
(bad input, printed as one ``error:`` paragraph); 3 and 4 are the rules check's
verdicts (gaps, broken).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import sys
import threading
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from typer._click.exceptions import NoArgsIsHelpError, UsageError
from typer.core import TyperGroup

import deckgen
from deckgen.cli import helptext
from deckgen.cli.options import JsonOpt, QuietOpt
from deckgen.cli.output import say, write_json
from deckgen.errors import DeckgenError
from deckgen.startup import at_work

helptext.install()


def usage_error(exc: UsageError, command: str = "deckgen") -> DeckgenError:
    """A usage error of the option parser (typer's vendored click) as one of ours.

    Out-of-range numbers, bad choices, non-integers, missing arguments, unknown options
    and commands: what click says, where (the command; ``command`` when click did not
    say), and how to fix (its ``--help``), instead of click's usage box.
    """
    from deckgen.errors import InputError

    if exc.ctx is not None:
        command = exc.ctx.command_path
    what = exc.format_message().replace("Value error, ", "")
    return InputError(
        what[:1].lower() + what[1:],
        where=f"command '{command}'",
        fix=f"see '{command} --help' for the options, their values and ranges",
    )


def _command_path(ctx: Any, words: list[str]) -> str:
    """The deepest command ``words`` name below ``ctx`` (``deckgen rules booklet``).

    Click leaves some parse errors (an option missing its value) without a context;
    this finds the command they belong to from the words given.
    """
    path = [ctx.command_path]
    command = ctx.command
    for word in words:
        sub = command.commands.get(word) if hasattr(command, "commands") else None
        if sub is None:
            break
        path.append(word)
        command = sub
    return " ".join(path)


_GROUPS: dict[str, typer.Typer] = {}
"""The command groups that live in modules of their own, by name, made into click groups
on first use (:meth:`_DeckgenGroup.get_command`): typer builds every option of a group,
so a command builds only its own group (all of them: 17 ms; the ``rules`` group alone:
7 ms, of a small rules check's 0.3 s), and of it only the command named
(:meth:`_DeckgenGroup.resolve_command`: 1 ms for ``rules check``)."""


def _one_command(group: str, name: str) -> Any | None:
    """The click group of ``_GROUPS[group]`` holding only its command ``name`` (None if it
    has no such command)."""
    import copy

    from typer.main import get_command_name, get_group

    whole = _GROUPS[group]
    chosen = [
        info
        for info in whole.registered_commands
        if info.callback is not None
        and (info.name or get_command_name(info.callback.__name__)) == name
    ]
    if len(chosen) != 1 or whole.registered_groups:
        return None
    part = copy.copy(whole)
    part.registered_commands = chosen
    command = get_group(part)
    command.name = group
    _work_first(command)
    return command


def _work_first(command: Any) -> None:
    """Every command under ``command`` begins its work by ending the start-up
    (:func:`deckgen.startup.at_work`), unless it loads its input first."""
    subcommands = getattr(command, "commands", None)
    if subcommands is not None:
        for sub in subcommands.values():
            _work_first(sub)
    elif command.callback is not None:
        command.callback = at_work(command.callback)


class _DeckgenGroup(TyperGroup):
    """The root command group: a user error anywhere below becomes one paragraph, exit 2.

    Handling it here (not in ``main``) makes the console script, ``python -m deckgen``
    and typer's CliRunner in tests behave the same. The option parser's own errors
    (click's usage errors) are caught here too: in :meth:`make_context` for the root's
    options, in :meth:`invoke` for every subcommand's (their contexts are made there).
    ``--help`` and a group called without arguments still print their help.
    """

    def list_commands(self, ctx: Any) -> list[str]:
        own = [name for name in super().list_commands(ctx) if name not in _GROUPS]
        return [*own, *_GROUPS]  # the groups after the commands, as typer orders them

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        partial = getattr(command, "_deckgen_partial", False)  # made by resolve_command
        if (command is None or partial) and cmd_name in _GROUPS:
            from typer.main import get_command

            command = get_command(_GROUPS[cmd_name])
            command.name = cmd_name
            self.add_command(command, cmd_name)
        if command is not None:
            _work_first(command)
        return command

    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[Any, Any, list[str]]:
        """A group of its own module (:data:`_GROUPS`) followed by the name of one of its
        commands is built with that command alone: typer builds every option of every
        command of a group it builds (the whole ``rules`` group 7.5 ms, its ``check``
        alone 1 ms). Help, a group without a command or a name it does not know go the
        usual way (the whole group, which lists its commands and suggests the nearest)."""
        if len(args) > 1 and args[0] in _GROUPS and args[0] not in self.commands:
            command = _one_command(args[0], args[1])
            if command is not None:
                command._deckgen_partial = True  # asked for by name later: the whole group
                self.add_command(command, args[0])
                return args[0], command, args[1:]
        return super().resolve_command(ctx, args)

    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any
    ) -> Any:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except UsageError as exc:
            if isinstance(exc, NoArgsIsHelpError):
                raise
            typer.echo(f"error: {usage_error(exc).message()}", err=True)
            raise typer.Exit(2) from None

    def invoke(self, ctx: Any) -> Any:
        from deckgen.errors import machine_error
        from deckgen.interrupts import Terminated, terminate_like_ctrl_c

        words = [*getattr(ctx, "_protected_args", []), *ctx.args]  # invoke empties them
        try:
            with terminate_like_ctrl_c():
                return super().invoke(ctx)
        except NoArgsIsHelpError:
            raise
        except UsageError as exc:
            message = usage_error(exc, _command_path(ctx, words)).message()
            typer.echo(f"error: {message}", err=True)
            raise typer.Exit(2) from None
        except DeckgenError as exc:
            typer.echo(f"error: {exc.message()}", err=True)
            raise typer.Exit(exc.exit_code) from None
        except (OSError, MemoryError) as exc:
            # Faults of the machine (disk full, read-only, no permission, no memory)
            # that no edge turned into a DeckgenError yet: still one paragraph, exit 2.
            error = machine_error(exc)
            if error is None:
                raise
            typer.echo(f"error: {error.message()}", err=True)
            raise typer.Exit(error.exit_code) from None
        except Terminated as exc:
            typer.echo(f"deckgen: stopped by {exc} (nothing half-written kept)", err=True)
            raise typer.Exit(128 + exc.signum) from None


app = typer.Typer(
    name="deckgen",
    cls=_DeckgenGroup,
    help="Print-ready custom domino card decks, rule booklets in German and English, "
    "and a reference engine that plays the printed rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"deckgen {deckgen.__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """deckgen: domino card decks, rule booklets and a rules engine."""


@app.command("sets")
def sets_command(
    names: Annotated[
        list[str] | None,
        typer.Argument(help="Sets to show, e.g. double-6 double-12 (default: double-6 ... -18)."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """List the domino sets: tiles, doubles, pip totals, printed deck size."""
    from deckgen.setstable import parse_set, set_rows, sets_json

    sets = [parse_set(n, where="argument NAMES") for n in names] if names else None
    rows = set_rows(sets)
    if as_json:
        write_json(sets_json(rows))
        return
    from rich.table import Table

    from deckgen.cli.output import listing_console, name_column
    from deckgen.setstable import COLUMNS

    table = Table(title="Domino sets", title_justify="left")
    for key, title in COLUMNS:
        if key == "name":
            name_column(table, title, [str(row[key]) for row in rows])
        else:
            table.add_column(title, justify="right")
    for row in rows:
        table.add_row(*(str(row[key]) for key, _ in COLUMNS))
    listing_console().print(table)


@app.command("demo")
def demo_command(
    out: Annotated[Path, typer.Option("--out", help="Folder for the demo outputs.")] = Path(
        "output/demo"
    ),
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Make everything deckgen can make for the built-in demo, into output/demo/."""
    from deckgen.cli.reporting import ConsoleReporter
    from deckgen.demo import make_demo

    reporter = ConsoleReporter(quiet=quiet, json=as_json)
    written = make_demo(out, reporter=reporter)
    reporter.finish()
    if as_json:
        write_json(json.dumps({"written": [str(p) for p in written]}, indent=2) + "\n")
    elif not quiet:
        for path in written:
            say(f"wrote {path}")


def _register_subcommands() -> None:
    """Attach the command groups that live in their own modules."""
    import importlib

    for module_name, group in (
        ("deckgen.cli.deck", "deck"),
        ("deckgen.cli.rules", "rules"),
        ("deckgen.cli.batch", "batch"),
    ):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue
            raise
        _GROUPS[group] = module.app
        worker = getattr(module, "worker_command", None)
        if worker is not None:
            app.command("worker")(worker)


_register_subcommands()


def _register_studio() -> None:
    from deckgen.cli.studio import studio_command

    app.command("studio")(studio_command)


_register_studio()


def main() -> None:
    """Console-script entry point: run the command, then leave (:func:`leave`)."""
    try:
        app()
    except SystemExit as exc:
        leave(exc.code)
    leave(0)


def leave(code: str | int | None) -> NoReturn:
    """End the process with ``code`` once the command is done, without Python's
    teardown of every module.

    The exit handlers run and the standard streams are flushed, as at a normal exit;
    what is skipped is the interpreter freeing each module and object one by one, which
    costs about 0.06 s after a rules check and 0.2-0.3 s once numba's compiler is loaded
    (its LLVM objects are destroyed one by one): a third of a small check's time. Every
    file the command writes is closed by then. Another thread still running (none of
    deckgen's commands leaves one) gets the normal exit, which waits for it.
    """
    if threading.active_count() > 1:
        sys.exit(code)
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:  # as Python prints a non-integer exit code
        print(code, file=sys.stderr)
        status = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        # a closed pipe, a closed stream: nothing to keep
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(status & 0xFF)
