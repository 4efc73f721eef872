"""Deck data (as parsed from TOML) back to TOML text, for the deck file the studio saves.

Takes the nested dict a deck file parses to (top-level keys, one level of tables,
values that are strings, numbers, booleans, lists and inline tables); gives TOML text
that parses back to the same dict. Tables come in the order of the deck file
documentation; a picture list is written one entry per line.

>>> import tomllib
>>> data = {"name": 'A "B"', "set": "double-7", "cover": {"title": "x\\ny"},
...         "faces": {"pictures": ["a.png", {"file": "b.jpg", "focus": [0.5, 0.25]}]}}
>>> tomllib.loads(deck_toml(data)) == data
True
"""

from __future__ import annotations

import math
from typing import Any

TABLE_ORDER = ("card", "faces", "back", "cover", "imprint", "fonts")

_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\t": "\\t",
    "\r": "\\r",
    "\b": "\\b",
    "\f": "\\f",
}


def _string(text: str) -> str:
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _key(name: str) -> str:
    if name and all(c.isascii() and (c.isalnum() or c in "-_") for c in name):
        return name
    return _string(name)


def value_text(value: Any) -> str:
    """One TOML value (inline)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise ValueError("a deck file holds no NaN or infinite numbers")
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {value_text(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} to a deck file")


def _assignment(key: str, value: Any) -> str:
    if isinstance(value, list) and len(value) > 1 and any(isinstance(v, dict | str) for v in value):
        inner = ",\n".join("  " + value_text(v) for v in value)
        return f"{_key(key)} = [\n{inner},\n]"
    return f"{_key(key)} = {value_text(value)}"


def deck_toml(data: dict[str, Any]) -> str:
    """The TOML text of ``data`` (a deck file's parsed contents)."""
    lines = ["# deckgen deck file, saved by deckgen studio: `deckgen deck build <this file>`", ""]
    lines += [_assignment(k, v) for k, v in data.items() if not isinstance(v, dict)]
    tables = [k for k in TABLE_ORDER if isinstance(data.get(k), dict)]
    tables += [k for k, v in data.items() if isinstance(v, dict) and k not in TABLE_ORDER]
    for name in tables:
        lines += ["", f"[{_key(name)}]"]
        lines += [_assignment(k, v) for k, v in data[name].items()]
    return "\n".join(lines) + "\n"
