"""The build plan: everything a deck build decides, decided once, before anything is drawn.

A deck build runs in stages, each taking the previous stage's object and never going
back to the source (as WeasyPrint goes HTML -> Document -> pages -> PDF)::

    deck file --> BuildPlan --> DrawnDeck (cards.pdf, back.pdf) --> vendor files

The plan is resolved in this order: the vendor preset (by the caller that knows the
presets, :mod:`deckgen.product`), then the card size and bleed it asks for, then the
texts fitted to that card (the imprint's short rules are chosen for the final card
size, never for the size the deck file names). The deck pillar knows no presets: what
the printer asks of the drawing itself arrives as a :class:`PressRules` record, and
what the manifest should say about the build (preset, profile, options) as ``record``.

Nothing below the plan reads the deck file or the preset again: drawing takes the
plan's deck, cards and geometry; output steps take the drawn files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen.deck.cards import CardRef, deck_cards
from deckgen.deck.geometry import CardGeometry, card_geometry
from deckgen.deck.pictures import TARGET_DPI
from deckgen.deck.spec import LoadedDeck

if TYPE_CHECKING:
    from deckgen.deck.build import OutputStep
    from deckgen.deck.starter import SampleItem


@dataclass(frozen=True)
class PressRules:
    """What the printer asks of the drawing itself (resolved from its preset by the caller).

    ``min_line_pt``: no line deckgen draws is thinner (the vendor's published thinnest
    line). ``solid_black``: black text and lines print as solid black ink (0/0/0/100),
    so near-black inks are drawn pure black. ``black_ink_lines``: a CMYK job prints black
    and grey text and lines in black ink alone, so greyish inks of deckgen's own design
    (a tinted grey outline) are drawn as neutral greys of the same lightness.
    """

    vendor: str | None = None
    """The preset's name when the build is for one: sample content is refused then."""
    min_line_pt: float = 0.0
    solid_black: bool = False
    black_ink_lines: bool = False


@dataclass(frozen=True)
class BuildSettings:
    """The choices of a build that are not in the deck file."""

    out_dir: Path | None = None
    """Default ``output/<deck name>/``."""
    preview: bool = True
    strict_text: bool = False
    """Text that does not fit at the minimum readable size is an error, not a warning."""
    picture_dpi: int = TARGET_DPI
    imprint_extra: str | None = None
    """Short rules text for the imprint card, supplied by the caller."""
    press: PressRules = field(default_factory=PressRules)
    steps: Sequence[OutputStep] = ()
    """Output steps run after the core files (see :mod:`deckgen.deck.build`)."""
    step_options: Mapping[str, Any] = field(default_factory=dict)
    record: Mapping[str, Any] = field(default_factory=dict)
    """What ``manifest.json`` records about how the deck was built (preset, options)."""


@dataclass(frozen=True)
class BuildPlan:
    """A deck build, resolved: the deck at its final card size with its texts in place."""

    deck: LoadedDeck
    out_dir: Path
    cards: tuple[CardRef, ...]
    geometry: CardGeometry
    press: PressRules
    preview: bool
    strict_text: bool
    picture_dpi: int
    steps: tuple[OutputStep, ...]
    step_options: Mapping[str, Any]
    record: Mapping[str, Any]
    samples: tuple[SampleItem, ...]
    """Sample content of the starter deck still in the deck (see :mod:`deckgen.deck.starter`)."""


def plan_build(deck: LoadedDeck, settings: BuildSettings | None = None) -> BuildPlan:
    """Resolve a loaded deck (already at its final card size) into a build plan."""
    from deckgen.deck.starter import sample_items
    from deckgen.resources import default_output_dir

    settings = settings or BuildSettings()
    if settings.imprint_extra is not None:
        deck = deck.with_imprint_rules(settings.imprint_extra)
    out = settings.out_dir if settings.out_dir is not None else default_output_dir() / deck.slug
    return BuildPlan(
        deck=deck,
        out_dir=Path(out),
        cards=tuple(deck_cards(deck)),
        geometry=card_geometry(deck),
        press=settings.press,
        preview=settings.preview,
        strict_text=settings.strict_text,
        picture_dpi=settings.picture_dpi,
        steps=tuple(settings.steps),
        step_options=dict(settings.step_options),
        record=dict(settings.record),
        samples=tuple(sample_items(deck)),
    )
