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
    from deckgen.deck.build import OutputStep
    from deckgen.prepress.printout import PrintOptions
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
    card_pdfs: bool
    """Also one PDF per card and the back, in ``cards/`` (whatever the profile writes)."""
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
    force: bool
    """Make a vendor profile's files even when the deck breaks one of its rules (each
    broken rule becomes a warning; the vendor may reject the files)."""
    tts: bool
    """Also write the Tabletop Simulator export into ``tts/``."""


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

    The build is resolved once into a plan (:func:`deckgen.product.plan_printed_deck`:
    preset, then card size, then the imprint's texts) and built from it. All files
    appear together or not at all. A bad deck file, a missing picture, an unknown
    profile or paper is a :class:`~deckgen.errors.DeckgenError` naming the file, the
    key and a fix; nothing is written then.
    """
    from deckgen.deck.build import build_plan
    from deckgen.deck.spec import load_deck
    from deckgen.prepress.printout import PrintOptions
    from deckgen.prepress.printstep import options_for
    from deckgen.product import PlanChoices, plan_printed_deck

    allow_outside = options.get("allow_outside", False)
    given = PrintOptions(
        preset=_profile(options.get("profile")),
        sheets=_paper(options.get("sheets")),
        duplex=options.get("duplex"),
        marks=options.get("marks"),
        png=options.get("png", False),
        card_pdfs=options.get("card_pdfs", False),
        cmyk=options.get("cmyk"),
        back_offset_mm=_back_offset(options.get("back_offset_mm")),
        force=options.get("force", False),
    )
    # The short rules the imprint names are fitted later, to the card the preset makes.
    loaded = load_deck(Path(deck), allow_outside=allow_outside)
    print_options = options_for(given, loaded)  # the preset: resolved here, once
    if options.get("back_offset_mm") is not None:
        _check_offset_has_sheets(print_options)
    tts = options.get("tts", False)
    plan = plan_printed_deck(
        loaded,
        Path(out) if out is not None else None,
        print_options,
        reporter=reporter,
        settings=PlanChoices(
            preview=options.get("preview", True),
            strict_text=options.get("strict_text", False),
            extra_steps=tuple(_export_steps(tts, print_options)),
        ),
    )
    result = build_plan(plan, reporter=reporter)
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
    from deckgen.prepress.presets import load_preset

    return load_preset(name)


def _paper(name: str | None) -> str | None:
    """The paper name, checked before anything is drawn."""
    if name:
        from deckgen.prepress.imposition import paper_size

        paper_size(name)
    return name


def _back_offset(offset: tuple[float, float] | None) -> tuple[float, float]:
    """The back offset, checked as ``--back-offset`` is."""
    if offset is None:
        return (0.0, 0.0)
    from deckgen.prepress.printout import parse_back_offset

    x, y = offset
    return parse_back_offset(f"{x},{y}", where="option back_offset_mm")


def _check_offset_has_sheets(options: PrintOptions) -> None:
    """A back offset moves backs on duplex sheets: a build without sheets is a mistake."""
    from deckgen.errors import InputError
    from deckgen.prepress.printout import planned_outputs

    if "sheets" not in planned_outputs(options):
        raise InputError(
            "--back-offset moves the backs on duplex sheets, but this build makes none",
            where="option --back-offset",
            fix="add --sheets A4 (or Letter, A3, SRA3), or use a preset that prints sheets",
        )


def _export_steps(tts: bool, options: PrintOptions) -> list[OutputStep]:
    """The export steps (before the print step, which may turn the PDFs into CMYK)."""
    from deckgen.export.steps import export_steps_for

    return export_steps_for(tts=tts, preset=options.preset)
