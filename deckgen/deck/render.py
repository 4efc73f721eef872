"""Cards to PDF bytes (and PNG): the deck's card list, page set-up, and :func:`render_cards`.

Takes a :class:`~deckgen.deck.spec.LoadedDeck` and a choice of cards; gives PDF bytes
with one page per card (card + bleed on every side; MediaBox = BleedBox = the page,
TrimBox = the card), byte-identical for the same input (reportlab ``invariant``), each
picture embedded once. :func:`render_cards` is the public face for other packages
(the booklet draws its card pictures through it); :func:`rasterize_pages` turns PDF
pages into PIL images with pypdfium2.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypedDict, Unpack, overload

from deckgen.deck.cards import CardRef, deck_cards, select_cards
from deckgen.deck.fonts import load_fonts
from deckgen.deck.geometry import CardGeometry, card_geometry
from deckgen.deck.layoutboxes import register_picture_needs
from deckgen.deck.pictures import TARGET_DPI, PictureStore
from deckgen.deck.press import PressRules
from deckgen.deck.spec import LoadedDeck, load_deck
from deckgen.progress import Reporter
from deckgen.tiles import Tile
from deckgen.units import px_at

if TYPE_CHECKING:
    from PIL import Image as PILImage


@dataclass(frozen=True)
class RenderedPdf:
    """PDF bytes and what went into them."""

    data: bytes
    pages: int
    images_embedded: int


def new_canvas(buffer: io.BytesIO, geometry: CardGeometry, *, title: str, initial_font: str) -> Any:
    """A reportlab canvas with the deck's page, trim and bleed boxes, reproducible output.

    ``initial_font`` (a registered, embedded font) replaces reportlab's default
    Helvetica, which it would otherwise name on every page without embedding it: print
    shops' preflight flags any font that is not embedded, used or not.
    """
    from reportlab.pdfgen.canvas import Canvas

    c = Canvas(
        buffer,
        pagesize=(geometry.page.w, geometry.page.h),
        invariant=1,
        pageCompression=1,
        initialFontName=initial_font,
    )
    c.setTitle(title)
    c.setAuthor("deckgen")
    c.setCreator("deckgen")
    c.setSubject("print-ready domino card deck")
    c.setTrimBox(geometry.trim.as_pdf_box())
    c.setBleedBox(geometry.page.as_pdf_box())
    c.setViewerPreference("PrintScaling", "None")  # cards print at their real size
    return c


class RenderOptions(TypedDict, total=False):
    """How :func:`render_pdf` draws (all optional)."""

    back: bool
    """Draw the back instead of fronts."""
    dpi: int
    """The resolution pictures are prepared for (when no ``store`` is given)."""
    reporter: Reporter | None
    strict_text: bool
    store: PictureStore | None
    """Pictures already registered and prepared (a build shares one for both PDFs)."""
    press: PressRules
    """What the printer asks of the drawing (thinnest line, solid black)."""


def render_pdf(
    deck: LoadedDeck,
    cards: Sequence[CardRef] | None = None,
    **options: Unpack[RenderOptions],
) -> RenderedPdf:
    """One page per card of ``cards`` (default: every front), or the back when ``back``."""
    from deckgen.deck.imagexobject import binary_streams

    with binary_streams():
        return _render_pdf(deck, cards, options)


def _render_pdf(
    deck: LoadedDeck, cards: Sequence[CardRef] | None, options: RenderOptions
) -> RenderedPdf:
    from deckgen.deck.back import draw_back
    from deckgen.deck.cover import draw_cover
    from deckgen.deck.drawing import DrawContext
    from deckgen.deck.face import draw_tile_card
    from deckgen.deck.imprint import draw_imprint

    back = options.get("back", False)
    reporter = options.get("reporter")
    store = options.get("store")
    geometry = card_geometry(deck)
    if cards is None:
        cards = [] if back else deck_cards(deck)
    if store is None:
        store = PictureStore(dpi=options.get("dpi", TARGET_DPI), reporter=reporter)
        register_picture_needs(deck, geometry, store, cards=cards, back=back)
    fonts = load_fonts(deck.font_regular, deck.font_bold, where=str(deck.path))
    buffer = io.BytesIO()
    title = f"{deck.spec.name}: {'card back' if back else 'card fronts'}"
    c = new_canvas(buffer, geometry, title=title, initial_font=fonts.regular)
    ctx = DrawContext(
        canvas=c,
        deck=deck,
        geometry=geometry,
        fonts=fonts,
        pictures=store,
        reporter=reporter,
        strict_text=options.get("strict_text", False),
        press=options.get("press", PressRules()),
    )
    pages = 0
    if back:
        draw_back(ctx)
        c.showPage()
        pages = 1
    else:
        if reporter is not None:
            reporter.start("drawing cards", len(cards))
        for card in cards:
            if card.kind == "cover":
                draw_cover(ctx)
            elif card.kind == "imprint":
                draw_imprint(ctx)
            else:
                assert card.tile is not None
                draw_tile_card(ctx, card.tile)
            c.showPage()
            pages += 1
            if reporter is not None:
                reporter.advance()
        if reporter is not None:
            reporter.finish()
    c.save()
    return RenderedPdf(data=buffer.getvalue(), pages=pages, images_embedded=len(ctx.embedded))


class ParsedPdf:
    """PDF bytes parsed by pdfium once, for every reader of the same bytes.

    A build draws ``cards.pdf``; its preview and (while the file is unchanged) its
    preflight read this one parse instead of parsing the file again. ``parses`` counts
    how often the bytes were parsed (0 or 1).
    """

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.parses = 0
        self._document: Any = None

    @property
    def document(self) -> Any:
        """The pypdfium2 ``PdfDocument`` (parsed on first use)."""
        if self._document is None:
            import pypdfium2 as pdfium

            self._document = pdfium.PdfDocument(self.data)
            self.parses += 1
        return self._document

    def close(self) -> None:
        if self._document is not None:
            self._document.close()
            self._document = None


def rasterize_pages(
    pdf: bytes | ParsedPdf, *, dpi: float, pages: Sequence[int] | None = None
) -> list[PILImage.Image]:
    """Render PDF pages to RGB PIL images at ``dpi`` with pypdfium2."""
    parsed = pdf if isinstance(pdf, ParsedPdf) else ParsedPdf(pdf)
    doc = parsed.document
    try:
        chosen = range(len(doc)) if pages is None else pages
        out = []
        for i in chosen:
            page = doc[i]
            bitmap = page.render(scale=dpi / 72.0)
            out.append(bitmap.to_pil().convert("RGB"))
            page.close()
        return out
    finally:
        if parsed is not pdf:
            parsed.close()


class CardsOptions(TypedDict, total=False):
    """The options of :func:`render_cards` (all optional)."""

    dpi: int
    """PNG resolution (default 150)."""
    picture_dpi: int
    """The resolution pictures are prepared for."""
    bleed: bool
    """PNGs keep the bleed (default: cut to the card)."""
    imprint_rules: str | None
    """The caller's short rules text for the imprint card."""
    strict_text: bool
    allow_outside: bool
    reporter: Reporter | None


@overload
def render_cards(
    deck: LoadedDeck | str | Path,
    cards: Sequence[int | str | Tile | CardRef] | None = None,
    *,
    fmt: Literal["pdf"] = "pdf",
    **options: Unpack[CardsOptions],
) -> bytes: ...


@overload
def render_cards(
    deck: LoadedDeck | str | Path,
    cards: Sequence[int | str | Tile | CardRef] | None = None,
    *,
    fmt: Literal["png"],
    **options: Unpack[CardsOptions],
) -> list[bytes]: ...


def render_cards(
    deck: LoadedDeck | str | Path,
    cards: Sequence[int | str | Tile | CardRef] | None = None,
    *,
    fmt: Literal["pdf", "png"] = "pdf",
    **options: Unpack[CardsOptions],
) -> bytes | list[bytes]:
    """Chosen cards of a deck as PDF bytes (one page each) or as PNG bytes per card.

    ``cards``: deck indices, ``"cover"``, ``"imprint"``, tiles (``Tile`` or ``"3-5"``);
    default every front. ``imprint_rules`` puts the caller's short rules text on the
    imprint card; with ``strict_text`` text that does not fit at the minimum readable
    size raises a SpecError instead of a warning. PNGs are cut to the card
    (``bleed=False``) or keep the bleed, rendered at ``dpi``.
    """
    if not isinstance(deck, LoadedDeck):
        deck = load_deck(deck, allow_outside=options.get("allow_outside", False))
    imprint_rules = options.get("imprint_rules")
    if imprint_rules is not None:
        deck = deck.with_imprint_rules(imprint_rules)
    refs = select_cards(deck, cards) if cards is not None else deck_cards(deck)
    rendered = render_pdf(
        deck,
        refs,
        dpi=options.get("picture_dpi", TARGET_DPI),
        reporter=options.get("reporter"),
        strict_text=options.get("strict_text", False),
    )
    if fmt == "pdf":
        return rendered.data
    dpi = options.get("dpi", 150)
    images = rasterize_pages(rendered.data, dpi=dpi)
    out = []
    for im in images:
        if not options.get("bleed", False):
            im = trim_image(im, deck, dpi)
        buf = io.BytesIO()
        im.save(buf, format="PNG", optimize=False)
        out.append(buf.getvalue())
    return out


def trim_image(im: PILImage.Image, deck: LoadedDeck, dpi: float) -> PILImage.Image:
    """Cut the bleed off a rendered page image."""
    b = px_at(deck.bleed_mm, dpi)
    if b <= 0:
        return im
    return im.crop((b, b, im.width - b, im.height - b))
