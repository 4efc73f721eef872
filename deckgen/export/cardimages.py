"""The deck's cards as pictures: pages of the rendered PDFs, cut to the card, at a size.

Takes the PDF bytes that ``deck build`` writes (one page per card, card plus bleed)
and gives RGB PIL images of exactly ``width_px`` x ``height_px``, the bleed cut off.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from deckgen.deck.render import rasterize_pages, trim_image

if TYPE_CHECKING:
    from PIL import Image as PILImage

    from deckgen.deck.spec import LoadedDeck


def card_height_px(deck: LoadedDeck, width_px: int) -> int:
    """The height in pixels of a card ``width_px`` wide, keeping the card's proportions."""
    return max(1, round(width_px * deck.height_mm / deck.width_mm))


def card_images(
    deck: LoadedDeck, pdf: bytes, width_px: int, pages: Sequence[int] | None = None
) -> list[PILImage.Image]:
    """The pages of ``pdf`` as card pictures ``width_px`` wide (bleed cut off)."""
    from PIL import Image

    height_px = card_height_px(deck, width_px)
    dpi = width_px / (deck.width_mm / 25.4) * 1.05  # a little more, then reduce exactly
    out = []
    for page in rasterize_pages(pdf, dpi=dpi, pages=pages):
        card = trim_image(page, deck, dpi)
        out.append(card.resize((width_px, height_px), Image.Resampling.LANCZOS))
    return out
