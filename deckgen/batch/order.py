"""One valid row of a spreadsheet of orders, as the batch builds it (no imports of the
rest of the batch, so every module may name it)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Order:
    """One valid row: what to build, where it came from and how many were ordered."""

    row: int
    order_id: str
    name: str
    quantity: int
    data: dict[str, Any]
    """The deck data (as from a deck file), paths absolute."""
    deck_path: Path
    """A name for the row's deck in messages (``orders.csv row 3``), in the sheet's folder."""
    sheet: str
    cells: dict[str, str]
    deck_file: str | None = None
    """The row's deck file (``deck`` column), resolved."""
    fingerprint: str = ""
