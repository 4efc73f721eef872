"""The one picture resolution rule: what a picture needs for the box it is placed in.

Takes a picture's pixel size and its use (the box in mm, cover or contain); gives its
effective resolution there and the pixel size it needs, computed once
(:func:`needed_px`, rounding up once), with the slot a customer sees
(:func:`slot_name`: "cover picture", "picture for 3", "imprint picture", "logo on the
back"). Every message about a picture's resolution (the build's preflight warnings,
a vendor preset's ``low-dpi`` rule, the drawing code's warning) is made here.

The threshold is one number: :data:`DEFAULT_MIN_PPI` without a preset, where a
picture below it is a warning; a preset's own minimum (``min_ppi``, else its ``dpi``),
where it breaks the vendor's rule. A picture with less than :data:`USELESS_SHARE` of
the pixels needed across (width or height) is an error even without a preset: it
would print as a few coloured blocks.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Protocol

from deckgen.units import MM_PER_INCH


class PictureUse(Protocol):
    """Where a picture goes (as :class:`deckgen.deck.pictures.PictureUse` says it)."""

    @property
    def width_mm(self) -> float: ...

    @property
    def height_mm(self) -> float: ...

    @property
    def fit(self) -> str: ...


DEFAULT_MIN_PPI = 300
"""Below this a picture prints soft: a warning without a vendor preset."""
USELESS_SHARE = 0.25
"""A picture with less than this share of the needed pixels across is an error."""


def needed_px(width_mm: float, height_mm: float, ppi: float) -> tuple[int, int]:
    """The pixels a picture placed at ``width_mm`` x ``height_mm`` needs at ``ppi``,
    rounded up once (a hair's breadth of float error is not a pixel more).

    >>> needed_px(25.4, 12.7, 300)
    (300, 150)
    >>> needed_px(30.0, 30.0, 300)
    (355, 355)
    """

    def px(mm: float) -> int:
        return max(1, math.ceil(mm / MM_PER_INCH * ppi - 1e-6))

    return (px(width_mm), px(height_mm))


def placed_mm(size_px: tuple[int, int], use: PictureUse) -> tuple[float, float]:
    """The size (mm) a picture of ``size_px`` takes on the card: the whole box for a
    ``cover`` fit, the fitted picture for ``contain``.

    >>> from deckgen.deck.pictures import PictureUse
    >>> placed_mm((200, 100), PictureUse(40.0, 40.0, "contain"))
    (40.0, 20.0)
    """
    width, height = size_px
    if use.fit == "cover" or width <= 0 or height <= 0:
        return (use.width_mm, use.height_mm)
    scale = min(use.width_mm / width, use.height_mm / height)
    return (width * scale, height * scale)


def effective_ppi(size_px: tuple[int, int], use: PictureUse) -> float:
    """The resolution a picture of ``size_px`` prints at in ``use``'s box.

    >>> from deckgen.deck.pictures import PictureUse
    >>> round(effective_ppi((600, 600), PictureUse(25.4, 25.4, "cover")))
    600
    >>> round(effective_ppi((600, 300), PictureUse(25.4, 25.4, "cover")))
    300
    >>> round(effective_ppi((600, 300), PictureUse(25.4, 25.4, "contain")))
    600
    """
    width, height = size_px
    placed_w, placed_h = placed_mm(size_px, use)
    if placed_w <= 0 or placed_h <= 0:
        return math.inf
    return min(width / (placed_w / MM_PER_INCH), height / (placed_h / MM_PER_INCH))


SLOTS: dict[str, tuple[str, str]] = {
    "cover.picture": ("cover picture", "Titelbild"),
    "imprint.picture": ("imprint picture", "Bild im Impressum"),
    "back.logo": ("logo on the back", "Logo auf der Rückseite"),
    "back.picture": ("picture on the back", "Bild auf der Rückseite"),
    "card.background_picture": ("card background picture", "Kartenhintergrund"),
    "faces.zero_picture": ("picture for 0", "Bild für 0"),
}
"""The slot a customer sees for each picture key (English, German)."""


def slot_name(key: str, language: str = "en") -> str:
    """The slot of the picture key ``key`` as a customer sees it.

    >>> slot_name("faces.pictures[2]")
    'picture for 3'
    >>> slot_name("faces.pictures[0]", "de")
    'Bild für 1'
    >>> slot_name("back.logo")
    'logo on the back'
    """
    index = 0 if language == "en" else 1
    found = re.fullmatch(r"faces\.pictures\[(\d+)\]", key)
    if found:
        value = int(found.group(1)) + 1
        return f"picture for {value}" if index == 0 else f"Bild für {value}"
    if key in SLOTS:
        return SLOTS[key][index]
    return key


@dataclass
class SlotResolution:
    """One picture in one slot: its real size and the lowest resolution it prints at
    on any card of that slot, with the pixels it needs at ``min_ppi``."""

    file: str
    slot: str
    where: str
    width_px: int
    height_px: int
    dpi: float
    min_ppi: int
    need_width_px: int
    need_height_px: int
    cards: list[str] = field(default_factory=list)

    @property
    def too_low(self) -> bool:
        """Fewer pixels than needed (a warning, or a broken rule with a preset)."""
        return self.width_px < self.need_width_px or self.height_px < self.need_height_px

    @property
    def useless(self) -> bool:
        """So small that it is an error even without a preset."""
        return (
            self.width_px < self.need_width_px * USELESS_SHARE
            or self.height_px < self.need_height_px * USELESS_SHARE
        )

    def message(self) -> str:
        """What is wrong and what to use instead, naming the file and its slot."""
        what = "is far too small to print" if self.useless else "prints soft"
        return (
            f"{self.file} ({self.slot}) is {self.width_px} x {self.height_px} px and {what} "
            f"at {self.dpi:.0f} dpi, below {self.min_ppi} dpi: use a picture of at least "
            f"{self.need_width_px} x {self.need_height_px} px"
        )


def judge(
    file: str,
    key: str,
    where: str,
    size_px: tuple[int, int],
    use: PictureUse,
    min_ppi: int,
) -> SlotResolution:
    """The resolution of a picture of ``size_px`` in ``use``'s box against ``min_ppi``."""
    need_w, need_h = needed_px(*placed_mm(size_px, use), min_ppi)
    return SlotResolution(
        file=file,
        slot=slot_name(key),
        where=where,
        width_px=size_px[0],
        height_px=size_px[1],
        dpi=round(effective_ppi(size_px, use), 1),
        min_ppi=min_ppi,
        need_width_px=need_w,
        need_height_px=need_h,
    )
