"""``deckgen.build_deck``: a deck file in, everything ``deckgen deck build`` writes out.

That is ``cards.pdf``, ``back.pdf``, ``preview.png`` and ``manifest.json``, the short
rules of the rules file the deck's imprint names (:mod:`deckgen.product`), and the
print outputs a vendor profile or the options ask for (sheets, per-card files, PNGs,
CMYK, the preflight). A thin wrapper: it loads the deck through
:func:`deckgen.product.load_printed_deck`, and builds it with the deck pillar's
``build_deck`` and its print step.
"""

from __future__ import annotations

from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypedDict, Unpack

if TYPE_CHECKING:
    from deckgen.progress import Reporter

Duplex = Literal["long", "short"]
Marks = Literal["crop", "cut", "none"]


class DeckOptions(TypedDict, total=False):
    """The keyword options of :func:`build_deck` (all optional)."""

    profile: str | None
    """A vendor profile (``deckgen deck presets``): its files, colour and card checks.
    Default: the profile the deck file names, if any."""
    sheets: str | None
    """Impose the cards on sheets for duplex printing: ``A4``, ``Letter``, ``A3``,
    ``SRA3`` (writes ``sheets.pdf`` and ``calibration.pdf``)."""
    duplex: Duplex | None
    """How the printer turns the sheet (default: the profile's, else ``long``)."""
    marks: Marks | None
    """On sheets: crop marks, cut lines, or none (default: the profile's, else crop)."""
    png: bool
    """Also one PNG per card and the back, in ``png/``."""
    cmyk: bool | None
    """Convert the PDFs to CMYK with a PDF/X output intent (``None``: as the profile says)."""
    back_offset_mm: tuple[float, float] | None
    """Move every back on the sheets by (x, y) mm, as measured with ``calibration.pdf``."""
    preview: bool
    """Draw ``preview.png`` (default ``True``)."""
    strict_text: bool
    """Text that does not fit at the minimum readable size is an error (always on when
    the imprint carries short rules)."""
    allow_outside: bool
    """Let the deck file use pictures and fonts outside its own folder."""


@dataclass(frozen=True)
class DeckBuild:
    """What :func:`build_deck` wrote."""

    name: str
    """The deck's name."""
    out_dir: Path
    files: list[Path]
    """Every file written, ``manifest.json`` last."""
    warnings: list[str]
    """Low picture resolution, text cut short, preflight findings ..."""
    manifest: dict[str, Any]
    """The contents of ``manifest.json`` (see docs/deck.md)."""

    @property
    def cards(self) -> int:
        """How many card fronts (cover, tiles, imprint)."""
        return len(self.manifest.get("cards", []))


def build_deck(
    deck: str | PathLike[str],
    out: str | PathLike[str] | None = None,
    *,
    reporter: Reporter | None = None,
    **options: Unpack[DeckOptions],
) -> DeckBuild:
    """Build a deck file into ``out`` (default ``output/<deck name>/``), as the CLI does.

    All files appear together or not at all. A bad deck file, a missing picture, an
    unknown profile or paper is a :class:`~deckgen.errors.DeckgenError` naming the file,
    the key and a fix; nothing is written then.
    """
    from deckgen.deck.build import build_deck as build_files
    from deckgen.deck.printout import PrintOptions
    from deckgen.deck.printstep import OPTIONS_KEY, print_step
    from deckgen.product import load_printed_deck, names_rules

    allow_outside = options.get("allow_outside", False)
    print_options = PrintOptions(
        preset=_profile(options.get("profile")),
        sheets=_paper(options.get("sheets")),
        duplex=options.get("duplex"),
        marks=options.get("marks"),
        png=options.get("png", False),
        cmyk=options.get("cmyk"),
        back_offset_mm=_back_offset(options.get("back_offset_mm")),
    )
    loaded = load_printed_deck(Path(deck), allow_outside=allow_outside)
    result = build_files(
        loaded,
        Path(out) if out is not None else None,
        allow_outside=allow_outside,
        reporter=reporter,
        strict_text=options.get("strict_text", False) or names_rules(loaded),
        preview=options.get("preview", True),
        extra_steps=[print_step],
        options={OPTIONS_KEY: print_options},
    )
    return DeckBuild(
        name=loaded.spec.name,
        out_dir=result.out_dir,
        files=list(result.files),
        warnings=list(result.warnings),
        manifest=result.manifest,
    )


def _profile(name: str | None) -> Any:
    if not name:
        return None
    from deckgen.deck.presets import load_preset

    return load_preset(name)


def _paper(name: str | None) -> str | None:
    """The paper name, checked before anything is drawn."""
    if name:
        from deckgen.deck.imposition import paper_size

        paper_size(name)
    return name


def _back_offset(offset: tuple[float, float] | None) -> tuple[float, float]:
    """The back offset, checked as ``--back-offset`` is."""
    if offset is None:
        return (0.0, 0.0)
    from deckgen.deck.printout import parse_back_offset

    x, y = offset
    return parse_back_offset(f"{x},{y}", where="option back_offset_mm")
