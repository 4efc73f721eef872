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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen.deck.cards import CardRef, deck_cards
from deckgen.deck.geometry import CardGeometry, card_geometry
from deckgen.deck.manifest import OutputFile
from deckgen.deck.pictures import TARGET_DPI, PictureStore, PictureUse
from deckgen.deck.press import PressRules
from deckgen.deck.spec import LoadedDeck
from deckgen.deck.textfit import FitResult

if TYPE_CHECKING:
    from deckgen.deck.starter import SampleItem

__all__ = ["BuildPlan", "BuildSettings", "OutputStep", "PlannedPicture", "PressRules", "plan_build"]

OutputStep = Callable[[Any], list[OutputFile]]
"""An output step: ``step(ctx: deckgen.deck.build.BuildContext) -> list[OutputFile]``."""


@dataclass(frozen=True)
class PlannedPicture:
    """A picture the build draws: its file, where it goes (box, fit, focus: the crop)."""

    path: Path
    use: PictureUse
    where: str
    """The deck file and key that named it (for messages)."""
    back: bool = False
    """True for the back's pictures (drawn into ``back.pdf``)."""


class _Recorder(PictureStore):
    """Collects what the layout says each card needs, preparing nothing."""

    def __init__(self) -> None:
        super().__init__(dpi=TARGET_DPI, reporter=None)
        self.found: list[PlannedPicture] = []
        self.back = False

    def need(self, path: Path, use: PictureUse, *, where: str) -> None:
        self.found.append(PlannedPicture(path, use, where, self.back))


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
    pictures: tuple[PlannedPicture, ...] = ()
    """Every picture the cards and the back draw, with its box, fit and focus (crop)."""
    imprint_fit: FitResult | None = None
    """The imprint card's text fitted to its room (drawing reuses this fit)."""

    def register_pictures(self, store: PictureStore) -> None:
        """Tell ``store`` every picture the plan draws (fronts first, then the back)."""
        for pic in self.pictures:
            store.need(pic.path, pic.use, where=pic.where)


def plan_build(deck: LoadedDeck, settings: BuildSettings | None = None) -> BuildPlan:
    """Resolve a loaded deck (already at its final card size) into a build plan."""
    from deckgen.deck.fonts import load_fonts
    from deckgen.deck.imprint import fit_imprint
    from deckgen.deck.layoutboxes import register_picture_needs
    from deckgen.deck.starter import sample_items
    from deckgen.resources import default_output_dir

    settings = settings or BuildSettings()
    if settings.imprint_extra is not None:
        deck = deck.with_imprint_rules(settings.imprint_extra)
    out = settings.out_dir if settings.out_dir is not None else default_output_dir() / deck.slug
    cards = tuple(deck_cards(deck))
    geometry = card_geometry(deck)
    recorder = _Recorder()
    register_picture_needs(deck, geometry, recorder, cards=cards, back=False)
    recorder.back = True
    register_picture_needs(deck, geometry, recorder, cards=[], back=True)
    fonts = load_fonts(deck.font_regular, deck.font_bold, where=str(deck.path))
    return BuildPlan(
        deck=deck,
        out_dir=Path(out),
        cards=cards,
        geometry=geometry,
        press=settings.press,
        preview=settings.preview,
        strict_text=settings.strict_text,
        picture_dpi=settings.picture_dpi,
        steps=tuple(settings.steps),
        step_options=dict(settings.step_options),
        record=dict(settings.record),
        samples=tuple(sample_items(deck)),
        pictures=tuple(recorder.found),
        imprint_fit=fit_imprint(deck, geometry, fonts),
    )
