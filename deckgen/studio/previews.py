"""Card previews: one PNG per card, drawn by the deck code, cached by what each card shows.

Every card has a key: a hash of exactly the deck data it depends on (and the size and
time of each picture file it shows). A tile depends on the card, the faces and its two
values' pictures; the cover on the cover table, the name and the faces; the imprint on
the imprint table and the name; the back on the back table. A change re-renders only
the cards whose key changed: a new title redraws the cover, not the deck.

Missing cards are drawn together (one PDF through :func:`deckgen.deck.render.render_pdf`,
one picture store, so each picture is decoded once), rasterised with pypdfium2 and cut
to the card, exactly as ``deck preview`` does.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections import OrderedDict
from typing import Any

from deckgen.deck.geometry import card_geometry
from deckgen.deck.layoutboxes import register_picture_needs
from deckgen.deck.pictures import PictureStore
from deckgen.deck.render import rasterize_pages, render_pdf, select_cards, trim_image
from deckgen.deck.spec import DEMO_PREFIX
from deckgen.progress import CollectingReporter
from deckgen.studio.project import StudioProject, ref_file

PREVIEW_DPI = 150
PICTURE_DPI = 150
"""Pictures are prepared for the preview at this resolution (the print uses 300)."""
MAX_CACHED = 400
BACK = "back"


def card_ids(max_pip: int) -> list[str]:
    """Every card of a double-``max_pip`` deck in deck order, then the back."""
    tiles = [f"{a}-{b}" for a in range(max_pip + 1) for b in range(a, max_pip + 1)]
    return ["cover", *tiles, "imprint", BACK]


def _stamp(project: StudioProject, ref: Any) -> Any:
    """A picture reference plus its file's size and time (a re-upload changes it)."""
    file = ref_file(ref)
    if file is None:
        return None
    if file.startswith(DEMO_PREFIX):
        return ref
    try:
        path = project.path(file)
        stat = path.stat()
    except (ValueError, OSError):
        return [ref, None]
    return [ref, stat.st_size, stat.st_mtime_ns]


def card_key(project: StudioProject, card: str) -> str:
    """The cache key of ``card`` (``cover``, ``imprint``, ``back`` or a tile ``a-b``)."""
    data = project.data
    faces = {k: v for k, v in (data.get("faces") or {}).items() if k != "pictures"}
    card_table = dict(data.get("card") or {})
    background = _stamp(project, card_table.pop("background_picture", None))
    base: dict[str, Any] = {
        "set": data.get("set"),
        "language": data.get("language"),
        "card": card_table,
        "fonts": data.get("fonts"),
        "rev": 1,
    }
    if card == "cover":
        cover = dict(data.get("cover") or {})
        parts = [base, data.get("name"), cover, _stamp(project, cover.get("picture")), faces]
    elif card == "imprint":
        imprint = dict(data.get("imprint") or {})
        parts = [base, data.get("name"), imprint, _stamp(project, imprint.get("picture"))]
    elif card == BACK:
        back = dict(data.get("back") or {})
        parts = [
            base,
            back,
            _stamp(project, back.get("logo")),
            _stamp(project, back.get("picture")),
        ]
    else:
        pictures = (data.get("faces") or {}).get("pictures") or []
        values = [int(v) for v in card.split("-")]
        shown = [
            _stamp(project, pictures[v - 1]) if 0 < v <= len(pictures) else None for v in values
        ]
        parts = [base, faces, background, card, shown]
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class PreviewCache:
    """Rendered card PNGs by key (least recently used dropped beyond MAX_CACHED)."""

    def __init__(self, *, dpi: int = PREVIEW_DPI) -> None:
        self.dpi = dpi
        self._png: OrderedDict[str, bytes] = OrderedDict()
        self.cards_drawn = 0
        """How many cards were drawn so far (the tests read it)."""
        self.notes: dict[str, list[str]] = {}
        """What the deck code warned about when it last drew each card (text cut short)."""

    def keys(self, project: StudioProject) -> dict[str, str]:
        return {card: card_key(project, card) for card in card_ids(project.max_pip)}

    def png(self, project: StudioProject, card: str) -> bytes:
        """The PNG of ``card``, drawing it (and every other stale card) when needed."""
        with project.lock:
            keys = self.keys(project)
            if card not in keys:
                raise KeyError(card)
            key = keys[card]
            found = self._png.get(key)
            if found is not None:
                self._png.move_to_end(key)
                return found
            missing = [c for c, k in keys.items() if k not in self._png]
            self._draw(project, missing, keys)
            return self._png[key]

    def _draw(self, project: StudioProject, cards: list[str], keys: dict[str, str]) -> None:
        from deckgen.product import with_short_rules

        deck = project.loaded()
        fronts = [c for c in cards if c != BACK]
        if "imprint" in fronts:
            deck = with_short_rules(deck)
        reporter = CollectingReporter()
        geometry = card_geometry(deck)
        store = PictureStore(dpi=PICTURE_DPI, reporter=None)
        refs = select_cards(deck, fronts) if fronts else []
        register_picture_needs(deck, geometry, store, cards=refs, back=False)
        register_picture_needs(deck, geometry, store, cards=[], back=BACK in cards)
        pages = []
        if refs:
            pdf = render_pdf(deck, refs, reporter=reporter, store=store)
            pages += rasterize_pages(pdf.data, dpi=self.dpi)
        if BACK in cards:
            pdf = render_pdf(deck, back=True, reporter=reporter, store=store)
            pages += rasterize_pages(pdf.data, dpi=self.dpi)
        drawn = [*fronts, *([BACK] if BACK in cards else [])]
        for card in drawn:
            self.notes.pop(card, None)
        for message in reporter.warnings:
            card = _card_named(message, drawn)
            self.notes.setdefault(card, []).append(message)
        for card, page in zip(drawn, pages, strict=True):
            buf = io.BytesIO()
            trim_image(page, deck, self.dpi).save(buf, format="PNG", compress_level=1)
            self._png[keys[card]] = buf.getvalue()
            self.cards_drawn += 1
        while len(self._png) > MAX_CACHED:
            self._png.popitem(last=False)


def _card_named(message: str, cards: list[str]) -> str:
    """The card a warning of the deck code is about (``deck`` when it names none)."""
    import re

    if "cover card" in message:
        return "cover"
    if "imprint card" in message:
        return "imprint"
    tile = re.search(r"\btile (\d+-\d+)", message)
    if tile and tile.group(1) in cards:
        return tile.group(1)
    return "deck"
