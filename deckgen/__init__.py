"""deckgen: print-ready custom domino card decks, rule booklets, and a rules engine.

The public face is small: the domino model in :mod:`deckgen.tiles`, the error type in
:mod:`deckgen.errors`; each pillar (``deckgen.deck``, ``deckgen.engine``,
``deckgen.booklet``) documents its own entry points. Heavy libraries (reportlab,
WeasyPrint) are imported only by the modules that draw.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("deckgen")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+source"

__all__ = ["__version__"]
