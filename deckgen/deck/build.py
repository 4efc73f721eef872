"""``deck build`` and ``deck preview`` as library calls: deck file in, files out.

A build runs in stages, each taking the previous stage's object (see
:mod:`deckgen.deck.plan`)::

    deck file --plan_build--> BuildPlan --draw_deck--> DrawnDeck --build_plan--> files

:func:`build_plan` writes ``cards.pdf``, ``back.pdf``, ``preview.png`` and
``manifest.json`` through one staging folder (all appear, or none) and gives a
:class:`BuildResult`; the new set replaces the output folder's previous build as a
whole (nothing of an earlier build is left, whatever its preset). :func:`build_deck`
is the same for a deck file or a loaded deck and keyword options.

Extension point for more outputs (sheets, per-card PNGs, CMYK ...): a step is any
callable ``step(ctx: BuildContext) -> list[OutputFile]``. It is called after the
core files are in the stage folder, may write more files into ``ctx.stage`` (through
:mod:`deckgen.atomic`) and returns them so that they are listed in the manifest.
Steps come from the plan (``BuildSettings.steps``) and from :data:`EXTRA_STEPS`;
``ctx.options`` is the plan's ``step_options``, handed to them unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict, Unpack

from deckgen import atomic
from deckgen.deck.cards import CardRef, deck_cards
from deckgen.deck.geometry import card_geometry
from deckgen.deck.layoutboxes import register_picture_needs
from deckgen.deck.manifest import OutputFile, manifest_dict, manifest_json, previous_set
from deckgen.deck.pictures import TARGET_DPI, PictureStore
from deckgen.deck.plan import BuildPlan, BuildSettings, plan_build
from deckgen.deck.press import PressRules
from deckgen.deck.preview import PREVIEW_DPI, contact_sheet
from deckgen.deck.render import ParsedPdf, RenderedPdf, render_pdf
from deckgen.deck.spec import LoadedDeck, load_deck
from deckgen.errors import DeckgenError
from deckgen.progress import CollectingReporter, Reporter
from deckgen.resources import default_output_dir

CARDS_PDF = "cards.pdf"
BACK_PDF = "back.pdf"
PREVIEW_PNG = "preview.png"
MANIFEST_JSON = "manifest.json"


class SampleContentError(DeckgenError):
    """A build for a vendor that would print the starter deck's sample content."""


@dataclass(frozen=True)
class DrawnDeck:
    """The drawn cards of a plan: the fronts and the back as PDF bytes."""

    plan: BuildPlan
    fronts: RenderedPdf
    back: RenderedPdf
    pictures_decoded: int
    parsed: dict[str, ParsedPdf] = field(default_factory=dict)
    """``cards.pdf`` and ``back.pdf`` parsed once, for every reader of the drawn bytes
    (the preview, and the preflight while the files are unchanged)."""

    def close(self) -> None:
        for parsed in self.parsed.values():
            parsed.close()


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
    plan: BuildPlan | None = None
    """The build's plan (every decision: preset rules, card size, texts)."""
    parsed: Mapping[str, ParsedPdf] = field(default_factory=dict)
    """Written files already parsed (``cards.pdf``, ``back.pdf``): a step that reads a
    file it has not changed uses these instead of parsing it again."""

    def file(self, kind: str) -> OutputFile:
        """The written file of ``kind`` (``cards``, ``back``, ``preview``)."""
        for f in self.files:
            if f.kind == kind:
                return f
        raise KeyError(kind)


OutputStep = Callable[[BuildContext], list[OutputFile]]
"""An output step (the plan holds them as :data:`deckgen.deck.plan.OutputStep`)."""

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


class BuildOptions(TypedDict, total=False):
    """The keyword options of :func:`build_deck` (all optional; see :class:`BuildSettings`)."""

    allow_outside: bool
    reporter: Reporter | None
    imprint_extra: str | None
    strict_text: bool
    preview: bool
    dpi: int
    extra_steps: Sequence[OutputStep]
    options: Mapping[str, Any] | None
    press: PressRules


def build_deck(
    deck_file: str | Path | LoadedDeck,
    out_dir: str | Path | None = None,
    **options: Unpack[BuildOptions],
) -> BuildResult:
    """Build the deck's files into ``out_dir`` (default ``output/<deck name>/``).

    ``imprint_extra``: short rules text for the imprint card, supplied by the caller.
    ``strict_text``: text that does not fit at the minimum readable size is an error
    instead of a warning. ``dpi``: the resolution pictures are prepared for.
    """
    deck = _as_deck(deck_file, options.get("allow_outside", False))
    settings = BuildSettings(
        out_dir=Path(out_dir) if out_dir is not None else None,
        preview=options.get("preview", True),
        strict_text=options.get("strict_text", False),
        picture_dpi=options.get("dpi", TARGET_DPI),
        imprint_extra=options.get("imprint_extra"),
        press=options.get("press", PressRules()),
        steps=tuple(options.get("extra_steps", ())),
        step_options=dict(options.get("options") or {}),
    )
    return build_plan(plan_build(deck, settings), reporter=options.get("reporter"))


def check_samples(plan: BuildPlan, reporter: Reporter) -> None:
    """Sample content of the starter deck: refused for a vendor, a warning otherwise."""
    from deckgen.deck.starter import samples_message

    if not plan.samples:
        return
    what, fix = samples_message(list(plan.samples), "en")
    if plan.press.vendor is not None:
        raise SampleContentError(
            f"{what}; {plan.press.vendor} would print it",
            where=str(plan.deck.path),
            fix=f"{fix}, then build again",
        )
    reporter.warn(f"{what} ({plan.deck.path}): {fix} before you build for a print shop")


def draw_deck(plan: BuildPlan, reporter: Reporter | None = None) -> DrawnDeck:
    """Draw the plan's cards and back (PDF bytes); every picture prepared once."""
    store = PictureStore(dpi=plan.picture_dpi, reporter=reporter)
    plan.register_pictures(store)
    fronts = render_pdf(
        plan.deck,
        plan.cards,
        reporter=reporter,
        strict_text=plan.strict_text,
        store=store,
        press=plan.press,
    )
    back = render_pdf(
        plan.deck,
        back=True,
        reporter=reporter,
        strict_text=plan.strict_text,
        store=store,
        press=plan.press,
    )
    parsed = {CARDS_PDF: ParsedPdf(fronts.data), BACK_PDF: ParsedPdf(back.data)}
    return DrawnDeck(plan, fronts, back, store.decode_count, parsed)


def _write_set(
    plan: BuildPlan, drawn: DrawnDeck, tee: _Tee
) -> tuple[dict[str, Any], list[OutputFile]]:
    """Write the drawn deck, run the output steps and write the manifest, as one set."""
    out = plan.out_dir
    deck = plan.deck
    cards = list(plan.cards)
    files: list[OutputFile] = []
    with atomic.staged_dir(out, replaces=previous_set(out)) as stage:
        atomic.write_bytes(stage / CARDS_PDF, drawn.fronts.data)
        files.append(OutputFile(CARDS_PDF, "cards", drawn.fronts.pages, drawn.fronts.data))
        atomic.write_bytes(stage / BACK_PDF, drawn.back.data)
        files.append(OutputFile(BACK_PDF, "back", drawn.back.pages, drawn.back.data))
        if plan.preview:
            tee.start("drawing the preview", None)
            png = contact_sheet(
                deck, drawn.parsed[CARDS_PDF], drawn.parsed[BACK_PDF], dpi=PREVIEW_DPI
            )
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
            options=dict(plan.step_options),
            plan=plan,
            parsed=drawn.parsed,
        )
        for step in [*EXTRA_STEPS, *plan.steps]:
            files.extend(step(ctx))
        manifest = manifest_dict(deck, cards, files, stage, record=plan.record)
        atomic.write_text(stage / MANIFEST_JSON, manifest_json(manifest))
    return manifest, files


def build_plan(plan: BuildPlan, *, reporter: Reporter | None = None) -> BuildResult:
    """Draw a plan's cards and write its files as one set into ``plan.out_dir``."""
    tee = _Tee(reporter or CollectingReporter())
    check_samples(plan, tee)
    drawn = draw_deck(plan, tee)
    try:
        manifest, files = _write_set(plan, drawn, tee)
    finally:
        drawn.close()
    out, deck = plan.out_dir, plan.deck
    written = [out / f.path for f in files] + [out / MANIFEST_JSON]
    tee.info(f"built {len(plan.cards)} cards and the back of {deck.spec.name}")
    return BuildResult(
        deck=deck,
        out_dir=out,
        files=written,
        manifest=manifest,
        warnings=tee.warnings,
        images_embedded=drawn.fronts.images_embedded + drawn.back.images_embedded,
        pictures_decoded=drawn.pictures_decoded,
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

    Writes ``out_file`` (default ``output/<deck name>/preview.png``) and returns it. When
    that file is one a build listed in its ``manifest.json``, the picture and the
    manifest's entry for it are replaced together, as one set, so that every file the
    manifest lists still matches its checksum.
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
    write_listed(target, png)
    return target


def write_listed(target: Path, data: bytes) -> None:
    """Write ``target``; if a build's manifest beside it lists it, update that entry in
    the same step (one set), so that every file the manifest lists keeps matching it."""
    import hashlib

    folder = target.parent
    manifest_path = folder / MANIFEST_JSON
    try:
        manifest = json.loads(manifest_path.read_text("utf-8"))
        entries = [e for e in manifest.get("files", []) if e.get("path") == target.name]
    except (OSError, ValueError, AttributeError):
        entries = []
    if not entries:
        atomic.write_bytes(target, data)
        return
    for entry in entries:
        entry["bytes"] = len(data)
        entry["sha256"] = hashlib.sha256(data).hexdigest()
    with atomic.staged_dir(folder) as stage:
        atomic.write_bytes(stage / target.name, data)
        atomic.write_text(stage / MANIFEST_JSON, manifest_json(manifest))
