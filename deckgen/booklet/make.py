"""Making booklet files: rules file (+ deck, check report) -> ``booklet-<lang>.pdf``.

Takes a rules file, a language, a page format and optional deck file and check
report; gives the written paths. Combines the pillars the booklet draws from: the
deck (pictures of real cards through :func:`deckgen.deck.render.render_cards`), the
engine (a real round for the examples; facts when no check report is given) and the
templates. Files are written atomically through a staged folder.
"""

from __future__ import annotations

import functools
import io
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen import atomic
from deckgen.booklet.content import Edition, Extras, build_booklet
from deckgen.booklet.example import ExampleRound
from deckgen.booklet.facts import PlayFacts, facts_from_report
from deckgen.booklet.fetcher_names import card_url_name
from deckgen.booklet.html import PageFormat, page_format, render_html
from deckgen.booklet.i18n import check_language
from deckgen.booklet.model import CardPicture
from deckgen.booklet.paper import plan_sheet
from deckgen.booklet.printedition import (
    PrintOptions,
    finished,
    no_scaling,
    origin_at_zero,
    press_sheets,
    saddle_stitch_pages,
)
from deckgen.errors import InputError
from deckgen.progress import CollectingReporter, Reporter
from deckgen.resources import PROJECT_ROOT, images_dir
from deckgen.rulespec import LANGS, RuleSpec, load_rules
from deckgen.tiles import Tile
from deckgen.workers import Forked, can_fork

if TYPE_CHECKING:
    from deckgen.deck.spec import LoadedDeck

HYPHENATED = (*LANGS, "en_US", "de_DE")
"""The hyphenation patterns a booklet uses: WeasyPrint's for every language (and
``en_US``), the cover's text fitting's ``de_DE``."""
CARD_DISPLAY_MM = 22.0
PHOTO_DPI = 300
JPEG_QUALITY = 85


@dataclass(frozen=True)
class Pictures:
    """Card pictures ready for the booklet: model entries and the bytes to serve."""

    cards: tuple[CardPicture, ...]
    served: Mapping[str, tuple[bytes, str]]
    card_count: int


def demo_deck(rules: RuleSpec, lang: str) -> LoadedDeck:
    """The project's demo deck for ``rules`` in ``lang``: ``images/demo-deck.toml`` when
    it has the rules' set (its title and subtitle in ``lang``), else a starter deck
    (MeinSpiel card size, the demo art) named after the rules in ``lang``."""
    from deckgen.booklet.i18n import translations
    from deckgen.deck.spec import deck_from_data
    from deckgen.deck.starter import starter_toml
    from deckgen.prepress.presets import card_from_preset

    shipped = images_dir() / "demo-deck.toml"
    if shipped.is_file():
        data = tomllib.loads(shipped.read_text(encoding="utf-8"))
        if data.get("set") == rules.dset.name:
            if data.get("language", "en") != lang:
                t = translations(lang)
                name = t.gettext("Picture Domino")
                data["name"] = name
                data["language"] = lang
                cover = data.setdefault("cover", {})
                cover["title"] = name
                cover["subtitle"] = t.gettext("A picture domino for %(players)s players") % {
                    "players": rules.text_params(lang)["players"]
                }
            return deck_from_data(data, path=shipped)

    text = starter_toml(
        rules.name(lang), rules.dset.name, rules.dset.max_pip, card_from_preset("meinspiel")
    )
    data = tomllib.loads(text)
    data["language"] = lang
    cover = data.setdefault("cover", {})  # the starter's own words are English
    cover["subtitle"] = translations(lang).gettext("A domino for %(players)s players") % {
        "players": rules.text_params(lang)["players"]
    }
    return deck_from_data(data, path=PROJECT_ROOT / "demo-deck.toml")


def _chosen_cards(rules: RuleSpec, count: int) -> list[str]:
    n = rules.dset.max_pip
    picks = [Tile.of(1, min(3, n)), Tile.of(2, n), Tile.of(n // 2, n // 2), Tile.of(0, n - 1)]
    unique: list[str] = []
    for t in picks:
        if str(t) not in unique:
            unique.append(str(t))
    return ["cover", *unique][:count]


def card_pictures(
    deck: LoadedDeck,
    rules: RuleSpec,
    *,
    count: int = 5,
    display_mm: float = CARD_DISPLAY_MM,
    dpi: int = PHOTO_DPI,
    reuse: Pictures | None = None,
) -> Pictures:
    """Render a few cards of ``deck`` as JPEGs sized for ``display_mm`` at ``dpi``.

    ``reuse``: the same cards of the same deck in another language; only the cover
    (where the deck's words are) is drawn again, the tile faces are taken from it."""
    from PIL import Image

    from deckgen.deck.render import render_cards

    if deck.dset != rules.dset:
        raise InputError(
            f"the deck is a {deck.dset.name} deck but the rules '{rules.id}' play "
            f"{rules.dset.name}",
            where=str(deck.path),
            fix=f'use a deck file with set = "{rules.dset.name}"',
        )
    chosen = _chosen_cards(rules, count)
    render_dpi = max(36, round(dpi * display_mm / deck.width_mm))
    drawn = [n for n in chosen if reuse is None or n == "cover"]
    pngs = render_cards(deck, drawn, fmt="png", dpi=render_dpi)
    assert isinstance(pngs, list)
    by_name = dict(zip(drawn, pngs, strict=True))
    served: dict[str, tuple[bytes, str]] = {}
    cards = []
    for name in chosen:
        key = card_url_name(name)
        if name not in by_name and reuse is not None:
            served[key] = reuse.served[key]
        else:
            with Image.open(io.BytesIO(by_name[name])) as im:
                buf = io.BytesIO()
                rgb = im.convert("RGB")
                rgb.save(buf, "JPEG", quality=JPEG_QUALITY, optimize=True, dpi=(dpi, dpi))
            served[key] = (buf.getvalue(), "image/jpeg")
        label = "" if name == "cover" else name.replace("-", "/")
        alt = deck.spec.name if name == "cover" else f"{deck.spec.name}: {label}"
        cards.append(CardPicture(url=f"deckgen:generated/{key}", alt=alt, label=label))
    return Pictures(tuple(cards), served, len(deck.dset) + 2)


def load_check_report(path: str | Path) -> dict[str, Any]:
    """The rules check's JSON report, validated as an input file (deckgen/reportfile.py)."""
    from deckgen.reportfile import load_check_report as load_validated

    return load_validated(path)


def booklet_facts(rules: RuleSpec, check_report: Mapping[str, Any] | None) -> PlayFacts:
    """Facts from the check report when it has them, else simulated now (and labelled so)."""
    from deckgen.booklet.play import facts_players, simulated_facts

    if check_report is not None:
        facts = facts_from_report(check_report, players=facts_players(rules))
        if facts is not None:
            return facts
    return simulated_facts(rules)


@dataclass
class Prepared:
    """What every language of a booklet shares: facts, the example round, card pictures."""

    rules: RuleSpec
    facts: PlayFacts | None
    example: ExampleRound | None
    pictures: Mapping[str, Pictures]
    ending: ExampleRound | None = None
    """A real round that ended without anyone going out (its scoring is shown too)."""
    """Card pictures per language: a card or cover in a booklet speaks its language."""
    report: Mapping[str, Any] | None = None
    """The rules check's report (printed in the designer's edition)."""


def _load_deck(rules: RuleSpec, deck: LoadedDeck | str | Path | None, lang: str) -> LoadedDeck:
    if deck is None:
        return demo_deck(rules, lang)
    from deckgen.deck.spec import LoadedDeck as _Loaded
    from deckgen.deck.spec import load_deck

    loaded = deck if isinstance(deck, _Loaded) else load_deck(deck)
    if loaded.spec.language != lang:  # the words deckgen prints on a card, in ``lang``
        loaded = replace(loaded, spec=loaded.spec.model_copy(update={"language": lang}))
    return loaded


def _pictures_for(
    rules: RuleSpec,
    deck: LoadedDeck | str | Path | None,
    fmt: PageFormat,
    lang: str,
    dpi: int,
    reuse: Pictures | None = None,
) -> Pictures:
    per_row = 5 if fmt.name == "a5" else 4
    display = min(CARD_DISPLAY_MM, (fmt.text_width_mm - (per_row - 1) * 3) / per_row)
    loaded = _load_deck(rules, deck, lang)
    return card_pictures(loaded, rules, count=per_row, display_mm=display, dpi=dpi, reuse=reuse)


def _play_for(
    rules: RuleSpec, check_report: Mapping[str, Any] | None
) -> tuple[PlayFacts, ExampleRound | None]:
    from deckgen.booklet.play import example_round

    return booklet_facts(rules, check_report), example_round(rules)


def prepare(
    rules: RuleSpec,
    *,
    fmt: PageFormat,
    deck: LoadedDeck | str | Path | None = None,
    check_report: Mapping[str, Any] | None = None,
    langs: Sequence[str] = ("en",),
    dpi: int = PHOTO_DPI,
    edition: Edition = "player",
) -> Prepared:
    """Play the example round and get the facts once for every language; draw the card
    pictures in each language (the designer's edition also needs a check report: the
    one given, else a short check run now)."""
    from deckgen.booklet.hyphenation import prime

    # parsed once per machine: WeasyPrint and the cover's text fitting both hyphenate
    prime(HYPHENATED)
    facts, example = _play_for(rules, check_report)
    pictures: dict[str, Pictures] = {}
    for lang in langs:  # the tile faces once; the cover, with the deck's words, per language
        first = next(iter(pictures.values()), None)
        pictures[lang] = _pictures_for(rules, deck, fmt, lang, dpi, reuse=first)
    report = check_report
    if edition == "designer" and report is None:
        report = quick_check(rules)
    from deckgen.booklet.play import ending_round

    ending = ending_round(rules) if example is None or example.end == "out" else None
    return Prepared(rules, facts, example, pictures, ending, report)


DESIGNER_CHECK_ROUNDS = 2000
"""Rounds per player count of the check the designer's edition runs when given none."""


def quick_check(rules: RuleSpec) -> dict[str, Any]:
    """A short rules check (in this process) for the designer's edition, finished as
    ``deckgen rules check`` finishes it (its findings confirmed with skilled players)."""
    from deckgen.rulecheck.check import CheckOptions
    from deckgen.rulecheck.checked import checked_report

    return checked_report(rules, CheckOptions(rounds=DESIGNER_CHECK_ROUNDS, workers=1))


def render_booklet_pdf(
    prepared: Prepared,
    lang: str,
    fmt: PageFormat,
    *,
    age: int | None = None,
    style: str = "pips",
    dpi: int = PHOTO_DPI,
    bleed_mm: float = 0.0,
    edition: Edition = "player",
) -> bytes:
    """The booklet PDF of ``prepared`` rules in ``lang`` (bytes); with ``bleed_mm`` the
    print edition's pages (bleed around each page, TrimBox and BleedBox)."""
    from deckgen.booklet.hyphenation import prime
    from deckgen.booklet.pdf import render_pdf

    check_language(lang)
    pictures = prepared.pictures.get(lang)
    extras = Extras(
        facts=prepared.facts,
        example=prepared.example,
        ending=prepared.ending,
        cards=pictures.cards if pictures else (),
        card_count=pictures.card_count if pictures else None,
        age=age,
        style="numerals" if style == "numerals" else "pips",
        edition=edition,
        report=prepared.report if edition == "designer" else None,
    )
    booklet = build_booklet(prepared.rules, lang, fmt, extras)
    served = pictures.served if pictures else {}
    prime((*LANGS, "en_US"))  # parsed once per machine (WeasyPrint asks for en_US too)
    return render_pdf(render_html(booklet, fmt, bleed_mm=bleed_mm), generated=served, dpi=dpi)


def make_booklets(
    rules: RuleSpec | str | Path,
    out_dir: str | Path,
    *,
    langs: Sequence[str] = ("de", "en"),
    fmt: str = "a5",
    deck: LoadedDeck | str | Path | None = None,
    check_report: Mapping[str, Any] | None = None,
    impose: bool = False,
    age: int | None = None,
    style: str = "pips",
    reporter: Reporter | None = None,
    printing: PrintOptions | None = None,
    edition: str = "player",
) -> list[Path]:
    """Write ``booklet-<lang>.pdf`` for each of ``langs`` into ``out_dir``; return the
    paths written.

    ``edition``: ``player`` (the default: only the game, and a quick reference) or
    ``designer`` (``booklet-<lang>-designer.pdf``: the same booklet, then the notes on
    every decision and what the rules check found).

    ``printing``: with ``edition`` also ``booklet-<lang>-press.pdf`` (3 mm bleed, page
    boxes, a page count that is a multiple of 4, the blank pages before the back
    cover), from which the imposed sheets are made, with crop marks; ``paper`` chooses
    the sheets' paper; the files for the press are CMYK PDF/X-4 unless
    ``colour="rgb"``, or finished by ``finish`` (:mod:`deckgen.booklet.printedition`).
    ``impose`` (``booklet-<lang>-print.pdf``, the sheets) implies the print edition:
    sheets for a press always carry bleed, marks and the press colours.

    ``rules``: a RuleSpec, or a rules id/alias/path. ``deck``: a deck file (its cards are
    pictured; default the demo deck). ``check_report``: the parsed JSON of ``deckgen
    rules check`` (its figures are printed; without it the booklet simulates rounds
    itself and says so).
    """
    reporter = reporter or CollectingReporter()
    printing = printing or PrintOptions()
    if impose and not printing.edition:  # imposed sheets are for a press: bleed, marks
        printing = replace(printing, edition=True)
    printing.check(impose=impose)
    chosen = check_edition(edition)
    spec = rules if isinstance(rules, RuleSpec) else load_rules(rules)
    if printing.edition and printing.created is None:  # dated as a deck's print files
        from deckgen.prepress.sourcedate import booklet_inputs, pdf_date, source_epoch

        created = pdf_date(source_epoch(booklet_inputs(spec.path, deck)))
        printing = replace(printing, created=created)
    for lang in langs:
        check_language(lang)
    page = page_format(fmt)
    bleed = printing.bleed_mm if printing.edition else 0.0
    if impose:  # a paper that cannot hold the spread fails now, before any work
        plan_sheet(
            page.width_mm,
            page.height_mm,
            bleed_mm=bleed,
            paper=printing.paper,
            need_marks=printing.edition,
        )
    out_dir = Path(out_dir)
    names: list[str] = []
    # with a second core the other languages are made from the start in forked
    # children, each writing its own files (the facts and the example round are
    # seeded: every process finds the same); otherwise one after another, sharing them
    forking = len(langs) > 1 and can_fork()

    def prepared_for(some: Sequence[str]) -> Prepared:
        return prepare(
            spec, fmt=page, deck=deck, check_report=check_report, langs=some, edition=chosen
        )

    with atomic.staged_dir(out_dir) as stage:

        def write(lang: str, prepared: Prepared | None = None) -> list[str]:
            ready = prepared or prepared_for((lang,))
            return _write_language(ready, lang, page, stage, chosen, age, style, printing, impose)

        forked: dict[str, Forked] = {}
        if forking:  # what every language needs is loaded once, before the fork
            import weasyprint  # noqa: F401

            from deckgen.booklet.hyphenation import prime

            prime(HYPHENATED)
            forked = {lang: Forked(functools.partial(write, lang)) for lang in langs[1:]}
        try:
            reporter.start("booklet: playing example rounds", None)
            shared = prepared_for(langs[:1] if forking else langs)
            reporter.finish()
            reporter.start("booklet: laying out pages", len(langs))
            names.extend(write(langs[0], shared))
        except BaseException:
            for running in forked.values():
                running.kill()
            raise
        reporter.advance()
        for lang in langs[1:]:
            child = forked.get(lang)
            got = child.result() if child is not None else None
            if not (isinstance(got, list) and all(isinstance(n, str) for n in got)):
                got = write(lang, None if forking else shared)  # an error is raised here
            names.extend(got)
            reporter.advance()
    reporter.finish()
    return [out_dir / n for n in names]


def _write_language(
    prepared: Prepared,
    lang: str,
    page: PageFormat,
    stage: Path,
    chosen: Edition,
    age: int | None,
    style: str,
    printing: PrintOptions,
    impose: bool,
) -> list[str]:
    """Write one language's booklet (and its press file and sheets) into ``stage``;
    return the names written."""
    stem = f"booklet-{lang}" + ("-designer" if chosen == "designer" else "")
    kw: dict[str, Any] = {"age": age, "style": style, "edition": chosen}
    pdf = render_booklet_pdf(prepared, lang, page, **kw)
    atomic.write_bytes(stage / f"{stem}.pdf", pdf)
    names = [f"{stem}.pdf"]
    if not printing.edition:
        return names
    bleed = printing.bleed_mm
    pages = saddle_stitch_pages(
        no_scaling(origin_at_zero(render_booklet_pdf(prepared, lang, page, bleed_mm=bleed, **kw)))
    )
    press = finished(pages, printing)
    atomic.write_bytes(stage / f"{stem}-press.pdf", press)
    names.append(f"{stem}-press.pdf")
    if impose:
        atomic.write_bytes(stage / f"{stem}-print.pdf", press_sheets(pages, press, printing))
        names.append(f"{stem}-print.pdf")
    return names


def check_edition(edition: str, *, where: str = "option --edition") -> Edition:
    """``edition`` if there is one of that name, else an InputError."""
    from deckgen.booklet.content import EDITIONS

    if edition not in EDITIONS:
        raise InputError(
            f"there is no booklet edition '{edition}'",
            where=where,
            fix=f"use {' or '.join(EDITIONS)}",
        )
    return "designer" if edition == "designer" else "player"
