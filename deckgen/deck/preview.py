"""The contact sheet: every front and the back as trimmed, rounded cards on one PNG.

Takes the rendered fronts and back (PDF bytes) and the deck; gives PNG bytes. Pages
are rasterised with pypdfium2 from the very PDFs that are written, so the preview shows
exactly what will be printed, cut to the card with its rounded corners.
"""

from __future__ import annotations

import io
import math
from typing import TYPE_CHECKING

from deckgen.deck.render import ParsedPdf, rasterize_pages, trim_image
from deckgen.deck.spec import LoadedDeck
from deckgen.units import px_at

if TYPE_CHECKING:
    from PIL import Image as PILImage

PREVIEW_DPI = 48
SHEET_BG = (58, 62, 70)


def _rounded(im: PILImage.Image, radius_px: int) -> PILImage.Image:
    from PIL import Image, ImageDraw

    mask = Image.new("L", im.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, im.width - 1, im.height - 1), radius=max(0, radius_px), fill=255
    )
    out = Image.new("RGB", im.size, SHEET_BG)
    out.paste(im, (0, 0), mask)
    return out


def contact_sheet(
    deck: LoadedDeck,
    fronts_pdf: bytes | ParsedPdf,
    back_pdf: bytes | ParsedPdf,
    *,
    dpi: int = PREVIEW_DPI,
) -> bytes:
    """A PNG with every front in deck order, then the back, in a grid."""
    from PIL import Image

    pages = rasterize_pages(fronts_pdf, dpi=dpi) + rasterize_pages(back_pdf, dpi=dpi)
    radius = px_at(deck.corner_radius_mm, dpi)
    cards = [_rounded(trim_image(p, deck, dpi), radius) for p in pages]
    cw, ch = cards[0].size
    count = len(cards)
    cols = max(4, min(12, math.ceil(math.sqrt(count * ch / cw * 1.2))))
    rows = math.ceil(count / cols)
    gap = max(6, cw // 12)
    sheet = Image.new("RGB", (cols * cw + (cols + 1) * gap, rows * ch + (rows + 1) * gap), SHEET_BG)
    for i, card in enumerate(cards):
        r, col = divmod(i, cols)
        sheet.paste(card, (gap + col * (cw + gap), gap + r * (ch + gap)))
    buf = io.BytesIO()
    sheet.save(buf, format="PNG", optimize=False, compress_level=3)
    return buf.getvalue()


def card_strip(deck: LoadedDeck, cards: list[str], *, dpi: int = 110) -> bytes:
    """A row of chosen fronts and the back, trimmed and rounded: a picture for docs."""
    from PIL import Image

    from deckgen.deck.cards import select_cards
    from deckgen.deck.render import render_pdf

    fronts = render_pdf(deck, select_cards(deck, list(cards))).data
    back = render_pdf(deck, back=True).data
    pages = rasterize_pages(fronts, dpi=dpi) + rasterize_pages(back, dpi=dpi)
    radius = px_at(deck.corner_radius_mm, dpi)
    tiles = [_rounded(trim_image(p, deck, dpi), radius) for p in pages]
    gap = 14
    cw, ch = tiles[0].size
    strip = Image.new("RGB", (len(tiles) * (cw + gap) + gap, ch + 2 * gap), SHEET_BG)
    for i, im in enumerate(tiles):
        strip.paste(im, (gap + i * (cw + gap), gap))
    buf = io.BytesIO()
    strip.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


if __name__ == "__main__":  # pragma: no cover
    # python -m deckgen.deck.preview images/demo-deck.toml docs/card.png
    import sys

    from deckgen import atomic
    from deckgen.deck.spec import load_deck

    atomic.write_bytes(
        sys.argv[2], card_strip(load_deck(sys.argv[1]), ["cover", "2-5", "6-6", "imprint"])
    )
