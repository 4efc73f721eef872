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
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deckgen.deck.build import BuildResult, OutputStep
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
    """Build a loaded deck (from :func:`load_printed_deck`) with its print outputs.

    ``extra_steps`` run before the print step (which may turn the PDFs into CMYK), for
    exports that want the RGB card files (Tabletop Simulator); ``step_options`` is
    handed to every step as ``ctx.options``.

    The card files (``cards.pdf``, ``back.pdf``, preview, manifest) come from
    :func:`deckgen.deck.build.build_deck`; the print step makes what ``options`` (and
    the deck's vendor preset) ask for. Against a vendor preset the cards are made to
    the vendor's size and bleed first (:func:`deckgen.prepress.contract.fit_deck`), and
    a broken vendor rule stops the build unless ``options.force``. Short rules on the
    imprint are always checked for size (``strict_text``).
    """
    from deckgen.deck.build import build_deck
    from deckgen.prepress.contract import fit_deck
    from deckgen.prepress.printstep import options_for, print_step

    options = options_for(options, deck)
    if options.preset is not None:
        deck, note = fit_deck(deck, options.preset)
        if note is not None and reporter is not None:
            reporter.warn(note)  # a shop needs to know: kept under --quiet
    return build_deck(
        deck,
        out_dir,
        reporter=reporter,
        strict_text=strict_text or names_rules(deck),
        preview=preview,
        extra_steps=[*extra_steps, print_step(options)],
        options=step_options,
    )
