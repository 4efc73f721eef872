"""How a batch builds its decks: the choices that apply to every row alike."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BatchSettings:
    """Options of ``deckgen batch`` that shape each deck (and so its fingerprint)."""

    allow_outside: bool = False
    """Rows may name files outside the spreadsheet's folder (only for sheets you trust)."""
    preview: bool = True
    """Write ``preview.png`` into each deck's folder."""
    tts: bool = False
    """Write the Tabletop Simulator export (``tts/``) into each deck's folder."""
    make_zip: bool = False
    """Write ``<order>.zip`` of each finished deck's folder beside it."""

    def fingerprint_fields(self) -> dict[str, bool]:
        """The settings that change what is in a deck's folder."""
        return {"preview": self.preview, "tts": self.tts}
