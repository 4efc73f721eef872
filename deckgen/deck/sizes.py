"""Card sizes by name or as ``W x H`` in millimetres.

>>> card_size("meinspiel")
(59.0, 91.0)
>>> card_size("63 x 88")
(63.0, 88.0)
"""

from __future__ import annotations

import re

CARD_SIZES_MM: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "meinspiel": (59.0, 91.0),
    "tarot": (70.0, 120.0),
    "mini": (44.0, 67.0),
}
"""The named card sizes a deck file may use (portrait, width x height)."""

MIN_CARD_MM = 35.0
MAX_CARD_MM = 300.0

_WXH = re.compile(r"^\s*(\d{1,3}(?:\.\d+)?)\s*[xX×*]\s*(\d{1,3}(?:\.\d+)?)\s*(?:mm)?\s*$")


def card_size(text: str) -> tuple[float, float]:
    """Width and height in mm for a size name or ``W x H``; ValueError if neither."""
    key = text.strip().lower()
    if key in CARD_SIZES_MM:
        return CARD_SIZES_MM[key]
    match = _WXH.match(key)
    if not match:
        names = ", ".join(f"{n} ({w:g}x{h:g})" for n, (w, h) in CARD_SIZES_MM.items())
        raise ValueError(f"'{text}' is not a card size; use one of {names} or 'W x H' in mm")
    width, height = float(match.group(1)), float(match.group(2))
    for side in (width, height):
        if not MIN_CARD_MM <= side <= MAX_CARD_MM:
            raise ValueError(
                f"a card side of {side:g} mm is out of range; "
                f"each side must be {MIN_CARD_MM:g} ... {MAX_CARD_MM:g} mm"
            )
    return width, height
