"""A deck as it is printed: the deck file plus the text other pillars supply for it.

A deck file may ask for the short rules of a rules file on its imprint card
(``imprint.rules = "card-domino"``). The deck never reads rules files (design: ``deck``
imports neither ``engine`` nor ``booklet``), so this module, which combines the
pillars, resolves the reference with :mod:`deckgen.booklet.shortrules` and hands the
deck the finished text. Every command that draws a deck file (``deck build``,
``deck preview``, ``deck check``, the demo) loads it through here, and
:func:`build_printed_deck` builds it with the print step (:mod:`deckgen.prepress`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deckgen.deck.build import BuildResult, OutputStep
    from deckgen.deck.plan import BuildPlan
    from deckgen.deck.spec import LoadedDeck
    from deckgen.prepress.printout import PrintOptions
    from deckgen.progress import Reporter


def load_printed_deck(deck_file: str | Path, *, allow_outside: bool = False) -> LoadedDeck:
    """Load a deck file and put the short rules it names on its imprint card.

    The rules text is the fullest selection of the rules file's own sentences that
    fits the card at the deck's minimum readable size; a rules file that cannot fit
    even in its shortest form is a SpecError, so the build fails instead of printing
    unreadable text. Free text in ``imprint.rules`` is kept as it is.
    """
    from deckgen.deck.spec import load_deck

    return with_short_rules(load_deck(deck_file, allow_outside=allow_outside))


def load_for_preset(
    deck_file: str | Path, preset: str | None = None, *, allow_outside: bool = False
) -> LoadedDeck:
    """Load a deck file as a build for ``preset`` (else its own preset) would draw it:
    at the vendor's card size, with the short rules chosen for that card (the order of
    :func:`plan_printed_deck`). ``deck check`` checks this deck."""
    from deckgen.deck.spec import load_deck
    from deckgen.prepress.contract import fit_deck
    from deckgen.prepress.presets import load_preset
    from deckgen.prepress.printout import PrintOptions
    from deckgen.prepress.printstep import options_for

    deck = load_deck(deck_file, allow_outside=allow_outside)
    given = PrintOptions(preset=load_preset(preset) if preset else None)
    resolved = options_for(given, deck).preset
    if resolved is not None:
        deck, _ = fit_deck(deck, resolved)
    return with_short_rules(deck)


def with_short_rules(deck: LoadedDeck) -> LoadedDeck:
    """``deck`` with the short rules its ``imprint.rules`` names put on its imprint card."""
    from deckgen.booklet.shortrules import imprint_rules_for

    text = imprint_rules_for(deck)
    return deck if text is None else deck.with_imprint_rules(text)


def names_rules(deck: LoadedDeck) -> bool:
    """True when the imprint carries short rules, whose size must then be checked."""
    return bool(deck.spec.imprint.rules.strip())


def build_printed_deck(
    deck: LoadedDeck,
    out_dir: str | Path | None,
    options: PrintOptions,
    *,
    reporter: Reporter | None = None,
    preview: bool = True,
    strict_text: bool = False,
    extra_steps: Sequence[OutputStep] = (),
    step_options: Mapping[str, Any] | None = None,
) -> BuildResult:
    """Build a loaded deck (from :func:`load_deck` or :func:`load_printed_deck`) with
    its print outputs.

    ``extra_steps`` run before the print step (which may turn the PDFs into CMYK), for
    exports that want the RGB card files (Tabletop Simulator); ``step_options`` is
    handed to every step as ``ctx.options``.

    The build is resolved once into a plan (:func:`plan_printed_deck`), in this order:
    the vendor preset, the vendor's card size and bleed
    (:func:`deckgen.prepress.contract.fit_deck`), then the short rules the imprint
    names, chosen for that final card. The card files come from
    :func:`deckgen.deck.build.build_plan`; the print step makes what ``options`` (and
    the deck's vendor preset) ask for, and a broken vendor rule stops the build unless
    ``options.force``. Short rules on the imprint are always checked for size.
    """
    from deckgen.deck.build import build_plan

    plan = plan_printed_deck(
        deck,
        out_dir,
        options,
        reporter=reporter,
        settings=PlanChoices(
            preview=preview,
            strict_text=strict_text,
            extra_steps=tuple(extra_steps),
            step_options=dict(step_options or {}),
        ),
    )
    return build_plan(plan, reporter=reporter)


@dataclass(frozen=True)
class PlanChoices:
    """The choices of a printed build besides its print options."""

    preview: bool = True
    strict_text: bool = False
    extra_steps: tuple[OutputStep, ...] = ()
    step_options: Mapping[str, Any] = field(default_factory=dict)
    record: Mapping[str, Any] = field(default_factory=dict)
    """More for ``manifest.json``'s ``build`` record (the caller's own options)."""


def plan_printed_deck(
    deck: LoadedDeck,
    out_dir: str | Path | None,
    options: PrintOptions,
    *,
    reporter: Reporter | None = None,
    settings: PlanChoices | None = None,
) -> BuildPlan:
    """Resolve a printed build once: preset -> card size and bleed -> imprint text.

    ``options.preset`` (else the deck file's own preset, loaded here once) decides the
    card size, the print step and what the drawing must respect (:class:`PressRules`);
    the short rules the imprint names are then fitted to that card. Nothing after this
    reads the deck file or the preset again.
    """
    from deckgen.deck.plan import BuildSettings, plan_build
    from deckgen.prepress.contract import fit_deck
    from deckgen.prepress.printout import planned_outputs, wants_cmyk
    from deckgen.prepress.printstep import options_for, press_rules, print_step

    settings = settings or PlanChoices()
    options = options_for(options, deck)
    preset = options.preset
    if preset is not None:
        deck, note = fit_deck(deck, preset)
        if note is not None and reporter is not None:
            reporter.warn(note)  # a shop needs to know: kept under --quiet
    deck = with_short_rules(deck)
    cmyk = wants_cmyk(options)
    press = press_rules(options)
    record = {
        "preset": preset.name if preset is not None else None,
        "colour": "cmyk" if cmyk else "rgb",
        "pdfx": preset.pdfx if preset is not None and cmyk else "none",
        "icc_profile": _icc_name(preset.output_profile if preset else "fogra39") if cmyk else None,
        "card_size_mm": [deck.width_mm, deck.height_mm],
        "bleed_mm": deck.bleed_mm,
        "outputs": planned_outputs(options),
        "options": {
            "sheets": options.sheets,
            "duplex": options.duplex,
            "marks": options.marks,
            "png": options.png,
            "card_pdfs": options.card_pdfs,
            "cmyk": options.cmyk,
            "back_offset_mm": list(options.back_offset_mm),
            "force": options.force,
            "strict_text": settings.strict_text or names_rules(deck),
            "preview": settings.preview,
            **dict(settings.record),
        },
        "exports": [_step_name(step) for step in settings.extra_steps],
    }
    return plan_build(
        deck,
        BuildSettings(
            out_dir=Path(out_dir) if out_dir is not None else None,
            preview=settings.preview,
            strict_text=settings.strict_text or names_rules(deck),
            press=press,
            steps=(*settings.extra_steps, print_step(options)),
            step_options=settings.step_options,
            record=record,
        ),
    )


def _step_name(step: OutputStep) -> str:
    """An export step as the manifest names it (``tts`` for ``tts_step``)."""
    name = getattr(step, "__name__", type(step).__name__)
    return str(name).removesuffix("_step")


def _icc_name(condition: str) -> str:
    from deckgen.prepress.iccprofile import OUTPUT_CONDITIONS, profile_path

    return f"{OUTPUT_CONDITIONS[condition].identifier} ({profile_path(condition).name})"
