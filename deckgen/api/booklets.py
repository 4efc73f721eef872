"""``deckgen.make_booklet``: the rule booklet of a rules file, as ``deckgen rules booklet``.

A thin wrapper over :func:`deckgen.booklet.make.make_booklets`: keyword options in,
the PDFs written out (``booklet-<lang>.pdf``, with ``impose`` also
``booklet-<lang>-print.pdf``), all through one staging folder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypedDict, Unpack

if TYPE_CHECKING:
    from deckgen.booklet.printedition import PrintOptions
    from deckgen.progress import Reporter
    from deckgen.rulespec import RuleSpec

Lang = Literal["de", "en"]


class BookletOptions(TypedDict, total=False):
    """The keyword options of :func:`make_booklet` (all optional)."""

    langs: Sequence[Lang]
    """Languages, one booklet each (default German and English)."""
    fmt: Literal["a5", "a6"]
    """Page size (default ``a5``)."""
    deck: str | PathLike[str] | None
    """A deck file whose cards are pictured (default: the demo deck)."""
    check_report: str | PathLike[str] | Mapping[str, Any] | None
    """A rules check's JSON report (a file, or :attr:`RulesCheck.report`) whose figures
    the booklet prints; without it the booklet simulates rounds itself and says so."""
    impose: bool
    """Also write the pages imposed two-up for saddle stitching (implies the print
    edition: bleed, crop marks, the press colours)."""
    edition: Literal["player", "designer"]
    """``player`` (default): only the game; ``designer``: also the notes on every
    decision and what the rules check found."""
    age: int | None
    """The minimum age on the title page."""
    style: Literal["pips", "numerals"]
    """How the diagrams show values (default ``pips``)."""
    allow_outside: bool
    """Let the deck file use pictures outside its own folder."""
    printing: PrintOptions
    """The print edition: 3 mm bleed, imposed on real paper with marks
    (:class:`deckgen.booklet.printedition.PrintOptions`)."""


def make_booklet(
    rules: str | PathLike[str] | RuleSpec,
    out: str | PathLike[str] | None = None,
    *,
    reporter: Reporter | None = None,
    **options: Unpack[BookletOptions],
) -> list[Path]:
    """Write the booklet(s) of ``rules`` into ``out`` (default ``output/<rules id>/``);
    give the paths written."""
    from deckgen.api.games import load_rules
    from deckgen.booklet.make import load_check_report, make_booklets
    from deckgen.resources import default_output_dir

    spec = load_rules(rules)
    deck = options.get("deck")
    loaded = None
    if deck is not None:
        from deckgen.deck.spec import load_deck

        loaded = load_deck(Path(deck), allow_outside=options.get("allow_outside", False))
    report = options.get("check_report")
    if report is not None and not isinstance(report, Mapping):
        report = load_check_report(Path(report))
    out_dir = Path(out) if out is not None else default_output_dir() / spec.id
    return make_booklets(
        spec,
        out_dir,
        langs=tuple(options.get("langs", ("de", "en"))),
        fmt=options.get("fmt", "a5"),
        deck=loaded,
        check_report=report,
        impose=options.get("impose", False),
        age=options.get("age"),
        style=options.get("style", "pips"),
        reporter=reporter,
        printing=options.get("printing"),
        edition=options.get("edition", "player"),
    )
