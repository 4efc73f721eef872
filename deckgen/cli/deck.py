"""``deckgen deck ...``: start a deck file, build a deck's print files, preview it.

Thin: each command parses options, calls one library function in
:mod:`deckgen.deck` and reports. Heavy libraries load inside the commands.
"""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from deckgen.cli.options import AllowOutsideOpt, JsonOpt, QuietOpt
from deckgen.cli.output import say, write_json, write_text

app = typer.Typer(
    help="Custom domino card decks from a deck file: start a new one, build its print "
    "files, preview it, check it (preflight), list the vendor presets, calibrate duplex, "
    "draw a showcase picture.",
    no_args_is_help=True,
    add_completion=False,  # a group of the root command (deckgen.cli), not a program
)

MAX_NAME_CHARS = 200
"""The longest ``deck new --name`` (it becomes the cover title)."""

DeckFileArg = Annotated[Path, typer.Argument(help="The deck file (TOML).")]


class Duplex(StrEnum):
    long = "long"
    short = "short"


class CardLang(StrEnum):
    en = "en"
    de = "de"


class MarkStyle(StrEnum):
    crop = "crop"
    cut = "cut"
    none = "none"


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
    lang: Annotated[
        CardLang,
        typer.Option("--lang", help="Language of the words deckgen prints on the cards."),
    ] = CardLang.en,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
    no_samples: Annotated[
        bool,
        typer.Option(
            "--no-samples",
            help="Leave out the sample cover picture, logo, subtitle and imprint text "
            "(a build for a print shop refuses samples until they are replaced).",
        ),
    ] = False,
    quiet: QuietOpt = False,
) -> None:
    """Write a commented starter deck file that builds as it is (it uses the demo art).

    Its sample pictures and texts are marked as samples: a build warns about each one
    left, and a build for a vendor preset refuses until they are replaced or removed.
    """
    from deckgen import atomic
    from deckgen.deck.starter import StarterCard, starter_toml
    from deckgen.errors import InputError, excerpt
    from deckgen.paths import check_output_file
    from deckgen.prepress.presets import card_from_preset
    from deckgen.setstable import parse_set

    dset = parse_set(set_name, where="option --set")
    check_output_file(deck_file, where="argument DECK_FILE")
    if deck_file.exists() and not force:
        raise InputError(
            f"{deck_file} already exists",
            where="argument DECK_FILE",
            fix="choose another file name, or pass --force to overwrite it",
        )
    if name is not None and (
        not name.strip() or len(name) > MAX_NAME_CHARS or not name.isprintable()
    ):
        raise InputError(
            f"'{excerpt(name, 40)}' is not a deck name deckgen can use",
            where="option --name",
            fix=f"give 1 to {MAX_NAME_CHARS} printable characters, on one line",
        )
    card = card_from_preset(preset) if preset else StarterCard()
    deck_name = name or deck_file.stem.replace("-", " ").replace("_", " ").title() or "My Deck"
    text = starter_toml(
        deck_name, dset.name, dset.max_pip, card, lang=lang.value, samples=not no_samples
    )
    atomic.write_text(deck_file, text)
    if not quiet:
        say(f"wrote {deck_file}; build it with: deckgen deck build {deck_file}")


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
    preset: Annotated[
        str | None,
        typer.Option(
            "--preset",
            help="Vendor preset whose files to write (default: the deck file's preset); "
            "see `deckgen deck presets`.",
        ),
    ] = None,
    sheets: Annotated[
        str | None,
        typer.Option(
            "--sheets",
            help="Also impose the cards on sheets for duplex printing: A4, Letter, A3 or SRA3 "
            "(writes sheets.pdf and calibration.pdf).",
        ),
    ] = None,
    duplex: Annotated[
        Duplex | None,
        typer.Option("--duplex", help="How the printer turns the sheet: long or short edge."),
    ] = None,
    marks: Annotated[
        MarkStyle | None,
        typer.Option(
            "--marks", help="On sheets: crop marks, cut lines for a paper cutter, or none."
        ),
    ] = None,
    back_offset: Annotated[
        str | None,
        typer.Option(
            "--back-offset",
            help="Move every back on the sheets by X,Y mm (right, up, seen on the back), "
            "as read from calibration.pdf.",
        ),
    ] = None,
    png: Annotated[
        bool, typer.Option("--png", help="Also write one PNG per card and the back into png/.")
    ] = False,
    card_pdfs: Annotated[
        bool,
        typer.Option("--card-pdfs", help="Also write one PDF per card and the back into cards/."),
    ] = False,
    cmyk: Annotated[
        bool | None,
        typer.Option(
            "--cmyk/--rgb",
            help="Convert the PDFs to CMYK with a PDF/X output intent, or keep sRGB "
            "(default: as the preset says, else sRGB).",
        ),
    ] = None,
    tts: Annotated[
        bool,
        typer.Option("--tts", help="Also write the Tabletop Simulator export into tts/."),
    ] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Make the vendor's files even when the deck breaks one of its rules "
            "(each broken rule is a warning instead of an error).",
        ),
    ] = False,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Build cards.pdf, back.pdf, preview.png and manifest.json for a deck file.

    With a preset (given here or in the deck file), --sheets, --png or --cmyk also the
    print files: per-card PDFs or PNGs, sheets for duplex printing, CMYK, and the
    preflight as preflight.json. Every build runs the preflight and warns; against a
    vendor preset the cards take the vendor's size and bleed, and a broken vendor rule
    stops the build (exit 2) unless --force.
    """
    from deckgen.api.decks import build_deck
    from deckgen.cli.reporting import ConsoleReporter
    from deckgen.errors import DeckgenError
    from deckgen.prepress.printout import parse_back_offset

    # Warnings are held back: an error paragraph comes first and whole, then them.
    reporter = ConsoleReporter(quiet=quiet, json=as_json, hold_warnings=True)
    try:
        result = build_deck(
            deck_file,
            out,
            reporter=reporter,
            profile=preset,
            sheets=sheets,
            duplex=duplex.value if duplex else None,
            marks=marks.value if marks else None,
            png=png,
            card_pdfs=card_pdfs,
            cmyk=cmyk,
            back_offset_mm=parse_back_offset(back_offset) if back_offset else None,
            preview=not no_preview,
            strict_text=strict_text,
            allow_outside=allow_outside,
            force=force,
            tts=tts,
        )
    except DeckgenError as exc:
        reporter.finish()
        say(f"error: {exc.message()}", err=True)
        reporter.flush_warnings()
        raise typer.Exit(exc.exit_code) from None
    reporter.finish()
    reporter.flush_warnings()
    if as_json:
        payload = {
            "out_dir": str(result.out_dir),
            "written": [str(p) for p in result.files],
            "warnings": result.warnings,
            "manifest": result.manifest,
        }
        write_json(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    elif not quiet:
        for path in result.files:
            say(f"wrote {path}")


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
    from deckgen.paths import check_output_file
    from deckgen.product import load_printed_deck

    if out is not None:
        check_output_file(out, where="option --out")
    deck = load_printed_deck(deck_file, allow_outside=allow_outside)
    reporter = ConsoleReporter(quiet=quiet)
    path = preview_deck(deck, out, allow_outside=allow_outside, reporter=reporter)
    reporter.finish()
    if not quiet:
        say(f"wrote {path}")


class ShowcaseStyle(StrEnum):
    hand = "hand"
    table = "table"
    box = "box"


@app.command("showcase")
def showcase_command(
    deck_file: DeckFileArg,
    style: Annotated[
        ShowcaseStyle,
        typer.Option(
            "--style", help="hand: a fanned hand; table: a domino line in play; box: the box."
        ),
    ] = ShowcaseStyle.hand,
    width: Annotated[
        int, typer.Option("--width", min=320, max=8000, help="Picture width in pixels.")
    ] = 1600,
    height: Annotated[
        int | None,
        typer.Option(
            "--height", min=200, max=8000, help="Height in pixels (default: 9/16 of the width)."
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="The PNG (default: output/<deck name>/showcase-<style>.png)."),
    ] = None,
    allow_outside: AllowOutsideOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """A marketing picture of the deck (PNG), drawn from its real card renders."""
    from deckgen import atomic
    from deckgen.deck.build import default_out_dir
    from deckgen.export.showcase import ShowcaseSize, showcase_png
    from deckgen.product import load_printed_deck

    deck = load_printed_deck(deck_file, allow_outside=allow_outside)
    size = ShowcaseSize(width, height or round(width * 9 / 16))
    target = out or default_out_dir(deck) / f"showcase-{style.value}.png"
    atomic.write_bytes(target, showcase_png(deck, style.value, size))
    if not quiet:
        say(f"wrote {target}")


@app.command("presets")
def presets_command(as_json: JsonOpt = False) -> None:
    """List the vendor presets: card size, bleed, colour and the files each writes."""
    from deckgen.prepress.presets import all_presets, preset_summary

    presets = all_presets()
    if as_json:
        rows = [preset_summary(p) for p in presets]
        write_json(json.dumps({"presets": rows}, indent=2, ensure_ascii=False) + "\n")
        return
    from rich.table import Table

    from deckgen.cli.output import listing_console, name_column

    table = Table(title="Vendor presets (deckgen deck build --preset NAME)", title_justify="left")
    name_column(table, "name", [p.name for p in presets])
    for title in ("card mm", "bleed", "safe", "colour", "dpi", "writes"):
        table.add_column(title)
    for p in presets:
        names = {
            "card-pdfs": "a PDF per card",
            "fronts-backs-pdf": "fronts PDF + backs PDF",
            "card-pngs": "a PNG per card",
            "interleaved-pdf": "back/front PDF",
            "sheets": f"sheets {p.sheet.paper if p.sheet else ''}".strip(),
        }
        writes = ", ".join(names[o] for o in p.outputs if o in names)
        table.add_row(
            p.name,
            p.card_size_text(),
            f"{p.bleed_mm:g}",
            f"{p.safe_mm:g}",
            p.colour_space.upper()
            + {"x4": " X-4", "x1a": " X-1a", "none": ""}[p.pdfx]
            + (f" {p.max_ink_percent:g}%" if p.colour_space == "cmyk" else ""),
            str(p.dpi),
            writes,
        )
    listing_console().print(table)


@app.command("check")
def check_command(
    deck_file: DeckFileArg,
    preset: Annotated[
        str | None,
        typer.Option("--preset", help="Check against this vendor preset (default: the deck's)."),
    ] = None,
    cmyk: Annotated[
        bool | None,
        typer.Option("--cmyk/--rgb", help="Check as a CMYK (or sRGB) job (default: the preset's)."),
    ] = None,
    ink_map: Annotated[
        Path | None,
        typer.Option(
            "--ink-map",
            help="Where to write the ink map PNG of a CMYK job "
            "(default: output/<deck name>/ink-map.png).",
        ),
    ] = None,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print the report as Markdown.")
    ] = False,
    allow_outside: AllowOutsideOpt = False,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Preflight: check the print files as a print shop would, before you send them.

    Picture resolution per file, safe margin, text sizes, line widths, fonts, boxes,
    RGB or spot colours in CMYK, black text in black ink, and the total ink of every
    card rendered with Ghostscript (an ink map PNG shows where it is too much).

    Exit code 1 when something was found.
    """
    import tempfile

    from deckgen.cli.reporting import ConsoleReporter
    from deckgen.deck.build import default_out_dir, write_listed
    from deckgen.prepress.printstep import check_deck
    from deckgen.product import load_for_preset
    from deckgen.progress import CollectingReporter

    # at the card size of the preset checked against, short rules fitted to it
    deck = load_for_preset(deck_file, preset, allow_outside=allow_outside)
    reporter = CollectingReporter()
    map_path = ink_map if ink_map is not None else default_out_dir(deck) / "ink-map.png"
    with tempfile.TemporaryDirectory(prefix="deckgen-check-") as tmp:
        # drawn aside first: a build's manifest may list the ink map it replaces
        drawn = Path(tmp) / "ink-map.png"
        report = check_deck(
            deck,
            preset=preset,
            cmyk=cmyk,
            allow_outside=allow_outside,
            reporter=reporter,
            ink_map=drawn,
        )
        if drawn.is_file():
            write_listed(map_path, drawn.read_bytes())
    if not as_json:
        console = ConsoleReporter(quiet=quiet)
        for message in reporter.warnings:
            if not message.startswith("preflight:"):
                console.warn(message)
    if as_json:
        write_json(report.to_json())
    elif markdown:
        write_text(report.to_markdown())
    else:
        for finding in report.findings:
            say(f"{finding.kind}: {finding.text()}")
        if not quiet:
            lowest = min((p.dpi for p in report.pictures), default=None)
            note = f", lowest picture resolution {lowest:.0f} dpi" if lowest else ""
            if report.ink:
                top = max(report.ink, key=lambda i: i.max_percent)
                note += (
                    f", highest total ink {top.max_percent:.0f} % ({top.card}; "
                    f"limit {report.ink_limit_percent:g} %, map: {map_path})"
                )
            verdict = "ok" if report.ok else f"{len(report.findings)} problem(s)"
            say(f"checked {report.pages_checked} pages{note}: {verdict}")
    if not report.ok:
        raise typer.Exit(1)


@app.command("calibrate")
def calibrate_command(
    out: Annotated[Path, typer.Option("--out", help="The PDF to write.")] = Path(
        "output/calibration.pdf"
    ),
    paper: Annotated[
        str, typer.Option("--paper", help="A4, Letter, A3 or SRA3 (as your sheets).")
    ] = "A4",
    duplex: Annotated[
        Duplex, typer.Option("--duplex", help="How the printer turns the sheet.")
    ] = Duplex.long,
    quiet: QuietOpt = False,
) -> None:
    """Write the duplex calibration page: measures how far the printer shifts the backs."""
    from deckgen.paths import check_output_file
    from deckgen.prepress.calibration import write_calibration

    check_output_file(out, where="option --out")
    path = write_calibration(out, paper=paper, duplex=duplex.value)
    if not quiet:
        say(f"wrote {path}")
