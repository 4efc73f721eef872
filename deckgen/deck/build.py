"""``deck build`` and ``deck preview`` as library calls: deck file in, files out.

:func:`build_deck` takes a deck file (or a loaded deck) and an output folder; it
writes ``cards.pdf``, ``back.pdf``, ``preview.png`` and ``manifest.json`` through one
staging folder (all appear, or none) and gives a :class:`BuildResult`.

Extension point for more outputs (sheets, per-card PNGs, CMYK ...): a step is any
callable ``step(ctx: BuildContext) -> list[OutputFile]``. It is called after the
core files are in the stage folder, may write more files into ``ctx.stage`` (through
:mod:`deckgen.atomic`) and returns them so that they are listed in the manifest.
Steps come from ``build_deck(extra_steps=...)`` and from :data:`EXTRA_STEPS`;
``options`` is handed to them unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckgen import atomic
from deckgen.deck.cardref import CardRef
from deckgen.deck.geometry import card_geometry
from deckgen.deck.layoutboxes import register_picture_needs
from deckgen.deck.manifest import OutputFile, manifest_dict, manifest_json
from deckgen.deck.pictures import TARGET_DPI, PictureStore
from deckgen.deck.preview import PREVIEW_DPI, contact_sheet
from deckgen.deck.render import deck_cards, render_pdf
from deckgen.deck.spec import LoadedDeck, load_deck
from deckgen.progress import CollectingReporter, Reporter
from deckgen.resources import default_output_dir

CARDS_PDF = "cards.pdf"
BACK_PDF = "back.pdf"
PREVIEW_PNG = "preview.png"
MANIFEST_JSON = "manifest.json"


@dataclass
class BuildContext:
    """What an output step receives."""

    deck: LoadedDeck
    stage: Path
    out_dir: Path
    cards: list[CardRef]
    files: list[OutputFile]
    """Files written so far; ``cards.pdf`` and ``back.pdf`` carry their bytes in ``data``."""
    reporter: Reporter
    options: Mapping[str, Any] = field(default_factory=dict)

    def file(self, kind: str) -> OutputFile:
        """The written file of ``kind`` (``cards``, ``back``, ``preview``)."""
        for f in self.files:
            if f.kind == kind:
                return f
        raise KeyError(kind)


OutputStep = Callable[[BuildContext], list[OutputFile]]

EXTRA_STEPS: list[OutputStep] = []
"""Output steps every build runs after the core files (append to add an output)."""


@dataclass(frozen=True)
class BuildResult:
    """What a build wrote."""

    deck: LoadedDeck
    out_dir: Path
    files: list[Path]
    manifest: dict[str, Any]
    warnings: list[str]
    images_embedded: int
    pictures_decoded: int


def _as_deck(deck_file: str | Path | LoadedDeck, allow_outside: bool) -> LoadedDeck:
    if isinstance(deck_file, LoadedDeck):
        return deck_file
    return load_deck(deck_file, allow_outside=allow_outside)


class _Tee:
    """Passes everything to a reporter and keeps the warnings."""

    def __init__(self, inner: Reporter) -> None:
        self.inner = inner
        self.warnings: list[str] = []

    def start(self, description: str, total: int | None) -> None:
        self.inner.start(description, total)

    def advance(self, steps: int = 1) -> None:
        self.inner.advance(steps)

    def finish(self) -> None:
        self.inner.finish()

    def warn(self, message: str) -> None:
        self.warnings.append(message)
        self.inner.warn(message)

    def info(self, message: str) -> None:
        self.inner.info(message)


def default_out_dir(deck: LoadedDeck) -> Path:
    """``output/<deck name as a folder name>/``."""
    return default_output_dir() / deck.slug


def build_deck(
    deck_file: str | Path | LoadedDeck,
    out_dir: str | Path | None = None,
    *,
    allow_outside: bool = False,
    reporter: Reporter | None = None,
    imprint_extra: str | None = None,
    strict_text: bool = False,
    preview: bool = True,
    dpi: int = TARGET_DPI,
    extra_steps: Sequence[OutputStep] = (),
    options: Mapping[str, Any] | None = None,
) -> BuildResult:
    """Build the deck's files into ``out_dir`` (default ``output/<deck name>/``).

    ``imprint_extra``: short rules text for the imprint card, supplied by the caller.
    ``strict_text``: text that does not fit at the minimum readable size is an error
    instead of a warning. ``dpi``: the resolution pictures are prepared for.
    """
    tee = _Tee(reporter or CollectingReporter())
    deck = _as_deck(deck_file, allow_outside)
    if imprint_extra is not None:
        deck = deck.with_imprint_rules(imprint_extra)
    out = Path(out_dir) if out_dir is not None else default_out_dir(deck)
    cards = deck_cards(deck)
    geometry = card_geometry(deck)
    store = PictureStore(dpi=dpi, reporter=tee)
    register_picture_needs(deck, geometry, store, cards=cards, back=False)
    register_picture_needs(deck, geometry, store, cards=[], back=True)
    fronts = render_pdf(deck, cards, reporter=tee, strict_text=strict_text, store=store)
    back = render_pdf(deck, back=True, reporter=tee, strict_text=strict_text, store=store)
    files: list[OutputFile] = []
    with atomic.staged_dir(out) as stage:
        atomic.write_bytes(stage / CARDS_PDF, fronts.data)
        files.append(OutputFile(CARDS_PDF, "cards", fronts.pages, fronts.data))
        atomic.write_bytes(stage / BACK_PDF, back.data)
        files.append(OutputFile(BACK_PDF, "back", back.pages, back.data))
        if preview:
            tee.start("drawing the preview", None)
            png = contact_sheet(deck, fronts.data, back.data, dpi=PREVIEW_DPI)
            tee.finish()
            atomic.write_bytes(stage / PREVIEW_PNG, png)
            files.append(OutputFile(PREVIEW_PNG, "preview", None, png))
        ctx = BuildContext(
            deck=deck,
            stage=stage,
            out_dir=out,
            cards=cards,
            files=files,
            reporter=tee,
            options=dict(options or {}),
        )
        for step in [*EXTRA_STEPS, *extra_steps]:
            files.extend(step(ctx))
        manifest = manifest_dict(deck, cards, files, stage)
        atomic.write_text(stage / MANIFEST_JSON, manifest_json(manifest))
    written = [out / f.path for f in files] + [out / MANIFEST_JSON]
    tee.info(f"built {len(cards)} cards and the back of {deck.spec.name}")
    return BuildResult(
        deck=deck,
        out_dir=out,
        files=written,
        manifest=manifest,
        warnings=tee.warnings,
        images_embedded=fronts.images_embedded + back.images_embedded,
        pictures_decoded=store.decode_count,
    )


PREVIEW_PICTURE_DPI = 120


def preview_deck(
    deck_file: str | Path | LoadedDeck,
    out_file: str | Path | None = None,
    *,
    allow_outside: bool = False,
    reporter: Reporter | None = None,
    dpi: int = PREVIEW_DPI,
) -> Path:
    """Only the contact sheet, fast (pictures prepared at a low resolution, no dpi warnings).

    Writes ``out_file`` (default ``output/<deck name>/preview.png``) and returns it.
    """
    deck = _as_deck(deck_file, allow_outside)
    target = Path(out_file) if out_file is not None else default_out_dir(deck) / PREVIEW_PNG
    cards = deck_cards(deck)
    geometry = card_geometry(deck)
    store = PictureStore(dpi=PREVIEW_PICTURE_DPI, reporter=None)
    register_picture_needs(deck, geometry, store, cards=cards, back=False)
    register_picture_needs(deck, geometry, store, cards=[], back=True)
    fronts = render_pdf(deck, cards, reporter=reporter, store=store)
    back = render_pdf(deck, back=True, store=store)
    png = contact_sheet(deck, fronts.data, back.data, dpi=dpi)
    atomic.write_bytes(target, png)
    return target
