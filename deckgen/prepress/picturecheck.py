"""Picture resolution per picture file: one finding per picture, naming what to use instead.

Takes a loaded deck; asks the deck's own layout (:func:`deckgen.deck.layoutboxes.
register_picture_needs`) where each picture file is drawn and how large, reads each
file's real pixel size (header only) and gives one :class:`PictureCheck` per file: its
lowest effective resolution on any card, the cards that show it and the pixel size it
needs for the vendor's dpi. The PDF preflight sees only the prepared (cropped,
resampled) images, per card; this names the file a user can replace.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from deckgen.deck.pictures import PictureStore, PictureUse
from deckgen.units import MM_PER_INCH

if TYPE_CHECKING:
    from deckgen.deck.cards import CardRef
    from deckgen.deck.spec import LoadedDeck
    from deckgen.prepress.preflight import Finding

DPI_TOLERANCE = 0.99


@dataclass
class PictureCheck:
    """One picture file: its real size and the worst resolution it prints at."""

    file: str
    where: str
    width_px: int
    height_px: int
    dpi: float
    need_width_px: int
    need_height_px: int
    cards: list[str] = field(default_factory=list)


class _Recorder(PictureStore):
    """A picture store that only records what would be drawn where."""

    def __init__(self) -> None:
        super().__init__()
        self.uses: list[tuple[Path, PictureUse, str]] = []

    def need(self, path: Path, use: PictureUse, *, where: str) -> None:
        self.uses.append((path, use, where))


def _real_size(path: Path, where: str = "picture") -> tuple[int, int]:
    """The picture's size as shown, from its header (no pixels decoded)."""
    from deckgen.deck.picturefile import picture_header

    return picture_header(path, where=where).upright_size


def effective_dpi(size_px: tuple[int, int], use: PictureUse) -> float:
    """The resolution a picture of ``size_px`` prints at in ``use``'s box.

    >>> round(effective_dpi((600, 600), PictureUse(25.4, 25.4, "cover")))
    600
    >>> round(effective_dpi((600, 300), PictureUse(25.4, 25.4, "cover")))
    300
    """
    width, height = size_px
    box_w, box_h = use.width_mm / MM_PER_INCH, use.height_mm / MM_PER_INCH
    if use.fit == "cover":
        return min(width / box_w, height / box_h) if box_w and box_h else math.inf
    return max(width / box_w, height / box_h) if box_w and box_h else math.inf


def check_pictures(deck: LoadedDeck, cards: list[CardRef], *, dpi: int) -> list[PictureCheck]:
    """Every picture file the deck draws, with its worst resolution (lowest first)."""
    from deckgen.deck.geometry import card_geometry
    from deckgen.deck.layoutboxes import register_picture_needs

    geometry = card_geometry(deck)
    found: dict[Path, PictureCheck] = {}
    sizes: dict[Path, tuple[int, int]] = {}
    labelled = [(card.label, [card], False) for card in cards] + [("the back", [], True)]
    for label, chosen, back in labelled:
        recorder = _Recorder()
        register_picture_needs(deck, geometry, recorder, cards=chosen, back=back)
        for path, use, where in recorder.uses:
            if path not in sizes:
                sizes[path] = _real_size(path, where)
            size = sizes[path]
            value = effective_dpi(size, use)
            factor = dpi / value if value > 0 else 1.0
            entry = found.get(path)
            if entry is None or value < entry.dpi:
                cards_so_far = entry.cards if entry is not None else []
                entry = PictureCheck(
                    file=path.name,
                    where=where,
                    width_px=size[0],
                    height_px=size[1],
                    dpi=round(value, 1),
                    need_width_px=math.ceil(size[0] * factor),
                    need_height_px=math.ceil(size[1] * factor),
                    cards=cards_so_far,
                )
                found[path] = entry
            if label not in entry.cards:
                entry.cards.append(label)
    return sorted(found.values(), key=lambda c: (c.dpi, c.file))


def low_dpi_findings(checks: list[PictureCheck], *, dpi: int) -> list[Finding]:
    """One ``low-dpi`` finding per picture file below ``dpi``."""
    from deckgen.prepress.preflight import Finding

    out = []
    for check in checks:
        if check.dpi >= dpi * DPI_TOLERANCE:
            continue
        shown = ", ".join(check.cards[:4]) + (
            f" and {len(check.cards) - 4} more" if len(check.cards) > 4 else ""
        )
        out.append(
            Finding(
                "low-dpi",
                shown,
                check.file,
                0,
                f"{check.file} ({check.where}) is {check.width_px} x {check.height_px} px "
                f"and prints at {check.dpi:.0f} dpi, below {dpi} dpi: use a picture of at "
                f"least {check.need_width_px} x {check.need_height_px} px",
                check.dpi,
            )
        )
    return out
