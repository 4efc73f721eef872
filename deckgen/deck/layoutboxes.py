"""The boxes pictures are drawn into, shared by the drawing code and the picture planner.

Takes the card geometry; gives the box (points) of each picture on a card, and
:func:`register_picture_needs`, which tells a :class:`PictureStore` every use before
drawing starts, so each file is decoded once at the smallest scale that serves all.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from deckgen.deck.geometry import Box, CardGeometry
from deckgen.deck.pictures import Fit, PictureStore, PictureUse
from deckgen.deck.spec import LoadedDeck, ResolvedPicture
from deckgen.units import pt_to_mm

if TYPE_CHECKING:
    from deckgen.deck.cards import CardRef

COVER_SPLIT = 0.40
"""The cover picture fills the card above this fraction of its height."""


PORTRAIT_FOCUS = (0.5, 1 / 3)
"""Where a portrait photo without a focus is cropped around: its upper third (heads)."""


@lru_cache(maxsize=256)
def _is_portrait(path: Path) -> bool:
    """Whether the picture file is taller than wide (as shown, EXIF rotation applied).

    Read from the header only (:func:`deckgen.deck.picturefile.picture_header`).
    """
    from deckgen.deck.picturefile import picture_header
    from deckgen.errors import DeckgenError

    try:
        width, height = picture_header(path, where=str(path)).upright_size
    except DeckgenError:
        return False  # the picture loader reports unreadable or hostile files
    return height > width * 1.05


def default_focus(pic: ResolvedPicture) -> tuple[float, float]:
    """The focus to crop around: the deck file's, else the upper third of a portrait."""
    if pic.focus_given or not _is_portrait(pic.path):
        return pic.focus
    return PORTRAIT_FOCUS


def use_for(box: Box, fit: Fit, pic: ResolvedPicture) -> PictureUse:
    """The picture use for ``pic`` drawn into ``box``."""
    return PictureUse(pt_to_mm(box.w), pt_to_mm(box.h), fit, default_focus(pic))


def value_picture_box(half: Box) -> Box:
    """Where a value picture sits inside a tile half."""
    return half.inset(half.w * 0.055)


def cover_split(g: CardGeometry) -> float:
    return g.trim.y + g.trim.h * COVER_SPLIT


def cover_art_box(g: CardGeometry) -> Box:
    split = cover_split(g)
    return Box(g.page.x, split, g.page.w, g.page.y + g.page.h - split)


def logo_box(g: CardGeometry, logo_width: float) -> Box:
    width = g.safe.w * logo_width
    return Box(g.trim.cx - width / 2, g.trim.cy - width / 2, width, width)


IMPRINT_PICTURE_SHARE = 0.28
"""The imprint picture takes the top of the safe area, this share of its height."""
IMPRINT_PICTURE_GAP_PT = 4.0
"""Space between the imprint picture and the text below it."""


def imprint_picture_box(g: CardGeometry) -> Box:
    """Where the imprint picture sits (contain fit): the top of the safe area."""
    height = g.safe.h * IMPRINT_PICTURE_SHARE
    return Box(g.safe.x, g.safe.y + g.safe.h - height, g.safe.w, height)


def register_picture_needs(
    deck: LoadedDeck,
    g: CardGeometry,
    store: PictureStore,
    *,
    cards: Sequence[CardRef],
    back: bool,
) -> None:
    """Tell ``store`` every picture the chosen cards (or the back) will draw."""

    def need(pic: ResolvedPicture | None, box: Box, fit: Fit) -> None:
        if pic is not None:
            store.need(pic.path, use_for(box, fit, pic), where=f"{deck.path}, key {pic.key}")

    if back:
        need(deck.back_picture, g.page, "cover")
        need(deck.logo, logo_box(g, deck.spec.back.logo_width), "contain")
        return
    fit: Fit = deck.spec.faces.fit
    for card in cards:
        if card.kind == "cover":
            need(deck.cover_picture, cover_art_box(g), "cover")
        elif card.kind == "imprint":
            need(deck.imprint_picture, imprint_picture_box(g), "contain")
        elif card.kind == "tile" and card.tile is not None:
            need(deck.card_picture, g.page, "cover")
            if deck.uses_pictures:
                for value in card.tile.values:
                    if value > 0:
                        need(deck.value_pictures[value - 1], value_picture_box(g.halves[0]), fit)
