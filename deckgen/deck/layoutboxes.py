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
    from deckgen.deck.faces import FocusRegion

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
    """The focus to crop around: the deck file's; else the centre of the faces the
    photo shows, or of its salient part (:mod:`deckgen.deck.faces`); else the upper
    third of a portrait, or the centre."""
    if pic.focus_given:
        return pic.focus
    region = focus_region(pic)
    if region is not None:
        return region.centre
    if _is_portrait(pic.path):
        return PORTRAIT_FOCUS
    return pic.focus


def focus_region(pic: ResolvedPicture) -> FocusRegion | None:
    """What ``pic`` is about (faces, else the salient part; cached by file content),
    or None when the deck file names a focus point or the picture is flat: then the
    point itself is all that is known."""
    if pic.focus_given:
        return None
    from deckgen.deck.faces import focus_region_of_file

    return focus_region_of_file(pic.path)


def focus_box_in_picture(
    region: tuple[float, float, float, float],
    picture_aspect: float,
    use: PictureUse,
) -> tuple[float, float, float, float]:
    """Where ``region`` (left, top, right, bottom in 0..1 of a picture whose width /
    height is ``picture_aspect``) appears in ``use``'s box, in 0..1 of that box
    (top-left origin), after the ``cover`` crop or the ``contain`` fit. Parts outside
    the box are clipped away (an empty box when nothing of it shows).

    >>> focus_box_in_picture((0.0, 0.0, 0.25, 0.5), 2.0, PictureUse(10, 10, "cover", (0, 0)))
    (0.0, 0.0, 0.5, 0.5)
    """
    from deckgen.deck.pictures import cover_crop

    left, top, right, bottom = region
    box_ratio = use.width_mm / use.height_mm
    if use.fit == "cover":
        cl, ct, cw, ch = cover_crop((picture_aspect, 1.0), box_ratio, use.focus)
        xs = [(v * picture_aspect - cl) / cw for v in (left, right)]
        ys = [(v - ct) / ch for v in (top, bottom)]
    else:
        if picture_aspect >= box_ratio:
            drawn_w, drawn_h = 1.0, box_ratio / picture_aspect
        else:
            drawn_w, drawn_h = picture_aspect / box_ratio, 1.0
        x0, y0 = (1 - drawn_w) / 2, (1 - drawn_h) / 2
        xs = [x0 + v * drawn_w for v in (left, right)]
        ys = [y0 + v * drawn_h for v in (top, bottom)]

    def clip(v: float) -> float:
        return min(1.0, max(0.0, v))

    return (clip(xs[0]), clip(ys[0]), clip(xs[1]), clip(ys[1]))


def focus_box_on_card(pic: ResolvedPicture, use: PictureUse) -> tuple[float, float, float, float]:
    """What ``pic`` is about, in 0..1 of ``use``'s box (top-left origin): the found faces
    or salient part, or the deck file's focus point (a box of no size)."""
    from deckgen.deck.faces import picture_aspect

    region = focus_region(pic)
    if region is None:
        fx, fy = use.focus
        return focus_box_in_picture((fx, fy, fx, fy), picture_aspect(pic.path), use)
    return focus_box_in_picture(region.box, region.aspect, use)


def use_for(box: Box, fit: Fit, pic: ResolvedPicture) -> PictureUse:
    """The picture use for ``pic`` drawn into ``box`` (a ``contain`` fit shows the whole
    picture: its focus does not matter, and no face is looked for)."""
    focus = default_focus(pic) if fit == "cover" else pic.focus
    return PictureUse(pt_to_mm(box.w), pt_to_mm(box.h), fit, focus)


def value_picture_box(half: Box) -> Box:
    """Where a value picture sits inside a tile half."""
    return half.inset(half.w * 0.055)


def cover_split(g: CardGeometry) -> float:
    return g.trim.y + g.trim.h * COVER_SPLIT


def cover_art_box(g: CardGeometry, fit: Fit = "cover") -> Box:
    """The cover picture's box: above the split, out to the bleed for a ``cover`` fit;
    inside the safe area for ``contain`` (a logo is never cut by the trim)."""
    split = cover_split(g)
    if fit == "contain":
        gap = g.trim.h * 0.02
        top = g.safe.y + g.safe.h
        return Box(g.safe.x, split + gap, g.safe.w, top - split - gap)
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
            need(deck.cover_picture, cover_art_box(g, deck.cover_fit), deck.cover_fit)
        elif card.kind == "imprint":
            need(deck.imprint_picture, imprint_picture_box(g), deck.spec.imprint.fit)
        elif card.kind == "tile" and card.tile is not None:
            need(deck.card_picture, g.page, "cover")
            for value in card.tile.values:
                need(deck.picture_for(value), value_picture_box(g.halves[0]), fit)
