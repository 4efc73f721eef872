"""``manifest.json``: every file a deck build wrote and every card, for scripts and later steps.

Takes the loaded deck, the card list, the files written and what the build plan
records about the build; gives the manifest as a dict (and JSON text). Format version
1; fields may be added, never removed::

    {"format_version": 1, "deck": name, "set": "double-7",
     "preset": the vendor preset built for (null: none), "build": {"preset", "colour",
     "pdfx", "icc_profile", "options": {...}} (what was actually used),
     "card": {"width_mm", "height_mm", "bleed_mm", "safe_mm", "corner_radius_mm"},
     "files": [{"path", "kind", "pages"?, "sha256", "bytes"}],
     "cards": [{"index", "kind": "cover"|"tile"|"imprint", "tile": "a-b"|null, "page"}]}
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckgen.deck.cards import CardRef
from deckgen.deck.spec import LoadedDeck

FORMAT_VERSION = 1


@dataclass(frozen=True)
class OutputFile:
    """A file a build wrote: its path relative to the output folder, its kind, pages."""

    path: str
    kind: str
    pages: int | None = None
    data: bytes | None = None
    """The file's bytes when a later step may want them (the PDFs); not in the manifest."""

    def entry(self, folder: Path) -> dict[str, Any]:
        raw = self.data if self.data is not None else (folder / self.path).read_bytes()
        item: dict[str, Any] = {"path": self.path, "kind": self.kind}
        if self.pages is not None:
            item["pages"] = self.pages
        item["bytes"] = len(raw)
        item["sha256"] = hashlib.sha256(raw).hexdigest()
        return item


def previous_set(folder: Path) -> list[str]:
    """The files an earlier build listed in ``folder``'s manifest (and the manifest):
    a new build replaces them all, so nothing of an earlier build is left over."""
    path = folder / "manifest.json"
    try:
        data = json.loads(path.read_text("utf-8"))
        listed = [str(e["path"]) for e in data.get("files", []) if isinstance(e, dict)]
    except (OSError, ValueError, KeyError, AttributeError):
        return []
    return [*listed, "manifest.json"]


def manifest_dict(
    deck: LoadedDeck,
    cards: Sequence[CardRef],
    files: Sequence[OutputFile],
    folder: Path,
    *,
    record: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """``record``: what the build plan says about the build (the preset and options
    actually used); without one the build used no preset."""
    spec = deck.spec
    build = dict(record or {})
    return {
        "format_version": FORMAT_VERSION,
        "deck": spec.name,
        "set": deck.dset.name,
        "language": spec.language,
        "preset": build.get("preset"),
        "build": build,
        "card": {
            "width_mm": deck.width_mm,
            "height_mm": deck.height_mm,
            "bleed_mm": deck.bleed_mm,
            "safe_mm": deck.safe_mm,
            "corner_radius_mm": deck.corner_radius_mm,
            "orientation": spec.card.orientation,
        },
        "faces": {"style": spec.faces.style},
        "files": [f.entry(folder) for f in files],
        "cards": [
            {
                "index": card.index,
                "kind": card.kind,
                "tile": str(card.tile) if card.tile is not None else None,
                "page": page,
            }
            for page, card in enumerate(cards, start=1)
        ],
    }


def manifest_json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
