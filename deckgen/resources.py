"""Where deckgen's own files are: rules, templates, demo images, presets, fonts.

In a source checkout (and an editable install) they are the top-level folders of the
repository; nothing else is looked up.
"""

from __future__ import annotations

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def _folder(name: str) -> Path:
    return PROJECT_ROOT / name


def rules_dir() -> Path:
    return _folder("rules")


def templates_dir() -> Path:
    return _folder("templates")


def images_dir() -> Path:
    return _folder("images")


def presets_dir() -> Path:
    return _folder("presets")


def fonts_dir() -> Path:
    return _folder("fonts")


def default_output_dir() -> Path:
    """``output/`` of the current folder: where generated files go by default."""
    return Path("output")
