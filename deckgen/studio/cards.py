"""The card sizes and vendor profiles the studio offers, as plain data for the page."""

from __future__ import annotations

from typing import Any

from deckgen.deck.sizes import CARD_SIZES_MM


def profile_card(name: str) -> dict[str, Any]:
    """The ``[card]`` keys a vendor profile sets (size, bleed, safe zone, corners)."""
    from deckgen.prepress.presets import card_from_preset

    card = card_from_preset(name)
    return {
        "size": card.size,
        "bleed_mm": card.bleed_mm,
        "safe_mm": card.safe_mm,
        "corner_radius_mm": card.corner_radius_mm,
    }


SIZE_NAMES: dict[str, dict[str, str]] = {
    "poker": {"en": "Poker", "de": "Poker"},
    "bridge": {"en": "Bridge", "de": "Bridge"},
    "meinspiel": {"en": "MeinSpiel", "de": "MeinSpiel"},
    "tarot": {"en": "Tarot", "de": "Tarot"},
    "mini": {"en": "Mini", "de": "Mini"},
}
"""The named card sizes as the page names them (a test checks that none is missing)."""


def card_sizes(lang: str = "en") -> dict[str, tuple[str, float, float]]:
    """Each named card size: its name on the page, its width and height in mm."""
    return {
        name: (SIZE_NAMES.get(name, {}).get(lang, name), w, h)
        for name, (w, h) in CARD_SIZES_MM.items()
    }
