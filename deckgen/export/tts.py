"""Tabletop Simulator export: face sheets, a back, and the saved-object JSON.

A ``deck build`` output step (``deck build --tts``, or ``tts`` among a batch's
outputs) that writes ``tts/`` into the deck's folder:

- ``faces-1.jpg``, ``faces-2.jpg`` ...: the fronts in deck order (cover, tiles, imprint),
  at most :data:`MAX_COLUMNS` x :data:`MAX_ROWS` cards per sheet, each sheet at most
  :data:`MAX_SHEET_PX` pixels on either side; RGB JPEGs (Tabletop Simulator refuses CMYK).
- ``back.jpg``: the one back all cards share.
- ``<deck>.json``: a saved object holding one ``DeckCustom`` with a ``CustomDeck`` entry
  per sheet; card ``CardID = sheet * 100 + index on the sheet`` and its nickname is the
  tile (``3|5``) or ``cover``/``imprint``.
- ``README.txt``: how to load it and how to upload the pictures to the cloud.

The JSON names the pictures by ``file:///`` URLs of the deck's final folder; Tabletop
Simulator's Cloud Manager uploads them and rewrites the URLs (see the README).
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen import atomic
from deckgen.export.cardimages import card_height_px, card_images

if TYPE_CHECKING:
    from PIL import Image as PILImage

    from deckgen.deck.build import BuildContext
    from deckgen.deck.cards import CardRef
    from deckgen.deck.manifest import OutputFile
    from deckgen.deck.spec import LoadedDeck

TTS_DIR = "tts"
MAX_COLUMNS = 10
MAX_ROWS = 7
MAX_CARDS_PER_SHEET = MAX_COLUMNS * MAX_ROWS - 1
"""69: Tabletop Simulator shows the 70th slot of a full 10 x 7 sheet for hidden cards."""
MAX_SHEET_PX = 4096
JPEG_QUALITY = 90
FINAL_DIR_OPTION = "tts_dir"
"""``options[FINAL_DIR_OPTION]``: the folder the deck ends up in, if not ``ctx.out_dir``."""


@dataclass(frozen=True)
class SheetLayout:
    """One face sheet: which cards (deck indices), its grid and its card size in pixels."""

    number: int
    cards: list[int]
    columns: int
    rows: int
    card_w_px: int
    card_h_px: int

    @property
    def size_px(self) -> tuple[int, int]:
        return self.columns * self.card_w_px, self.rows * self.card_h_px

    def slot(self, position: int) -> tuple[int, int, int, int]:
        """The pixel box (left, top, right, bottom) of the ``position``-th card on the sheet."""
        col, row = position % self.columns, position // self.columns
        x, y = col * self.card_w_px, row * self.card_h_px
        return x, y, x + self.card_w_px, y + self.card_h_px


def card_width_px(deck: LoadedDeck) -> int:
    """The widest card that fits a full 10 x 7 sheet within the pixel limit."""
    by_width = MAX_SHEET_PX // MAX_COLUMNS
    by_height = math.floor(MAX_SHEET_PX / MAX_ROWS * deck.width_mm / deck.height_mm)
    width = min(by_width, by_height)
    while card_height_px(deck, width) * MAX_ROWS > MAX_SHEET_PX:
        width -= 1
    return width


def plan_sheets(deck: LoadedDeck, count: int) -> list[SheetLayout]:
    """The face sheets for ``count`` cards in deck order."""
    width = card_width_px(deck)
    height = card_height_px(deck, width)
    sheets = []
    for number, start in enumerate(range(0, count, MAX_CARDS_PER_SHEET), start=1):
        cards = list(range(start, min(count, start + MAX_CARDS_PER_SHEET)))
        columns = min(MAX_COLUMNS, len(cards))
        rows = math.ceil(len(cards) / columns)
        sheets.append(SheetLayout(number, cards, columns, rows, width, height))
    return sheets


def nickname(card: CardRef) -> str:
    """``3|5`` for a tile, ``cover`` or ``imprint`` for the others."""
    if card.tile is None:
        return card.kind
    return f"{card.tile.low}|{card.tile.high}"


def _jpeg(im: PILImage.Image) -> bytes:
    """JPEG bytes that say their colours are sRGB (the profile of every deckgen PNG)."""
    from deckgen.prepress.iccprofile import srgb_profile

    buffer = io.BytesIO()
    im.convert("RGB").save(
        buffer, "JPEG", quality=JPEG_QUALITY, optimize=True, icc_profile=srgb_profile()
    )
    return buffer.getvalue()


def _transform(y: float = 1.0) -> dict[str, float]:
    return {
        "posX": 0.0,
        "posY": y,
        "posZ": 0.0,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0,
        "scaleX": 1.0,
        "scaleY": 1.0,
        "scaleZ": 1.0,
    }


def saved_object(
    deck: LoadedDeck,
    cards: Sequence[CardRef],
    sheets: Sequence[SheetLayout],
    urls: dict[str, str],
) -> dict[str, Any]:
    """The saved-object JSON: one DeckCustom holding every card, face down."""
    custom: dict[str, Any] = {}
    contained: list[dict[str, Any]] = []
    ids: list[int] = []
    for sheet in sheets:
        entry = {
            "FaceURL": urls[f"faces-{sheet.number}"],
            "BackURL": urls["back"],
            "NumWidth": sheet.columns,
            "NumHeight": sheet.rows,
            "BackIsHidden": True,
            "UniqueBack": False,
            "Type": 0,
        }
        custom[str(sheet.number)] = entry
        for position, index in enumerate(sheet.cards):
            card_id = sheet.number * 100 + position
            ids.append(card_id)
            contained.append(
                {
                    "Name": "Card",
                    "Nickname": nickname(cards[index]),
                    "Description": "",
                    "CardID": card_id,
                    "Transform": _transform(),
                    "CustomDeck": {str(sheet.number): entry},
                    "SidewaysCard": False,
                    "HideWhenFaceDown": True,
                }
            )
    deck_state = {
        "Name": "DeckCustom",
        "Nickname": deck.spec.name,
        "Description": f"{deck.dset.name}, {len(cards)} cards, made with deckgen",
        "Transform": _transform(),
        "ColorDiffuse": {"r": 0.713, "g": 0.713, "b": 0.713},
        "Locked": False,
        "Grid": True,
        "Snap": True,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        "SidewaysCard": False,
        "HideWhenFaceDown": True,
        "DeckIDs": ids,
        "CustomDeck": custom,
        "ContainedObjects": contained,
    }
    return {
        "SaveName": deck.spec.name,
        "GameMode": "",
        "Date": "",
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "ObjectStates": [deck_state],
        "TabStates": {},
        "VersionNumber": "",
    }


README = """\
Tabletop Simulator export of "{name}" ({count} cards), made by deckgen.

Files
  {faces}
      the card fronts in deck order, {grid}
  back.jpg      the back every card shares
  {json_name}
      a saved object: the whole deck as one pile, face down

Load it
  1. Copy {json_name} into Tabletop Simulator's "Saved Objects" folder:
     Windows: Documents\\My Games\\Tabletop Simulator\\Saves\\Saved Objects\\
     macOS/Linux: ~/Library/Tabletop Simulator/Saves/Saved Objects/ or
     ~/.local/share/Tabletop Simulator/Saves/Saved Objects/
  2. In a game: Objects > Saved Objects > "{name}".
  The JSON points at the pictures in this folder (file:/// addresses), which works
  on this computer only. Keep the folder where it is, or edit the addresses.

Play online with others: upload the pictures
  Everyone at the table must be able to download the pictures, so put them in the
  cloud before you invite players: Modding > Cloud Manager > "Upload all loaded
  files" (with the deck on the table) uploads the JPEGs to your Steam Cloud and
  replaces the file:/// addresses. Then save the deck again (right-click > Save
  Object). Any other image host works too: upload the JPEGs and put their web
  addresses into FaceURL and BackURL of the JSON.

Tabletop Playground imports Tabletop Simulator saved objects as they are.
"""


def write_tts(
    deck: LoadedDeck,
    cards: Sequence[CardRef],
    fronts_pdf: bytes,
    back_pdf: bytes,
    *,
    folder: Path,
    final_folder: Path,
) -> list[tuple[str, bytes]]:
    """Write ``tts/`` into ``folder``; the files (path relative to ``folder``, bytes)."""
    from deckgen.deck.spec import slugify

    sheets = plan_sheets(deck, len(cards))
    width = sheets[0].card_w_px
    fronts = card_images(deck, fronts_pdf, width)
    (back,) = card_images(deck, back_pdf, width, pages=[0])
    written: list[tuple[str, bytes]] = []
    urls: dict[str, str] = {}
    from PIL import Image

    for sheet in sheets:
        canvas = Image.new("RGB", sheet.size_px, (0, 0, 0))
        for position, index in enumerate(sheet.cards):
            canvas.paste(fronts[index], sheet.slot(position)[:2])
        name = f"faces-{sheet.number}.jpg"
        written.append((f"{TTS_DIR}/{name}", _jpeg(canvas)))
        urls[f"faces-{sheet.number}"] = (final_folder / TTS_DIR / name).absolute().as_uri()
    written.append((f"{TTS_DIR}/back.jpg", _jpeg(back)))
    urls["back"] = (final_folder / TTS_DIR / "back.jpg").absolute().as_uri()
    json_name = f"{slugify(deck.spec.name)}.json"
    data = json.dumps(saved_object(deck, cards, sheets, urls), indent=2, ensure_ascii=False)
    written.append((f"{TTS_DIR}/{json_name}", (data + "\n").encode("utf-8")))
    grid = "; ".join(
        f"faces-{s.number}.jpg: {len(s.cards)} cards, {s.columns} x {s.rows}" for s in sheets
    )
    readme = README.format(
        name=deck.spec.name,
        count=len(cards),
        faces=", ".join(f"faces-{s.number}.jpg" for s in sheets),
        grid=grid,
        json_name=json_name,
    )
    written.append((f"{TTS_DIR}/README.txt", readme.encode("utf-8")))
    for rel, data_bytes in written:
        atomic.write_bytes(folder / rel, data_bytes)
    return written


def tts_step(ctx: BuildContext) -> list[OutputFile]:
    """``deck build`` output step: the ``tts/`` folder, listed in the manifest."""
    from deckgen.deck.manifest import OutputFile

    final = ctx.options.get(FINAL_DIR_OPTION) or ctx.out_dir
    ctx.reporter.start("Tabletop Simulator export", None)
    written = write_tts(
        ctx.deck,
        ctx.cards,
        ctx.file("cards").data or b"",
        ctx.file("back").data or b"",
        folder=ctx.stage,
        final_folder=Path(final),
    )
    ctx.reporter.finish()
    return [OutputFile(rel, "tts", None, data) for rel, data in written]
