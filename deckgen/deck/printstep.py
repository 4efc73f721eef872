"""The print outputs as a step of ``deck build``, and ``deck check`` as a library call.

:func:`print_step` plugs into :func:`deckgen.deck.build.build_deck` (``extra_steps``):
it reads :class:`~deckgen.deck.printout.PrintOptions` from ``ctx.options["print"]``
(or makes them from the deck file's own ``preset``), writes the print files into the
build's staging folder and gives them as ``OutputFile`` entries for ``manifest.json``.
When the job is CMYK it also refreshes the entries of ``cards.pdf`` and ``back.pdf``,
which it converted in place.

:func:`check_deck` builds a deck into a temporary folder exactly as ``deck build``
would (CMYK conversion included), runs the preflight and gives its report; nothing is
written next to the deck.
"""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen.deck.preflight import PreflightReport
from deckgen.deck.presets import load_preset
from deckgen.deck.printout import PrintOptions, make_print_outputs
from deckgen.progress import CollectingReporter, Reporter

if TYPE_CHECKING:
    from deckgen.deck.build import BuildContext
    from deckgen.deck.cardref import CardRef
    from deckgen.deck.manifest import OutputFile
    from deckgen.deck.spec import LoadedDeck

OPTIONS_KEY = "print"


def card_file_labels(cards: list[CardRef]) -> list[str]:
    """``cover``, ``0-0`` ... ``imprint``: the labels per-card files are named with."""
    return [str(card.tile) if card.tile is not None else card.kind for card in cards]


def options_for(ctx_options: Any, deck: Any) -> PrintOptions:
    """The print options of a build: those given, else from the deck file's preset."""
    given = ctx_options.get(OPTIONS_KEY) if ctx_options else None
    options = given if isinstance(given, PrintOptions) else PrintOptions()
    spec = deck.spec
    updates: dict[str, Any] = {"safe_mm": float(deck.safe_mm)}
    if options.preset is None and getattr(spec, "preset", None):
        updates["preset"] = load_preset(spec.preset, where=f"{deck.path}: key preset")
    offset = getattr(spec, "back_offset_mm", None)
    if offset is not None and options.back_offset_mm == (0.0, 0.0):
        updates["back_offset_mm"] = (float(offset[0]), float(offset[1]))
    return dataclasses.replace(options, **updates)


def print_step(ctx: BuildContext) -> list[OutputFile]:
    """Build step: the print outputs and the preflight, listed for the manifest."""
    from deckgen.deck.manifest import OutputFile

    options = options_for(ctx.options, ctx.deck)
    result = make_print_outputs(
        ctx.stage, card_file_labels(ctx.cards), options, reporter=ctx.reporter
    )
    if result.cmyk:
        for i, entry in enumerate(ctx.files):
            if entry.kind in ("cards", "back"):
                data = (ctx.stage / entry.path).read_bytes()
                ctx.files[i] = OutputFile(entry.path, entry.kind, entry.pages, data)
    return [OutputFile(f.path, f.kind, f.pages) for f in result.files]


def check_deck(
    deck_file: str | Path | LoadedDeck,
    *,
    preset: str | None = None,
    cmyk: bool | None = None,
    allow_outside: bool = False,
    reporter: Reporter | None = None,
) -> PreflightReport:
    """Preflight of a deck as ``deck build`` would make it (nothing kept)."""
    from deckgen.deck.build import build_deck

    options = PrintOptions(
        preset=load_preset(preset) if preset else None, cmyk=cmyk, make_files=False
    )
    found: list[PreflightReport] = []

    def step(ctx: BuildContext) -> list[OutputFile]:
        opts = options_for({OPTIONS_KEY: options}, ctx.deck)
        result = make_print_outputs(
            ctx.stage, card_file_labels(ctx.cards), opts, reporter=ctx.reporter
        )
        if result.preflight is not None:
            found.append(result.preflight)
        return []

    with tempfile.TemporaryDirectory(prefix="deckgen-check-") as tmp:
        build_deck(
            deck_file,
            Path(tmp),
            allow_outside=allow_outside,
            reporter=reporter or CollectingReporter(),
            preview=False,
            extra_steps=[step],
        )
    return found[0] if found else PreflightReport()
