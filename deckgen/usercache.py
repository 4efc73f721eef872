"""The user's cache folder: what deckgen can compute again, kept between runs.

Takes a file name; gives its path in ``$DECKGEN_CACHE_DIR``, else
``$XDG_CACHE_HOME/deckgen``, else ``~/.cache/deckgen`` (:func:`cache_dir`), and reads
and writes small JSON files there (:func:`read_json`, :func:`write_json`). Nothing a
user made lives here, and nothing read from here is trusted: a file is read only when
it is a regular file of sane size, parsed as JSON (never pickle: reading runs no
code), and its caller checks every value; a file that is missing, unreadable or wrong
is computed again. A folder that cannot be written costs only the time saved.
Used by the booklet's hyphenation patterns and the pictures' focus regions.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any


def cache_dir() -> Path:
    """Where deckgen keeps what it can compute again (nothing a user made)."""
    own = os.environ.get("DECKGEN_CACHE_DIR")
    if own:
        return Path(own)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "deckgen"


def read_json(name: str, max_bytes: int) -> Any | None:
    """The JSON value in the cache file ``name``, or None (missing, too big, not a
    regular file, not JSON)."""
    from deckgen.errors import DeckgenError
    from deckgen.paths import read_limited

    path = cache_dir() / name
    try:  # a regular file of sane size (a FIFO planted there never makes us wait)
        raw = read_limited(path, max_bytes=max_bytes, what="cache file", where=str(path))
        return json.loads(raw.decode("utf-8"))
    except (DeckgenError, OSError, ValueError):
        return None


def write_json(name: str, value: Any) -> None:
    """Keep ``value`` as JSON in the cache file ``name`` (atomically; failures ignored)."""
    from deckgen import atomic
    from deckgen.errors import DeckgenError

    path = cache_dir() / name
    with contextlib.suppress(OSError, ValueError, TypeError, DeckgenError):
        text = json.dumps(value)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_text(path, text)
