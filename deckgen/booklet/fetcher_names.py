"""Names under which generated pictures are served (kept apart from the WeasyPrint-
importing fetcher so that building content never loads WeasyPrint)."""

from __future__ import annotations

import re


def card_url_name(card: str) -> str:
    """``cover`` -> ``card-cover.jpg``; ``3-5`` -> ``card-3-5.jpg``."""
    return "card-" + re.sub(r"[^a-z0-9-]", "_", card.lower()) + ".jpg"
