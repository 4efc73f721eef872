"""The table of domino sets that ``deckgen sets`` prints: rows as data, JSON, Markdown."""

from __future__ import annotations

import json
from typing import Any

from deckgen.errors import InputError
from deckgen.tiles import MAX_SUPPORTED_PIP, DominoSet, set_names

SETS_FORMAT_VERSION = 1
EXTRA_CARDS = 2
"""A printed deck has one card per tile plus a cover card and an imprint card."""

TABLE_RANGE = range(6, MAX_SUPPORTED_PIP + 1)


def parse_set(name: str, *, where: str = "set name") -> DominoSet:
    """The set called ``name``, or an InputError listing the valid names."""
    try:
        return DominoSet.from_name(name)
    except ValueError:
        raise InputError(
            f"unknown domino set '{name}'",
            where=where,
            fix=f"valid sets are double-0 ... double-{MAX_SUPPORTED_PIP} "
            f"({', '.join(set_names(6, 12))} are the common ones)",
        ) from None


def set_row(dset: DominoSet) -> dict[str, Any]:
    return {
        "name": dset.name,
        "highest_pip": dset.max_pip,
        "tiles": len(dset),
        "doubles": dset.double_count,
        "total_pips": dset.total_pips,
        "each_value_appears": dset.value_frequency,
        "deck_cards": len(dset) + EXTRA_CARDS,
    }


def set_rows(sets: list[DominoSet] | None = None) -> list[dict[str, Any]]:
    if sets is None:
        sets = [DominoSet(n) for n in TABLE_RANGE]
    return [set_row(s) for s in sets]


def sets_json(rows: list[dict[str, Any]]) -> str:
    return json.dumps({"version": SETS_FORMAT_VERSION, "sets": rows}, indent=2) + "\n"


COLUMNS = [
    ("name", "Set"),
    ("highest_pip", "Highest pip"),
    ("tiles", "Tiles"),
    ("doubles", "Doubles"),
    ("total_pips", "Total pips"),
    ("each_value_appears", "Each value appears"),
    ("deck_cards", "Printed deck (cards)"),
]


def sets_markdown(rows: list[dict[str, Any]]) -> str:
    head = "| " + " | ".join(title for _, title in COLUMNS) + " |"
    rule = "|" + "|".join("---" if key == "name" else "---:" for key, _ in COLUMNS) + "|"
    body = ["| " + " | ".join(str(row[key]) for key, _ in COLUMNS) + " |" for row in rows]
    intro = (
        "# Domino sets\n\n"
        "A double-N set holds every pair of values from 0 to N once: (N+1)(N+2)/2 tiles "
        "with N(N+1)(N+2)/2 pips in all, and each value shows on N+2 halves. "
        "A printed deck adds a cover card and an imprint card.\n\n"
    )
    return intro + "\n".join([head, rule, *body]) + "\n"
