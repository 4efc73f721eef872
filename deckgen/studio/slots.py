"""The picture slots of a deck and where each picture lands on its card.

A slot is one place a user can put a picture: ``value-1`` ... ``value-N`` (the
pictures on the tile halves, ``faces.pictures``), ``cover`` (``cover.picture``),
``logo`` (``back.logo``), ``back`` (``back.picture``) and ``imprint``
(``imprint.picture``). Slot names come from the browser; :func:`parse_slot` accepts
only these. :func:`slot_frame` gives the card page, the cut line, the safe zone and
the picture's box in mm (origin top left), drawn over the picture in the crop editor,
from the very boxes the deck code draws into; :func:`picture_quality` says whether a
picture is sharp enough at 300 ppi and which size it would need.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from deckgen.deck.face import BADGE_PAD, BADGE_SIDE, Corner
from deckgen.deck.face import badge_corner as card_badge_corner
from deckgen.deck.geometry import Box, CardGeometry, card_geometry
from deckgen.deck.layoutboxes import (
    cover_art_box,
    imprint_picture_box,
    logo_box,
    value_picture_box,
)
from deckgen.deck.pictures import TARGET_DPI
from deckgen.deck.spec import LoadedDeck
from deckgen.units import MM_PER_INCH, MM_PER_PT, mm_to_px

SlotName = str
Fit = Literal["cover", "contain"]
_VALUE = re.compile(r"^value-(\d{1,2})$")
FIXED_SLOTS: dict[str, tuple[str, str]] = {
    "cover": ("cover", "picture"),
    "logo": ("back", "logo"),
    "back": ("back", "picture"),
    "imprint": ("imprint", "picture"),
}


class UnknownSlot(LookupError):
    """A slot name that the deck does not have (the browser asked for nonsense)."""


@dataclass(frozen=True)
class Slot:
    """One picture slot: its name, its table and key in the deck file, its card."""

    name: SlotName
    table: str
    key: str
    value: int | None = None

    @property
    def dotted(self) -> str:
        if self.value is not None:
            return f"faces.pictures[{self.value - 1}]"
        return f"{self.table}.{self.key}"


def parse_slot(name: str, max_pip: int) -> Slot:
    """The slot called ``name`` in a deck whose highest value is ``max_pip``."""
    if name in FIXED_SLOTS:
        table, key = FIXED_SLOTS[name]
        return Slot(name, table, key)
    match = _VALUE.match(name)
    if match and 1 <= int(match.group(1)) <= max_pip:
        return Slot(name, "faces", "pictures", int(match.group(1)))
    raise UnknownSlot(name)


def all_slots(max_pip: int) -> list[Slot]:
    return [parse_slot(f"value-{v}", max_pip) for v in range(1, max_pip + 1)] + [
        parse_slot(n, max_pip) for n in FIXED_SLOTS
    ]


def slot_fit(slot: Slot, deck: LoadedDeck) -> Fit:
    if slot.value is not None:
        return deck.spec.faces.fit
    return "contain" if slot.name in ("logo", "imprint") else "cover"


def _box(g: CardGeometry, slot: Slot, deck: LoadedDeck) -> Box:
    if slot.value is not None:
        return value_picture_box(g.halves[0])
    if slot.name == "cover":
        return cover_art_box(g)
    if slot.name == "logo":
        return logo_box(g, deck.spec.back.logo_width)
    if slot.name == "imprint":
        return imprint_picture_box(g)
    return g.page


def _mm(box: Box, g: CardGeometry) -> list[float]:
    """[left, top, width, height] in mm with the origin at the page's top left."""
    top = g.page.h - (box.y + box.h)
    return [round(v * MM_PER_PT, 3) for v in (box.x, top, box.w, box.h)]


def slot_frame(slot: Slot, deck: LoadedDeck) -> dict[str, Any]:
    """The card page, cut line, safe zone and picture box of ``slot`` in mm."""
    g = card_geometry(deck)
    return {
        "page": _mm(g.page, g),
        "trim": _mm(g.trim, g),
        "safe": _mm(g.safe, g),
        "box": _mm(_box(g, slot, deck), g),
        "radius": round(g.radius * MM_PER_PT, 3),
        "fit": slot_fit(slot, deck),
    }


def picture_quality(
    size_px: tuple[int, int], box_mm: tuple[float, float], fit: Fit, zoom: float = 1.0
) -> dict[str, Any]:
    """The picture's print resolution in its box, and the size a sharp print needs.

    ``cover``: the largest box-shaped part of the picture, divided by ``zoom``, fills
    the box. ``contain``: the whole picture fits inside the box.
    """
    width, height = size_px
    box_w, box_h = box_mm
    if fit == "cover":
        ratio = box_w / box_h
        crop_w = min(float(width), height * ratio) / zoom
        ppi = crop_w / (box_w / MM_PER_INCH)
        need = (
            round(mm_to_px(box_w, TARGET_DPI) * zoom),
            round(mm_to_px(box_h, TARGET_DPI) * zoom),
        )
        if width / height > ratio:
            need = (round(need[1] * width / height), need[1])
        else:
            need = (need[0], round(need[0] * height / width))
    else:
        scale = min(box_w / width, box_h / height)
        ppi = width / (width * scale / MM_PER_INCH)
        factor = TARGET_DPI / ppi
        need = (round(width * factor), round(height * factor))
    return {"ppi": round(ppi), "sharp": ppi >= TARGET_DPI - 0.5, "need_px": list(need)}


def badge_corner(
    region: tuple[float, float, float, float], box_w: float = 1.0, box_h: float = 1.0
) -> Corner:
    """The corner of a card picture (``box_w`` x ``box_h``) where the card puts the pip
    badge, for a focus ``region`` (left, top, right, bottom in 0..1 of the picture as the
    card shows it; a focus point is a region of no size): the deck's own rule,
    :func:`deckgen.deck.face.badge_corner` (the corner farthest from the subject). The
    crop editor asks here, so it draws the badge where the card will.

    >>> badge_corner((0.5, 0.5, 0.5, 0.5))
    'top-left'
    >>> badge_corner((0.1, 0.1, 0.3, 0.4))
    'bottom-right'
    >>> badge_corner((0.6, 0.7, 0.9, 0.9))
    'top-left'
    """
    return card_badge_corner(region, box_w, box_h)


def shown_focus(
    size_px: tuple[int, int], box_ratio: float, zoom: float, focus: tuple[float, float]
) -> tuple[float, float]:
    """Where ``focus`` (0..1 of the picture) lands in the part of it the card shows.

    The same cut as the crop editor and :func:`deckgen.studio.uploads.crop_picture`: the
    largest box-shaped part, divided by ``zoom``, centred on the focus and kept inside.
    """
    width, height = size_px
    crop_w = min(float(width), height * box_ratio) / zoom
    crop_h = crop_w / box_ratio
    left = min(max(focus[0] * width - crop_w / 2, 0.0), width - crop_w)
    top = min(max(focus[1] * height - crop_h / 2, 0.0), height - crop_h)
    x = (focus[0] * width - left) / crop_w
    y = (focus[1] * height - top) / crop_h
    return (round(min(max(x, 0.0), 1.0), 4), round(min(max(y, 0.0), 1.0), 4))


def badge_drawing(value: int, colour: tuple[int, int, int], face: str) -> dict[str, Any]:
    """The pip badge of ``value`` for the crop editor: its size and gap as shares of the
    picture box's width, and its pips as [x, y, r] shares of the badge's side (y down),
    laid out by the deck's own pip layout at the size the card draws them."""
    from deckgen.deck.pips import SPREAD, layout

    pl = layout(value)
    spread = 1.08 * SPREAD  # draw_badge draws the pips of a half 1.08 badge sides wide
    return {
        "side": BADGE_SIDE,
        "pad": BADGE_PAD,
        "colour": "#{:02x}{:02x}{:02x}".format(*colour),
        "face": face,
        "pips": [
            [round(0.5 + x * spread, 4), round(0.5 - y * spread, 4), round(pl.radius * spread, 4)]
            for x, y in pl.points
        ],
    }
