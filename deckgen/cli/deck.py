"""``deckgen deck ...``: start a deck file, build a deck's print files, preview it.

Thin: each command parses options, calls one library function in
:mod:`deckgen.deck` and reports. Heavy libraries load inside the commands.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    help="Custom domino card decks: faces, backs, cover and imprint from a deck file.",
    no_args_is_help=True,
)

DeckFileArg = Annotated[Path, typer.Argument(help="The deck file (TOML).")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars or notes.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON on stdout.")]
AllowOutsideOpt = Annotated[
    bool,
    typer.Option(
        "--allow-outside",
        help="Let the deck file use pictures and fonts outside its own folder "
        "(only for deck files you trust).",
    ),
]


@app.command("new")
def new_command(
    deck_file: Annotated[Path, typer.Argument(help="Where to write the starter deck file.")],
    set_name: Annotated[
        str, typer.Option("--set", help="Domino set: double-6 ... double-12 (up to double-18).")
    ] = "double-6",
    preset: Annotated[
        str | None,
        typer.Option("--preset", help="Vendor preset for card size, bleed and safe zone."),
    ] = None,
    name: Annotated[
        str | None, typer.Option("--name", help="The deck's name (default: from the file name).")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
    quiet: QuietOpt = False,
) -> None:
    """Write a commented starter deck file that builds as it is (it uses the demo art)."""
    from deckgen import atomic
    from deckgen.deck.starter import StarterCard, card_from_preset, starter_toml
    from deckgen.errors import InputError
    from deckgen.setstable import parse_set

    dset = parse_set(set_name, where="option --set")
    if deck_file.exists() and not force:
        raise InputError(
            f"{deck_file} already exists",
            where="argument DECK_FILE",
            fix="choose another file name, or pass --force to overwrite it",
        )
    card = card_from_preset(preset) if preset else StarterCard()
    deck_name = name or deck_file.stem.replace("-", " ").replace("_", " ").title() or "My Deck"
    atomic.write_text(deck_file, starter_toml(deck_name, dset.name, dset.max_pip, card))
    if not quiet:
        typer.echo(f"wrote {deck_file}; build it with: deckgen deck build {deck_file}")


@app.command("build")
def build_command(
    deck_file: DeckFileArg,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Output folder (default: output/<deck name>/)."),
    ] = None,
    allow_outside: AllowOutsideOpt = False,
    strict_text: Annotated[
        bool,
        typer.Option(
            "--strict-text",
            help="Text that does not fit at the minimum readable size is an error, not a warning.",
        ),
    ] = False,
    no_preview: Annotated[
        bool, typer.Option("--no-preview", help="Skip the preview contact sheet.")
    ] = False,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Build cards.pdf, back.pdf, preview.png and manifest.json for a deck file."""
    from deckgen.cli.reporting import ConsoleReporter
    from deckgen.deck.build import build_deck

    reporter = ConsoleReporter(quiet=quiet)
    result = build_deck(
        deck_file,
        out,
        allow_outside=allow_outside,
        reporter=reporter,
        strict_text=strict_text,
        preview=not no_preview,
    )
    reporter.finish()
    if as_json:
        payload = {
            "out_dir": str(result.out_dir),
            "written": [str(p) for p in result.files],
            "warnings": result.warnings,
            "manifest": result.manifest,
        }
        sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    elif not quiet:
        for path in result.files:
            typer.echo(f"wrote {path}")


@app.command("preview")
def preview_command(
    deck_file: DeckFileArg,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="The PNG to write (default: output/<deck name>/preview.png)."),
    ] = None,
    allow_outside: AllowOutsideOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Only the contact sheet of every card and the back, fast, to look at."""
    from deckgen.cli.reporting import ConsoleReporter
    from deckgen.deck.build import preview_deck

    reporter = ConsoleReporter(quiet=quiet)
    path = preview_deck(deck_file, out, allow_outside=allow_outside, reporter=reporter)
    reporter.finish()
    if not quiet:
        typer.echo(f"wrote {path}")
