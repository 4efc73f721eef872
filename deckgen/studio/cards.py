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


def card_sizes() -> dict[str, tuple[float, float]]:
    return dict(CARD_SIZES_MM)
