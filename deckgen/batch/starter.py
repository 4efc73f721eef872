"""``deckgen batch new orders.csv``: a starter spreadsheet whose example rows build as they are.

Writes the spreadsheet (``.csv`` or ``.xlsx``), a ``pictures/`` folder beside it with
the example pictures its rows name (copies of deckgen's own demo art) and
``house-deck.toml``, a full deck file that one row builds on and overrides. Each row
shows another way to order: a branded pips deck, a photo deck with short rules on the
imprint, and a branch edition of the house deck.
"""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

from deckgen import atomic
from deckgen.errors import InputError

PICTURES = "pictures"
HOUSE_DECK = "house-deck.toml"
PHOTO_VALUES = 7

COLUMNS = [
    "order",
    "quantity",
    "deck",
    "name",
    "set",
    "faces.style",
    "faces.pictures",
    "back.logo",
    "back.background",
    "cover.title",
    "cover.subtitle",
    "cover.picture",
    "imprint.text",
    "imprint.rules",
]


def _photos() -> str:
    return ";".join(f"{PICTURES}/value-{v:02d}.png" for v in range(1, PHOTO_VALUES + 1))


ROWS: list[dict[str, str]] = [
    {
        "order": "acme-hamburg",
        "quantity": "50",
        "name": "ACME Domino",
        "set": "double-6",
        "faces.style": "pips",
        "back.logo": f"{PICTURES}/logo.png",
        "back.background": "#8b1e3f",
        "cover.title": "ACME Domino",
        "cover.subtitle": "Hamburg branch",
        "imprint.text": "**ACME Trading GmbH**\nHafenstrasse 1, 20459 Hamburg\n\n"
        "A gift for our customers, 2026.",
    },
    {
        "order": "family-photos",
        "quantity": "2",
        "name": "Our Family Domino",
        "set": "double-7",
        "faces.style": "pictures+pips",
        "faces.pictures": _photos(),
        "back.background": "#1d3557",
        "cover.title": "Our Family Domino",
        "cover.picture": f"{PICTURES}/cover.jpg",
        "imprint.text": "Made for the Miller family reunion, 2026.",
        "imprint.rules": "card-domino",
    },
    {
        "order": "acme-berlin",
        "quantity": "25",
        "deck": HOUSE_DECK,
        "back.background": "#0b6e4f",
        "cover.subtitle": "Berlin branch",
    },
]

HOUSE_DECK_TOML = f"""\
# The house deck that the row "acme-berlin" of the starter spreadsheet builds on:
# a row's columns override the keys of the deck file its `deck` column names.
# Paths here are relative to this file and must stay inside the spreadsheet's folder.
name = "ACME Domino"
set = "double-6"

[card]
size = "meinspiel"
background = "#f4efe6"

[faces]
style = "numerals"
pip_colours = "mono"
ink = "#8b1e3f"

[back]
background = "#8b1e3f"
logo = "{PICTURES}/logo.png"
pattern = "dots"

[cover]
title = "ACME Domino"
subtitle = "Head office"
background = "#8b1e3f"

[imprint]
text = "**ACME Trading GmbH**\\nHafenstrasse 1, 20459 Hamburg"
"""


def sheet_bytes(path: Path, rows: list[dict[str, str]]) -> bytes:
    """The spreadsheet as CSV (UTF-8, with a byte-order mark for Excel) or XLSX bytes."""
    if path.suffix.lower() == ".xlsx":
        from openpyxl import Workbook
        from openpyxl.styles import Alignment, Font

        book = Workbook()
        sheet = book.active
        assert sheet is not None
        sheet.title = "orders"
        sheet.append(COLUMNS)
        for row in rows:
            sheet.append([row.get(c, "") for c in COLUMNS])
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for i, name in enumerate(COLUMNS):
            letter = sheet.cell(row=1, column=i + 1).column_letter
            sheet.column_dimensions[letter].width = max(10, min(40, len(name) + 4))
        for row_cells in sheet.iter_rows(min_row=2):
            for cell in row_cells:
                cell.alignment = Alignment(wrap_text=True, vertical="top")
        buffer = io.BytesIO()
        book.save(buffer)
        return buffer.getvalue()
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([row.get(c, "") for c in COLUMNS])
    return ("\ufeff" + text.getvalue()).encode("utf-8")


def write_starter(sheet_file: str | Path, *, force: bool = False) -> list[Path]:
    """Write the starter spreadsheet, its pictures and the house deck; the paths written."""
    from deckgen.batch.sheet import SUFFIXES
    from deckgen.resources import images_dir

    path = Path(sheet_file)
    if path.suffix.lower() not in SUFFIXES:
        raise InputError(
            f"'{path.name}' is neither a .csv nor an .xlsx file",
            where="argument SPREADSHEET",
            fix="name it orders.csv or orders.xlsx",
        )
    folder = path.parent
    house = folder / HOUSE_DECK
    if not force:
        for existing in (path, house):
            if existing.exists():
                raise InputError(
                    f"{existing} already exists",
                    where="argument SPREADSHEET",
                    fix="choose another file name or folder, or pass --force to overwrite it",
                )
    written: list[Path] = []
    pictures = folder / PICTURES
    names = [f"value-{v:02d}.png" for v in range(1, PHOTO_VALUES + 1)] + ["logo.png", "cover.jpg"]
    for name in names:
        target = pictures / name
        if not target.exists() or force:
            with atomic.atomic_path(target) as tmp:
                shutil.copyfile(images_dir() / name, tmp)
            written.append(target)
    written.append(atomic.write_text(house, HOUSE_DECK_TOML))
    written.append(atomic.write_bytes(path, sheet_bytes(path, ROWS)))
    return written
