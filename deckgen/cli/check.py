"""``deckgen rules check``: the command function (registered in :mod:`deckgen.cli.rules`).

Thin: parse options, run the check with a progress bar, write the JSON and Markdown
reports (and example game records beside them), print a summary, and exit with the
verdict: 0 ok, 3 gaps, 4 broken (2 stays for user errors).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from deckgen.cli.options import JsonOpt, player_counts, players_option
from deckgen.errors import InputError

RulesArg = Annotated[
    str,
    typer.Argument(help="A rules id, an alias (German or English name) or a path to a .toml file."),
]


def summary_lines(report: dict[str, Any]) -> list[str]:
    """A few lines for the terminal: the verdict, its reasons, the main figures."""
    lines = [f"{report['rules']['id']}: {report['verdict']}"]
    reasons = report["reasons"]
    lines += [f"  - {r}" for r in reasons[:12]]
    if len(reasons) > 12:
        lines.append(f"  ... and {len(reasons) - 12} more (see the report)")
    for key, sec in report["players"].items():
        st = sec["stats"]
        turns = st["turns_per_round"].get("mean", 0.0)
        fp = st["first_player_win_share"]["share"]
        not_out = st["round_end"]["not_out"]["share"]
        minutes = st["playing_time_minutes"].get("mean", 0.0)
        lines.append(
            f"  {key} players: {st['rounds']:,} rounds, {turns:.1f} turns a round, "
            f"{100 * (not_out or 0):.1f} % end without anyone out, starting player wins "
            f"{100 * (fp or 0):.1f} %, about {minutes:.0f} min a match"
        )
        never = sec["coverage"]["never_reached"]
        if never:
            lines.append(
                f"    never reached in {sec['coverage']['rounds_tried']:,} rounds: "
                + ", ".join(never)
            )
    return lines


def check_command(
    rules: RulesArg,
    rounds: Annotated[
        int, typer.Option("--rounds", help="Rounds to play per player count and bot line-up.")
    ] = 100_000,
    players: Annotated[
        str | None,
        players_option("The player counts to check, e.g. 2,3,4 (default: every count allowed)."),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="Bot line-ups, comma-separated: random, greedy, smart for every seat, "
            "or per seat joined by + (smart+random). Statistics are given per line-up.",
        ),
    ] = "random",
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the run (same seed, same report).")
    ] = 0,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Worker processes (default: all cores).")
    ] = None,
    json_file: Annotated[
        Path | None,
        typer.Option(
            "--report",
            help="Write the JSON report to this file (example game records go beside it).",
        ),
    ] = None,
    md_file: Annotated[
        Path | None, typer.Option("--md", help="Write the Markdown report to this file.")
    ] = None,
    seconds_per_turn: Annotated[
        float,
        typer.Option("--seconds-per-turn", help="Assumed seconds per turn for the playing time."),
    ] = 10.0,
    no_fast: Annotated[
        bool,
        typer.Option("--no-fast", help="Play every round with the reference engine (slower)."),
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar; print only the verdict line.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Play a rules file out at scale and report what its rules get wrong.

    Exit code: 0 ok, 3 gaps (situations the file does not decide), 4 broken.
    """
    from deckgen.api.checks import check_rules
    from deckgen.api.games import load_rules
    from deckgen.cli.reporting import ConsoleReporter

    spec = load_rules(rules)
    for target in (json_file, md_file):
        if target is not None and target.is_dir():
            raise InputError(
                f"'{target}' is a folder", where="option --report/--md", fix="give a file name"
            )
    reporter = ConsoleReporter(quiet=quiet, json=as_json)
    check = check_rules(
        spec,
        reporter=reporter,
        rounds=rounds,
        players=player_counts(players) if players else None,
        bots=tuple(b.strip() for b in bots.split(",") if b.strip()),
        seed=seed,
        workers=workers,
        fast=not no_fast,
        seconds_per_turn=seconds_per_turn,
    )
    check.write(json_path=json_file, md_path=md_file)
    report = check.report
    if as_json:
        from deckgen.rulecheck.files import report_json

        sys.stdout.write(report_json(report))
        raise typer.Exit(check.exit_code)
    lines = summary_lines(report)
    sys.stdout.write(("\n".join(lines[:1]) if quiet else "\n".join(lines)) + "\n")
    raise typer.Exit(check.exit_code)
