"""``deckgen rules booklet``: the command function, registered by ``deckgen/cli/rules.py``.

Thin: parse options, call :func:`deckgen.booklet.make.make_booklets`, report. Nothing
heavy is imported at module level (WeasyPrint loads when the booklet is laid out).
Register it with ``app.command("booklet")(booklet_command)``.
"""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Literal

import typer

from deckgen.cli.options import AllowOutsideOpt, QuietOpt
from deckgen.cli.output import say, write_json


class BookletFormat(StrEnum):
    a5 = "a5"
    a6 = "a6"


class PaperName(StrEnum):
    a4 = "a4"
    a3 = "a3"
    sra4 = "sra4"
    sra3 = "sra3"
    letter = "letter"
    tabloid = "tabloid"


class Edition(StrEnum):
    player = "player"
    designer = "designer"


class DiagramStyle(StrEnum):
    pips = "pips"
    numerals = "numerals"


def booklet_langs(given: list[str] | None) -> list[Literal["de", "en"]]:
    """The languages of ``--lang``: each value a language or a comma list of them
    (``de,en``), the option repeatable; in order, without repeats; de and en when not
    given. An unknown language is an InputError naming the ones there are.

    >>> booklet_langs(["de,en"]), booklet_langs(["en", "de"]), booklet_langs(None)
    (['de', 'en'], ['en', 'de'], ['de', 'en'])
    """
    from deckgen.booklet.i18n import check_language

    if not given:
        return ["de", "en"]
    parts = [part.strip() for value in given for part in value.split(",")]
    known: dict[str, Literal["de", "en"]] = {"de": "de", "en": "en"}
    langs = list(dict.fromkeys(known[check_language(part)] for part in parts if part))
    if not langs:
        from deckgen.errors import InputError

        raise InputError(
            f"'{','.join(given)}' names no booklet language",
            where="option --lang",
            fix="e.g. --lang de, --lang de,en or --lang de --lang en",
        )
    return langs


def booklet_command(
    rules: Annotated[str, typer.Argument(help="Rules id, alias (German or English) or file.")],
    lang: Annotated[
        list[str] | None,
        typer.Option(
            "--lang",
            metavar="LANG[,LANG]",
            help="Booklet language: de or en; both as de,en or by repeating --lang "
            "(default: de and en).",
        ),
    ] = None,
    deck: Annotated[
        Path | None,
        typer.Option("--deck", help="Deck file whose cards are pictured (default: demo deck)."),
    ] = None,
    fmt: Annotated[
        BookletFormat, typer.Option("--format", help="Page size of the booklet.")
    ] = BookletFormat.a5,
    impose: Annotated[
        bool,
        typer.Option(
            "--impose",
            help="Also write booklet-<lang>-print.pdf: pages imposed two-up for saddle stitch. "
            "Implies --print (the sheets are for a press: bleed, crop marks, CMYK).",
        ),
    ] = False,
    print_edition: Annotated[
        bool,
        typer.Option(
            "--print",
            help="Also write booklet-<lang>-press.pdf for a print shop: 3 mm bleed on every "
            "page with TrimBox/BleedBox, CMYK with black text in black ink only, PDF/X-4; "
            "with --impose the sheets get crop marks and are CMYK PDF/X-4 too.",
        ),
    ] = False,
    rgb: Annotated[
        bool,
        typer.Option(
            "--rgb",
            help="With --print: keep the print edition in RGB, not PDF/X (for a digital "
            "print shop that converts colours with its own profile).",
        ),
    ] = False,
    paper: Annotated[
        PaperName | None,
        typer.Option(
            "--paper",
            help="Paper of the imposed sheets (default: the smallest of A4, SRA4, A3, SRA3 "
            "that holds two pages, with bleed and marks for --print).",
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Output folder (default: output/<rules id>/).")
    ] = None,
    check: Annotated[
        Path | None,
        typer.Option(
            "--check",
            help="JSON report of `deckgen rules check` whose figures the booklet prints "
            "(default: the booklet simulates rounds itself and says so).",
        ),
    ] = None,
    allow_outside: AllowOutsideOpt = False,
    age: Annotated[
        int | None,
        typer.Option("--age", min=3, max=99, help="Recommended minimum age on the title page."),
    ] = None,
    style: Annotated[
        DiagramStyle, typer.Option("--style", help="How diagrams show values.")
    ] = DiagramStyle.pips,
    edition: Annotated[
        Edition,
        typer.Option(
            "--edition",
            help="player: only the game and a quick reference; designer: also the notes on "
            "every decision and what the rules check found (booklet-<lang>-designer.pdf).",
        ),
    ] = Edition.player,
    quiet: QuietOpt = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the written files as JSON on stdout.")
    ] = False,
) -> None:
    """Write the rule booklet (PDF) in German and/or English, optionally imposed for print."""
    from deckgen.api.booklets import make_booklet
    from deckgen.booklet.printedition import PrintOptions
    from deckgen.cli.reporting import ConsoleReporter

    reporter = ConsoleReporter(quiet=quiet, json=as_json)
    written = make_booklet(
        rules,
        out,
        reporter=reporter,
        langs=booklet_langs(lang),
        fmt=fmt.value,
        deck=deck,
        check_report=check,
        impose=impose,
        age=age,
        style=style.value,
        edition=edition.value,
        allow_outside=allow_outside,
        printing=PrintOptions(
            edition=print_edition,
            paper=paper.value if paper else None,
            colour="rgb" if rgb else "cmyk",
        ),
    )
    reporter.finish()
    if as_json:
        write_json(json.dumps({"written": [str(p) for p in written]}, indent=2) + "\n")
    elif not quiet:
        for path in written:
            say(f"wrote {path}")
