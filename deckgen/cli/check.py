"""``deckgen rules check``: the command function (registered in :mod:`deckgen.cli.rules`).

Thin: parse options, run the check with a progress bar, write the JSON and Markdown
reports (and example game records beside them), print a summary, and exit with the
verdict: 0 ok, 6 notice, 5 warn, 7 fail, 3 gaps, 4 broken (2 stays for user errors).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from deckgen.cli.options import JsonOpt, player_counts, players_option
from deckgen.cli.output import write_json, write_text
from deckgen.errors import InputError
from deckgen.startup import loads_first

RulesArg = Annotated[
    str,
    typer.Argument(help="A rules id, an alias (German or English name) or a path to a .toml file."),
]


def summary_lines(report: dict[str, Any]) -> list[str]:
    """For the terminal: the verdict, every reason and warning, then per player count
    the main figures, the metrics and what was never reached (and why)."""
    lines = [f"{report['rules']['id']}: {report['verdict']}"]
    reasons = report["reasons"]
    lines += [f"  - {r}" for r in reasons[:20]]
    if len(reasons) > 20:
        lines.append(f"  ... and {len(reasons) - 20} more (see the report)")
    warnings = report.get("warnings", [])
    if warnings and report["verdict"] in ("gaps", "broken"):
        lines.append("  design warnings:")
        lines += [f"  - {w['severity']}: {w['message']}" for w in warnings]
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
        m = sec.get("metrics")
        if m:
            lines.append("    " + _metrics_line(m))
        for c in sec["coverage"]["clauses"]:
            why = c.get("never_reached")
            if why:
                lines.append(f"    {c['id']} never reached: {why['text']}")
    from deckgen.rulecheck.ladder import ladder_summary

    lines += ladder_summary(report)
    return lines


def _metrics_line(m: dict[str, Any]) -> str:
    from deckgen.engine.seatnames import seat_name

    def pc(x: Any) -> str:
        return "-" if x is None else f"{100 * x:.1f} %"

    def num(x: Any) -> str:
        return "-" if x is None else f"{x:.2f}"

    seats = ", ".join(
        f"{seat_name(s)}: {100 * v:+.1f}" for s, v in m["advantage"]["matches"].items()
    )
    p = m["advantage"].get("p_values", {}).get("matches")
    if p is not None:
        seats += f" (p = {p:.2g})"
    return (
        f"match advantage by seat (points): {seats}; balance {num(m['balance']['matches'])}; "
        f"completion {pc(m['completion'])}; "
        f"rounds without one winner {pc(m['drawishness']['rounds'])}; "
        f"decision moves {pc(m['decision_moves'])}; branching {num(m['branching_factor'])}; "
        f"lead changes {num(m['lead_changes_per_match'])} a match; decisiveness "
        f"{num(m['decisiveness'])}"
    )


@loads_first  # the check begins its work when it plays (deckgen.startup)
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
    no_confirm: Annotated[
        bool,
        typer.Option(
            "--no-confirm",
            help="Do not replay the design findings with skilled players (smart bots in "
            "every seat); by default each says whether it holds under skilled play.",
        ),
    ] = False,
    no_readings: Annotated[
        bool,
        typer.Option(
            "--no-readings",
            help="Do not replay the rules that can be read two ways (each is played both "
            "ways on the same deals when the file does not say which it means).",
        ),
    ] = False,
    ladder: Annotated[
        bool,
        typer.Option(
            "--ladder",
            help="Also play the skill ladder: random, greedy, smart and pimc against each "
            "other (how much playing well matters).",
        ),
    ] = False,
    ladder_rounds: Annotated[
        int, typer.Option("--ladder-rounds", help="Rounds per pairing of the skill ladder.")
    ] = 100,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar; print only the verdict line.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Play a rules file out at scale and report what its rules get wrong.

    The verdict is the worst finding: exit code 0 ok, 6 notice, 5 warn, 7 fail (a
    printed text that contradicts the parameters, or a design far over its limits),
    3 gaps (situations the file does not decide), 4 broken.
    """
    from deckgen.api.checks import check_rules
    from deckgen.api.games import load_rules
    from deckgen.cli.reporting import ConsoleReporter
    from deckgen.paths import check_output_file
    from deckgen.rulecheck.ladder import MAX_LADDER_ROUNDS, add_ladder

    spec = load_rules(rules)
    if not 0.1 <= seconds_per_turn <= 3600:
        raise InputError(
            "--seconds-per-turn is out of range", where="option --seconds-per-turn",
            fix="use 0.1 to 3600",
        )  # fmt: skip
    for target, option in ((json_file, "--report"), (md_file, "--md")):
        if target is not None:
            check_output_file(target, where=f"option {option}")
    if not 1 <= ladder_rounds <= MAX_LADDER_ROUNDS:
        raise InputError(
            f"--ladder-rounds {ladder_rounds} is out of range", where="option --ladder-rounds",
            fix=f"use 1 to {MAX_LADDER_ROUNDS:,}",
        )  # fmt: skip
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
        confirm=not no_confirm,
        readings=not no_readings,
    )
    report = check.report
    if ladder:
        add_ladder(report, spec, ladder_rounds, seed)
    check.write(json_path=json_file, md_path=md_file)
    if as_json:
        from deckgen.rulecheck.files import report_json

        write_json(report_json(report))
        raise typer.Exit(check.exit_code)
    lines = summary_lines(report)
    shown = "\n".join(lines[:1]) if quiet else "\n".join(lines)
    write_text(shown + "\n")
    raise typer.Exit(check.exit_code)
