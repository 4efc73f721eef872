"""``deckgen rules tune``: the command function (registered in :mod:`deckgen.cli.rules`).

Thin: parse the goal and the parameters to vary, run :func:`deckgen.rulecheck.tune.tune`
with progress, print the table of variants, and with ``--out`` write the table
(Markdown), its chart (SVG) and the best variant as a ready rules file.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckgen.cli.check import RulesArg
from deckgen.cli.options import QuietOpt, player_counts, players_option
from deckgen.cli.output import write_text
from deckgen.errors import InputError

if TYPE_CHECKING:
    from deckgen.rulecheck.tune import Goal
    from deckgen.rulespec import RuleSpec


def tune_command(
    rules: RulesArg,
    goal: Annotated[
        str | None,
        typer.Option(
            "--goal",
            help="The design finding to remove (blocked, draw_heavy, first_player, ...), "
            "optionally with the figure to reach (blocked<0.2). Default: the worst "
            "design finding of a quick check.",
        ),
    ] = None,
    vary: Annotated[
        str | None,
        typer.Option(
            "--vary",
            help="Only these parameters, separated by commas "
            "(deal.hand_size,turn.draw_limit). Default: every one the tuner knows.",
        ),
    ] = None,
    players: Annotated[
        str | None, players_option("The player count to tune (default: the worst one).")
    ] = None,
    screen_rounds: Annotated[
        int, typer.Option("--screen-rounds", help="Rounds per variant in the first pass.")
    ] = 3000,
    rounds: Annotated[
        int, typer.Option("--rounds", help="Rounds for the file and the best variants.")
    ] = 20000,
    seed: Annotated[int, typer.Option("--seed", help="Seed shared by every variant.")] = 0,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Write tune.md (the table), tune.svg (the chart) and <id>-tuned.toml (the "
            "best variant) into this folder.",
        ),
    ] = None,
    queue: Annotated[
        str | None,
        typer.Option(
            "--queue",
            help="Play the variants as jobs on this Redis queue (redis://host:6379/0), "
            "taken by `deckgen worker` processes on any machine; the table is the same.",
        ),
    ] = None,
    insecure_redis: Annotated[
        bool,
        typer.Option(
            "--insecure-redis",
            help="Allow a Redis server on another machine without password or TLS.",
        ),
    ] = False,
    quiet: QuietOpt = False,
) -> None:
    """Find the smallest change of the file's own settings that removes a design finding.

    Prints the variants tried (exit 0; 1 when no variant reaches the goal)."""
    from deckgen.api.games import load_rules
    from deckgen.rulecheck.tune import (
        TuneOptions,
        chart_svg,
        parse_goal,
        patched_toml,
        table_lines,
    )
    from deckgen.rulecheck.tune import tune as run_tune

    spec = load_rules(rules)
    for value, name, top in ((screen_rounds, "--screen-rounds", 1_000_000),
                             (rounds, "--rounds", 10_000_000)):  # fmt: skip
        if not 100 <= value <= top:
            raise InputError(f"{name} {value} is out of range", where=f"option {name}",
                             fix=f"use 100 to {top:,}")  # fmt: skip
    counts = player_counts(players) if players else None
    if counts is not None and len(counts) != 1:
        raise InputError("tune one player count at a time", where="option --players",
                         fix="e.g. --players 2")  # fmt: skip
    the_goal: Goal | None = parse_goal(goal) if goal else None
    n = counts[0] if counts else None
    if the_goal is None or n is None:
        n, the_goal = _worst(spec, n, the_goal, screen_rounds, seed)
    if the_goal is None or n is None:
        write_text(f"{spec.id}: the check has no design finding to tune\n")
        return
    names = tuple(v.strip() for v in vary.split(",") if v.strip()) if vary else None

    def progress(label: str) -> None:
        if not quiet:
            typer.echo(f"  trying {label}", err=True)

    player = None
    if queue is not None:
        from deckgen.batch.sweeps import QueuePlayer

        player = QueuePlayer(queue, insecure=insecure_redis)
    options = TuneOptions(
        vary=names, screen_rounds=screen_rounds, confirm_rounds=rounds, seed=seed,
        progress=progress, player=player,
    )  # fmt: skip
    result = run_tune(spec, n, the_goal, options)
    lines = table_lines(result)
    write_text("\n".join(lines) + "\n")
    if out is not None:
        from deckgen.atomic import write_text as write_file

        if out.exists() and not out.is_dir():
            raise InputError(f"'{out}' is a file", where="option --out", fix="give a folder")
        write_file(out / "tune.md", "# Tuning " + "\n".join(lines) + "\n")
        write_file(out / "tune.svg", chart_svg(result))
        best = result.best
        if best is not None and spec.path is not None:
            text = patched_toml(spec.path.read_text(encoding="utf-8"), best.changes)
            write_file(out / f"{spec.id}-tuned.toml", text)
    if result.best is None:
        raise typer.Exit(1)


def _worst(
    spec: RuleSpec, n: int | None, goal: Goal | None, rounds: int, seed: int
) -> tuple[int | None, Goal | None]:
    """The player count and the design finding to tune when not given: the worst one."""
    from deckgen.rulecheck.check import CheckOptions, run_check
    from deckgen.rulecheck.report import build_report
    from deckgen.rulecheck.severity import DESIGN, LEVELS
    from deckgen.rulecheck.tune import Goal

    opts = CheckOptions(rounds=rounds, players=(n,) if n else None, seed=seed, workers=1)
    report = build_report(run_check(spec, opts))
    found = [w for w in report["warnings"] if w["id"] in DESIGN and w.get("players")]
    if goal is not None:
        found = [w for w in found if w["id"] == goal.finding]
    if not found:
        return n, goal
    w = max(found, key=lambda f: (LEVELS.index(f["severity"]), f.get("value") or 0))
    return int(w["players"]), goal if goal is not None else Goal(w["id"])
