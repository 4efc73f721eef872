"""Helpers for the batch tests: small order sheets, deck folder checks."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path
from typing import Any

SMALL_COLUMNS = ["order", "quantity", "name", "set", "faces.style", "back.background"]


def write_csv(path: Path, columns: list[str], rows: list[dict[str, str]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(columns)
        for row in rows:
            writer.writerow([row.get(c, "") for c in columns])
    return path


def small_orders(count: int) -> list[dict[str, str]]:
    """``count`` quick decks (double-2, pips) with their own colours."""
    return [
        {
            "order": f"deck-{i:02d}",
            "quantity": str(i + 1),
            "name": f"Deck {i}",
            "set": "double-2",
            "faces.style": "pips",
            "back.background": f"#{(i * 40) % 256:02x}3060",
        }
        for i in range(count)
    ]


def check_complete(folder: Path) -> dict[str, Any]:
    """A deck folder is complete: its manifest lists every file with the right hash."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert isinstance(manifest, dict), "manifest.json holds no JSON object"
    listed = {"manifest.json"}
    for entry in manifest["files"]:
        data = (folder / entry["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["path"]
        listed.add(entry["path"])
    present = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert present == listed, present ^ listed
    assert "order" in manifest
    return manifest


def deck_folders(out: Path) -> list[Path]:
    return sorted(p for p in out.iterdir() if p.is_dir() and not p.name.startswith("."))
