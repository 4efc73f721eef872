"""``deckgen rules ...``: list, show, play and replay rules files.

RULES is a rules id, an alias (German or English name) or a path to a TOML file.
Thin commands: parse options, call the engine, print. Exit codes: 0 done, 1 a replay
that does not match its record, 2 a user error; ``check``: 3 gaps, 4 broken.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from deckgen.cli.options import JsonOpt, player_counts, players_option
from deckgen.cli.output import say, write_json

app = typer.Typer(
    help="Rules files: list them, show one, play a match, replay a recorded game, "
    "write the rule booklet, check the rules at scale, tune a design finding away.",
    no_args_is_help=True,
    add_completion=False,  # a group of the root command (deckgen.cli), not a program
)

RulesArg = Annotated[
    str,
    typer.Argument(help="A rules id, an alias (German or English name) or a path to a .toml file."),
]
MAX_SEED = 2**53
"""Seeds are recorded in game records, whose numbers are bounded (docs/limits.md)."""
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Print only the result line.")]


@app.command("list")
def list_command(as_json: JsonOpt = False) -> None:
    """List the bundled rules files: id, names, set, players."""
    from deckgen.rulespec import list_rules

    specs = list_rules()
    rows: list[dict[str, Any]] = [
        {
            "id": s.id,
            "name_de": s.name("de"),
            "name_en": s.name("en"),
            "set": s.dset.name,
            "players": s.player_counts,
            "aliases": s.aliases,
            "path": str(s.path) if s.path else None,
        }
        for s in specs
    ]
    if as_json:
        write_json(json.dumps({"version": 1, "rules": rows}, indent=2, ensure_ascii=False) + "\n")
        return
    s_counts = {s.id: s.player_counts for s in specs}
    for r in rows:
        players = ",".join(str(n) for n in s_counts[r["id"]])
        say(f"{r['id']:<16} {r['set']:<10} players {players:<7} {r['name_en']} / {r['name_de']}")


def _show_text(spec: Any, lang: str) -> list[str]:
    p = spec.params
    lines = [f"{spec.name(lang)} ({spec.id})", spec.summary(lang), ""]
    lines.append(f"file: {spec.path}" if spec.path else "file: (in memory)")
    lines.append(f"aliases: {', '.join(spec.aliases)}")
    lines.append(f"set: {spec.dset.name} ({len(spec.dset)} tiles), source: {p.source}")
    lines.append("")
    lines.append("deal (players: hand, stock, dead, reserve):")
    for row in spec.deal_table():
        lines.append(f"  {row.players}: {row.hand_size}, {row.stock}, {row.dead}, {row.reserve}")
    lines.append("")
    lines.append("parameters:")
    for section in ("players", "deal", "opening", "board", "turn", "scoring", "match"):
        values = getattr(p, section).model_dump()
        lines.append(f"  [{section}] " + ", ".join(f"{k} = {v}" for k, v in values.items()))
    for section in spec.sections(lang):
        lines.append("")
        lines.append(f"## {section.title}")
        for c in section.clauses:
            mark = "*" if c.decides else "-"
            lines.append(f" {mark} [{c.id}] {c.text}")
    notes = spec.notes(lang)
    if notes:
        lines.append("")
        lines.append("## Notes" if lang == "en" else "## Anmerkungen")
        for n in notes:
            lines.append(f" - [{n.id}] ({n.kind}; {', '.join(n.clauses)}) {n.decision}")
            lines.append(f"   {n.reason}")
    lines.append("")
    lines.append("(* = a clause the engine applies and reports)")
    return lines


@app.command("show")
def show_command(
    rules: RulesArg,
    lang: Annotated[str, typer.Option("--lang", help="Language of the texts: en or de.")] = "en",
    as_json: JsonOpt = False,
) -> None:
    """Show a rules file: its parameters, every clause and the notes."""
    from deckgen.rulespec import load_rules

    spec = load_rules(rules)
    spec.text_params(lang)  # validates the language
    if as_json:
        data = {
            "id": spec.id,
            "sha256": spec.sha256,
            "params": spec.params.model_dump(exclude={"clause", "note"}),
            "deal_table": [row.__dict__ for row in spec.deal_table()],
            "sections": [
                {
                    "id": s.id,
                    "title": s.title,
                    "clauses": [c.__dict__ for c in s.clauses],
                }
                for s in spec.sections(lang)
            ],
            "notes": [n.__dict__ for n in spec.notes(lang)],
        }
        write_json(json.dumps(data, indent=2, ensure_ascii=False, default=list) + "\n")
        return
    say("\n".join(_show_text(spec, lang)))


@app.command("play")
def play_command(
    rules: RulesArg,
    players: Annotated[
        str | None,
        players_option("The number of players (default: the smallest the rules allow)."),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="Comma-separated bots by seat: random, greedy, smart, pimc (the last "
            "repeats); pimc takes options: pimc:worlds=100:endgame=6.",
        ),
    ] = "random",
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for a reproducible match (default: random).")
    ] = None,
    record: Annotated[
        Path | None, typer.Option("--record", help="Write the game record (JSON) to this file.")
    ] = None,
    check_invariants: Annotated[
        bool,
        typer.Option("--check-invariants", help="Verify the engine's invariants after every step."),
    ] = False,
    human: Annotated[
        int | None,
        typer.Option(
            "--human",
            help="Play this seat yourself in the terminal (seats 1 to the number of "
            "players; moves by number).",
        ),
    ] = None,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Play one match and print its course readably."""
    from deckgen.api.games import load_rules, play_match
    from deckgen.engine import Player
    from deckgen.engine.human import HumanPlayer
    from deckgen.errors import InputError
    from deckgen.paths import check_output_file

    if record is not None:
        check_output_file(record, where="option --record")
    spec = load_rules(rules)
    counts = player_counts(players) if players is not None else spec.player_counts[:1]
    if len(counts) != 1:
        raise InputError(
            "a match is played by one number of players",
            where="option --players",
            fix="give one count, e.g. --players 3 (rules check takes several)",
        )
    n = counts[0]
    spec.hand_size(n)  # validates the player count
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise InputError(
            "the seed is out of range", where="option --seed", fix=f"use 0 to {MAX_SEED}"
        )
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if not names:
        raise InputError(
            "no bots given", where="option --bots", fix="e.g. --bots random or --bots smart,greedy"
        )
    seats: list[str | Player] = list(names)
    if human is not None:
        if not 1 <= human <= n:
            raise InputError(
                f"there is no seat {human} with {n} players",
                where="option --human",
                fix=f"use a seat from 1 to {n} (seats are numbered from 1)",
            )
        seats = [seats[min(seat, len(seats) - 1)] for seat in range(n)]
        seats[human - 1] = HumanPlayer()
    match = play_match(spec, players=n, bots=seats, seed=seed, check_invariants=check_invariants)
    if record is not None:
        match.write_record(record)
    result = match.result
    if as_json:
        out = {
            "rules": spec.id,
            "players": n,
            "seed": match.seed,
            "bots": list(match.bots),
            "totals": list(result.totals),
            "winners": list(result.winners),
            "rounds": [
                {"end": r.end, "points": list(r.points), "clauses": list(r.clauses)}
                for r in result.rounds
            ],
            "gaps": [g.situation for g in result.all_gaps()],
            "record": str(record) if record else None,
        }
        write_json(json.dumps(out, indent=2) + "\n")
        return
    if not quiet:
        say("\n".join(match.lines()))
        say(f"seed {match.seed}" + (f"; record written to {record}" if record else ""))
    else:
        winners = " and ".join(match.winner_names())
        verdict = f"{winners} won" if len(result.winners) == 1 else f"shared win: {winners}"
        say(f"{spec.id}: {verdict}, totals {list(result.totals)} (seed {match.seed})")


@app.command("replay")
def replay_command(
    file: Annotated[
        Path, typer.Argument(help="A game record written by `deckgen rules play --record`.")
    ],
    rules: Annotated[
        str | None,
        typer.Option("--rules", help="Replay under these rules instead of the record's rules id."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Replay a recorded game under its rules; exit 1 naming the first action that differs."""
    from deckgen.engine.record import check_record_tiles, load_record, replay
    from deckgen.errors import SpecError, excerpt
    from deckgen.paths import is_regular_file
    from deckgen.rulespec import bundled_suggestion, find_bundled, load_rules, load_rules_file

    rec = load_record(file)
    if rules is not None:
        spec = load_rules(rules)
    else:
        found = find_bundled(rec.rules.id)
        if found is None and rec.rules.path and is_regular_file(rec.rules.path):
            found = load_rules_file(rec.rules.path)  # a rules file that is not bundled
            if found.id != rec.rules.id:
                found = None
        if found is None:
            hint = bundled_suggestion(rec.rules.id)
            raise SpecError(
                f"the game record names unknown rules '{excerpt(rec.rules.id, 60)}'"
                + (f"; {hint}" if hint else ""),
                where=f"{file}, key rules.id",
                fix="give the rules with --rules ID_OR_FILE",
            )
        spec = found
        check_record_tiles(rec, spec, path=file)  # a tile outside its set: not a record
    report = replay(rec, spec=spec)
    if as_json:
        write_json(json.dumps(report.__dict__, indent=2) + "\n")
    else:
        if spec.id != rec.rules.id:
            say(
                f"note: this game was recorded under the rules '{excerpt(rec.rules.id, 60)}' "
                f"and is replayed under '{spec.id}'",
                err=True,
            )
        elif report.rules_changed:
            say(
                f"note: the rules '{spec.id}' changed since this record was made (hash differs)",
                err=True,
            )
        say(("ok: " if report.ok else "MISMATCH: ") + report.message)
    if not report.ok:
        raise typer.Exit(1)


def _register_booklet() -> None:
    """``deckgen rules booklet`` is defined in :mod:`deckgen.cli.booklet` (light imports)."""
    from deckgen.cli.booklet import booklet_command

    app.command("booklet")(booklet_command)


_register_booklet()


def _register_check() -> None:
    """``deckgen rules check`` is defined in :mod:`deckgen.cli.check` (light imports);
    it exits 0 ok, 3 gaps, 4 broken (docs/rules-check.md)."""
    from deckgen.cli.check import check_command

    app.command("check")(check_command)


_register_check()


def _register_tune() -> None:
    """``deckgen rules tune`` is defined in :mod:`deckgen.cli.tune` (light imports)."""
    from deckgen.cli.tune import tune_command

    app.command("tune")(tune_command)


_register_tune()
