"""The print outputs as a step of ``deck build``, and ``deck check`` as a library call.

:class:`PrintStep` (made by :func:`print_step`) plugs into
:func:`deckgen.deck.build.build_deck` (``extra_steps=[print_step(options)]``): it holds
typed :class:`~deckgen.prepress.printout.PrintOptions` (completed from the deck file's own
``preset`` and ``back_offset_mm``), writes the print files into the build's staging
folder and gives them as ``OutputFile`` entries for ``manifest.json``.
When the job is CMYK it also refreshes the entries of ``cards.pdf`` and ``back.pdf``,
which it converted in place.

:func:`check_deck` builds a deck into a temporary folder exactly as ``deck build``
would (CMYK conversion included), runs the preflight and gives its report; nothing is
written next to the deck.
"""

from __future__ import annotations

import dataclasses
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from deckgen.prepress.preflight import PreflightReport
from deckgen.prepress.presets import load_preset
from deckgen.prepress.printout import PrintOptions, make_print_outputs
from deckgen.progress import CollectingReporter, Reporter

if TYPE_CHECKING:
    from deckgen.deck.build import BuildContext
    from deckgen.deck.cards import CardRef
    from deckgen.deck.manifest import OutputFile
    from deckgen.deck.press import PressRules
    from deckgen.deck.spec import LoadedDeck


def card_file_labels(cards: list[CardRef]) -> list[str]:
    """``cover``, ``0-0`` ... ``imprint``: the labels per-card files are named with."""
    return [str(card.tile) if card.tile is not None else card.kind for card in cards]


def options_for(options: PrintOptions | None, deck: LoadedDeck) -> PrintOptions:
    """The print options of a build: those given, completed from the deck file."""
    options = options if options is not None else PrintOptions()
    spec = deck.spec
    preset = options.preset
    if preset is None and spec.preset:
        preset = load_preset(spec.preset, where=f"{deck.path}: key preset")
    offset = options.back_offset_mm
    if offset == (0.0, 0.0):
        from deckgen.prepress.printout import check_back_offset

        offset = check_back_offset(
            (float(spec.back_offset_mm[0]), float(spec.back_offset_mm[1])),
            where=f"{deck.path}: key back_offset_mm",
        )
    from deckgen.prepress.sourcedate import deck_inputs, source_epoch

    return dataclasses.replace(
        options,
        preset=preset,
        safe_mm=float(deck.safe_mm),
        corner_radius_mm=float(deck.corner_radius_mm),
        back_offset_mm=offset,
        language=spec.language,
        source_epoch=source_epoch(deck_inputs(deck)),
    )


def press_rules(options: PrintOptions) -> PressRules:
    """What the print options (and their preset) ask of the drawing itself: the one
    place a preset's drawing rules become the deck plan's :class:`PressRules`."""
    from deckgen.deck.press import PressRules
    from deckgen.prepress.printout import wants_cmyk

    preset = options.preset
    cmyk = wants_cmyk(options)
    return PressRules(
        vendor=preset.name if preset is not None and preset.print_shop else None,
        min_line_pt=preset.min_line_pt if preset is not None else 0.0,
        solid_black=bool(preset is not None and preset.solid_black and cmyk),
        black_ink_lines=cmyk,
        imprint_on_cover_back=bool(preset is not None and preset.imprint_on_cover_back),
    )


@dataclass(frozen=True)
class PrintStep:
    """A build step that makes the print outputs for :class:`PrintOptions`."""

    options: PrintOptions = field(default_factory=PrintOptions)
    keep_files: bool = True
    """False: the preflight report only (``deck check``); what was made is not listed."""
    reports: list[PreflightReport] = field(default_factory=list, compare=False)
    """Each run's preflight report, in order (``deck check`` reads it)."""

    def __call__(self, ctx: BuildContext) -> list[OutputFile]:
        from deckgen.deck.manifest import OutputFile
        from deckgen.deck.resolution import DEFAULT_MIN_PPI
        from deckgen.prepress.picturecheck import check_pictures, require_usable

        options = options_for(self.options, ctx.deck)
        preset = options.preset
        min_ppi = preset.picture_min_ppi if preset is not None else DEFAULT_MIN_PPI
        pictures = check_pictures(ctx.deck, ctx.cards, dpi=min_ppi)
        if self.keep_files and preset is None and not options.force:
            # With a preset the vendor's rule stops the build (naming the vendor);
            # without one only a useless picture does (--force builds it anyway).
            require_usable(pictures)
        result = make_print_outputs(
            ctx.stage,
            card_file_labels(ctx.cards),
            options,
            reporter=ctx.reporter,
            pictures=pictures,
            parsed=ctx.parsed,
        )
        if result.preflight is not None:
            self.reports.append(result.preflight)
        if not self.keep_files:
            return []
        if result.cmyk:
            for i, entry in enumerate(ctx.files):
                if entry.kind in ("cards", "back"):
                    data = (ctx.stage / entry.path).read_bytes()
                    ctx.files[i] = OutputFile(entry.path, entry.kind, entry.pages, data)
        return [OutputFile(f.path, f.kind, f.pages) for f in result.files]


def print_step(options: PrintOptions | None = None) -> PrintStep:
    """The print step for ``build_deck(extra_steps=[...])``: ``options`` or the deck's preset."""
    return PrintStep(options if options is not None else PrintOptions())


def check_deck(
    deck_file: str | Path | LoadedDeck,
    *,
    preset: str | None = None,
    cmyk: bool | None = None,
    allow_outside: bool = False,
    reporter: Reporter | None = None,
    ink_map: Path | None = None,
) -> PreflightReport:
    """Preflight of a deck as ``deck build`` would make it (nothing kept but the ink
    map of a CMYK job, written to ``ink_map`` when given)."""
    from deckgen.deck.build import build_deck
    from deckgen.deck.spec import LoadedDeck as _Loaded
    from deckgen.deck.spec import load_deck
    from deckgen.prepress.contract import fit_deck

    options = PrintOptions(
        preset=load_preset(preset) if preset else None,
        cmyk=cmyk,
        make_files=False,
        ink_map=ink_map,
    )
    deck = (
        deck_file
        if isinstance(deck_file, _Loaded)
        else load_deck(deck_file, allow_outside=allow_outside)
    )
    options = options_for(options, deck)
    if options.preset is not None:
        deck, _ = fit_deck(deck, options.preset)
    step = PrintStep(options, keep_files=False)
    with tempfile.TemporaryDirectory(prefix="deckgen-check-") as tmp:
        build_deck(
            deck,
            Path(tmp),
            allow_outside=allow_outside,
            reporter=reporter or CollectingReporter(),
            preview=False,
            extra_steps=[step],
            press=dataclasses.replace(press_rules(options), vendor=None),
        )
    return step.reports[0] if step.reports else PreflightReport()
