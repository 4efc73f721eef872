"""The fingerprint of an order's inputs: what decides that a finished deck is current.

The SHA-256 of the row's cells, the bytes of its deck file, the bytes of every
picture and font the deck uses, the short rules text on its imprint, the batch
settings that shape the output, and the deckgen version. A deck folder whose
``manifest.json`` carries the same fingerprint is finished and is skipped on the next
run; change any of these and the row is built again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deckgen.batch.order import Order
    from deckgen.batch.settings import BatchSettings
    from deckgen.deck.spec import LoadedDeck

_FILE_HASHES: dict[tuple[str, int, int], str] = {}


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes (remembered per path, size and mtime in this process)."""
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    found = _FILE_HASHES.get(key)
    if found is None:
        digest = hashlib.sha256()
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        found = digest.hexdigest()
        _FILE_HASHES[key] = found
    return found


def deck_files(deck: LoadedDeck) -> list[tuple[str, Path]]:
    """Every file a loaded deck reads (pictures, fonts), named by the field that holds it."""
    from deckgen.deck.spec import ResolvedPicture

    found: list[tuple[str, Path]] = []
    for f in dataclasses.fields(deck):
        if f.name == "path":
            continue
        value: Any = getattr(deck, f.name)
        items = value if isinstance(value, tuple) else (value,)
        for i, item in enumerate(items):
            label = f"{f.name}[{i}]" if isinstance(value, tuple) else f.name
            if isinstance(item, ResolvedPicture):
                found.append((label, item.path))
            elif isinstance(item, Path):
                found.append((label, item))
    return found


def fingerprint(order: Order, deck: LoadedDeck, settings: BatchSettings) -> str:
    """The fingerprint of everything that goes into the order's deck folder."""
    from deckgen import __version__

    payload = {
        "deckgen": __version__,
        "row": dict(sorted(order.cells.items())),
        "quantity": order.quantity,
        "order": order.order_id,
        "deck_file": file_sha256(Path(order.deck_file)) if order.deck_file else None,
        "files": [[label, file_sha256(path)] for label, path in deck_files(deck)],
        "imprint_rules": deck.spec.imprint.rules,
        "settings": settings.fingerprint_fields(),
    }
    text = json.dumps(payload, sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()
