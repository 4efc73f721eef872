"""Hyphenation patterns for the booklet, parsed once per machine instead of once per run.

WeasyPrint hyphenates through pyphen, which parses a language's ``hyph_*.dic`` the
first time a process needs it: 0.6 s for German (a megabyte of patterns), a quarter of
the time a booklet takes. :func:`prime` hands pyphen the patterns already parsed, from
a JSON file in the user's cache folder (``$DECKGEN_CACHE_DIR``, else
``$XDG_CACHE_HOME/deckgen``, else ``~/.cache/deckgen``), and writes that file on the
first run that misses it. The file is named by the dictionary's SHA-256 (without its
comment lines: the Austrian and German dictionaries WeasyPrint and the cover ask for
share one file and, in a process, one parsed table) and pyphen's version, holds
nothing but the patterns (JSON, never pickle: whoever wrote the file, reading it runs
no code; one line of text per pattern, checked in one pass), and is parsed again from
the dictionary whenever it is missing, unreadable or does not match. A folder that
cannot be written costs only the time saved. ``tests/booklet/test_hyphenation.py``
shows the primed patterns hyphenate exactly as pyphen's own.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from pathlib import Path
from typing import Any

from deckgen.usercache import read_json, write_json

FORMAT = 2
"""2: the patterns as one text of lines (version 1, a JSON object per pattern, took
three times as long to read and check)."""
MAX_BYTES = 32 * 1024 * 1024
"""A cached dictionary is about 2 MB (German); a bigger file is not ours."""


def prime(langs: tuple[str, ...]) -> None:
    """Give pyphen the parsed patterns of ``langs`` (from the cache, or parsed and
    cached now), unless this process has them already."""
    import pyphen

    loaded: dict[str, Any] = {}  # by digest: de_AT and de_DE differ only in comments
    for lang in langs:
        name = pyphen.language_fallback(lang)
        if name is None:
            continue
        path = pyphen.LANGUAGES[name]
        if path in pyphen.hdcache:
            continue
        with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
            pyphen.hdcache[path] = _load(Path(path), loaded)


def _digest(raw: bytes) -> str:
    """The dictionary's key: its SHA-256 without comment lines, and pyphen's version."""
    import pyphen

    lines = [line for line in raw.split(b"\n") if not line.startswith((b"%", b"#"))]
    version = str(getattr(pyphen, "__version__", "0")).encode()
    return hashlib.sha256(b"\n".join(lines) + b"\n" + version).hexdigest()[:32]


def _load(path: Path, loaded: dict[str, Any]) -> Any:
    """The parsed patterns of the dictionary at ``path`` (a ``pyphen.HyphDict``); the
    one in ``loaded`` when a dictionary with the same patterns was loaded already."""
    import pyphen

    digest = _digest(path.read_bytes())
    if digest in loaded:
        return loaded[digest]
    name = f"hyph-{digest}.json"
    patterns = _read(name, digest)
    if patterns is not None:
        hd = pyphen.HyphDict.__new__(pyphen.HyphDict)
        hd.patterns = patterns
        hd.cache = {}
        hd.maxlen = max(len(key) for key in patterns)
    else:
        hd = pyphen.HyphDict(path)
        _write(name, digest, hd.patterns)
    loaded[digest] = hd
    return hd


_LINE = r"[^\t\n]+\t[0-9]+\t[0-9]+"
_TABLE = re.compile(f"(?:{_LINE}\n)*{_LINE}")
"""The cached table: one line per pattern, ``letters<TAB>start<TAB>values`` (each value
a single digit, as in every ``hyph_*.dic``)."""


def _read(name: str, digest: str) -> dict[str, tuple[int, tuple[int, ...]]] | None:
    data = read_json(name, MAX_BYTES)
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != digest:
        return None
    table = data.get("patterns")
    if not isinstance(table, str) or _TABLE.fullmatch(table) is None:
        return None  # checked in one pass: then every line is letters, a number, digits
    parts = table.replace("\t", "\n").split("\n")
    values: dict[str, tuple[int, ...]] = {}  # the same digits recur: decode each once
    out: dict[str, tuple[int, tuple[int, ...]]] = {}
    for key, start, digits in zip(parts[0::3], parts[1::3], parts[2::3], strict=True):
        decoded = values.get(digits)
        if decoded is None:
            decoded = values[digits] = tuple(map(int, digits))
        out[key] = (int(start), decoded)
    return out


def _write(name: str, digest: str, patterns: dict[str, Any]) -> None:
    """Cache plain patterns (a dictionary with alternative hyphenations is left to
    pyphen: its values carry more than numbers)."""

    lines = []
    for key, (start, values) in patterns.items():
        if any(type(v) is not int or not 0 <= v <= 9 for v in values) or type(start) is not int:
            return
        if "\t" in key or "\n" in key:
            return
        lines.append(f"{key}\t{start}\t{''.join(map(str, values))}")
    write_json(name, {"format": FORMAT, "key": digest, "patterns": "\n".join(lines)})
