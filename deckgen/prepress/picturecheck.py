"""Picture resolution per picture slot: one finding per picture in a slot, naming what to use.

Takes a loaded deck; asks the deck's own layout (:func:`deckgen.deck.layoutboxes.
register_picture_needs`) where each picture is drawn and how large, reads each file's
real pixel size (header only) and gives one :class:`PictureCheck` per picture and slot
("cover picture", "picture for 3", ...): its lowest effective resolution on any card of
that slot, the cards that show it and the pixel size it needs. The numbers and the
message come from the one resolution rule, :mod:`deckgen.deck.resolution`; the
threshold is the caller's (the vendor preset's minimum, else
:data:`~deckgen.deck.resolution.DEFAULT_MIN_PPI`). The PDF preflight sees only the
prepared (cropped, resampled) images, per card; this names the file a user can replace.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from deckgen.deck.pictures import PictureStore, PictureUse
from deckgen.deck.resolution import (
    DEFAULT_MIN_PPI,
    SlotResolution,
    effective_ppi,
    judge,
)
from deckgen.errors import ResourceError

if TYPE_CHECKING:
    from deckgen.deck.cards import CardRef
    from deckgen.deck.spec import LoadedDeck
    from deckgen.prepress.preflight import Finding

__all__ = [
    "PictureCheck",
    "check_pictures",
    "effective_dpi",
    "low_dpi_findings",
    "require_usable",
]

PictureCheck = SlotResolution
"""One picture in one slot (:class:`deckgen.deck.resolution.SlotResolution`)."""
effective_dpi = effective_ppi


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


def check_pictures(
    deck: LoadedDeck, cards: list[CardRef], *, dpi: int = DEFAULT_MIN_PPI
) -> list[PictureCheck]:
    """Every picture in every slot the deck draws, with its worst resolution (lowest
    first) against the threshold ``dpi`` (the minimum resolution)."""
    from deckgen.deck.geometry import card_geometry
    from deckgen.deck.layoutboxes import register_picture_needs

    geometry = card_geometry(deck)
    found: dict[tuple[Path, str], PictureCheck] = {}
    sizes: dict[Path, tuple[int, int]] = {}
    labelled = [(card.label, [card], False) for card in cards] + [("the back", [], True)]
    for label, chosen, back in labelled:
        recorder = _Recorder()
        register_picture_needs(deck, geometry, recorder, cards=chosen, back=back)
        for path, use, where in recorder.uses:
            if path not in sizes:
                sizes[path] = _real_size(path, where)
            key = where.rsplit("key ", 1)[-1]
            verdict = judge(path.name, key, where, sizes[path], use, dpi)
            entry = found.get((path, key))
            if entry is None or verdict.dpi < entry.dpi:
                if entry is not None:
                    verdict.cards = entry.cards
                entry = verdict
                found[(path, key)] = entry
            if label not in entry.cards:
                entry.cards.append(label)
    return sorted(found.values(), key=lambda c: (c.dpi, c.file, c.slot))


def low_dpi_findings(checks: list[PictureCheck], *, dpi: int | None = None) -> list[Finding]:
    """One ``low-dpi`` finding per picture and slot with fewer pixels than it needs
    (the threshold each check was made with; ``dpi`` is kept for old callers)."""
    from deckgen.prepress.preflight import Finding

    out = []
    for check in checks:
        if not check.too_low:
            continue
        shown = ", ".join(check.cards[:4]) + (
            f" and {len(check.cards) - 4} more" if len(check.cards) > 4 else ""
        )
        out.append(Finding("low-dpi", shown, check.file, 0, check.message(), check.dpi))
    return out


def require_usable(checks: list[PictureCheck]) -> None:
    """Stop on a picture far too small to print, with or without a vendor preset."""
    useless = [c for c in checks if c.useless]
    if not useless:
        return
    first = useless[0]
    others = [f"the {c.slot} ({c.file}, {c.dpi:.0f} dpi)" for c in useless[1:4]]
    if len(useless) > 4:
        others.append(f"{len(useless) - 4} more")
    more = f"; also too small: {', '.join(others)}" if others else ""
    from deckgen.deck.picturefile import shown_to_customer

    raise shown_to_customer(
        ResourceError(
            first.message() + more,
            where=first.where,
            fix=f"replace the {first.slot} with a larger picture (the original photo, not a "
            "thumbnail or a picture saved from a web page)",
        )
    )
