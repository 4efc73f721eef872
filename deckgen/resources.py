"""Where deckgen's own files are: rules, templates, demo images, presets, fonts, ICC.

In a source checkout (and an editable install) they are the top-level folders of the
repository; an installed wheel carries the same folders inside the package as
``deckgen/_data/<folder>`` (mapped in pyproject.toml). Nothing else is looked up.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
CHECKOUT_ROOT = PACKAGE_DIR.parent
WHEEL_DATA = PACKAGE_DIR / "_data"

PROJECT_ROOT = CHECKOUT_ROOT if (CHECKOUT_ROOT / "rules").is_dir() else WHEEL_DATA
"""The folder holding ``rules/``, ``templates/``, ``images/``, ``presets/``,
``fonts/`` and ``icc/``: the repository in a checkout, ``deckgen/_data`` in a wheel."""


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


def icc_dir() -> Path:
    return _folder("icc")


def default_output_dir() -> Path:
    """``output/`` of the current folder: where generated files go by default."""
    return Path("output")
