"""Hypothesis strategies that mutate real deckgen files: types, depth, size, encoding,
control characters and NUL bytes, applied to data taken from the real schemas.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

WEIRD_TEXT = st.sampled_from(
    [
        "",
        "\x00",
        "a\x00b",
        "\x1b[2J\x1b]0;x\x07",
        "\u202etxt",
        "../../etc/passwd",
        "/etc/passwd",
        "demo:../../x",
        "x" * 300,
        "y" * 120_000,
        "{set:>999999999}",
        "{set.__class__}",
        "double-99",
        "double-7",
        "#zzzzzz",
        "cover",
        "pips",
        "\ud7ff\ue000",
    ]
)

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([-1, 0, 1, 6, 7, 18, 19, 2**31, 2**63, 10**4000]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    WEIRD_TEXT,
    st.lists(st.integers(min_value=-2, max_value=20), max_size=4),
    st.lists(st.text(max_size=5), max_size=3),
    st.dictionaries(st.text(max_size=6), st.integers(min_value=-5, max_value=5), max_size=3),
)


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path in ``node`` (lists: their first 8 items)."""
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node[:8]):
            out += paths(value, (*prefix, i))
    return out


@st.composite
def mutated(draw: st.DrawFn, base: dict[str, Any], max_changes: int = 3) -> dict[str, Any]:
    """``base`` with one to ``max_changes`` changes at paths drawn from it."""
    data = copy.deepcopy(base)
    for _ in range(draw(st.integers(min_value=1, max_value=max_changes))):
        where = paths(data)
        path = where[draw(st.integers(min_value=0, max_value=len(where) - 1))]
        how = draw(st.sampled_from(["set", "set", "set", "delete", "deepen", "add", "grow"]))
        before = copy.deepcopy(data)
        data = _apply(data, path, how, draw)
        if _written_size(data) > MAX_WRITTEN:  # a grow inside a grown list: left out
            data = before
    return data if isinstance(data, dict) else {"data": data}


MAX_WRITTEN = 8_000_000
"""About the most characters a mutated document may take when written out. A grow
repeats references to one list, so a second grow inside it multiplies every copy: two
grows of 5,000 made a document of 25 million lists, and the test (not deckgen) used
more than 20 GB writing it."""


def _written_size(node: Any, limit: int = MAX_WRITTEN) -> int:
    """Characters ``node`` takes written out (roughly), counted up to just past ``limit``
    (shared lists are counted once per reference, as writing them out repeats them)."""
    total = 0
    stack = [node]
    while stack and total <= limit:
        item = stack.pop()
        if isinstance(item, dict):
            total += 2 + sum(len(str(k)) + 4 for k in item)
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            total += 2 + len(item)
            stack.extend(item)
        else:
            total += len(str(item)) if not isinstance(item, int) or abs(item) < 10**100 else 4000
    return total


def _apply(data: Any, path: tuple[Any, ...], how: str, draw: st.DrawFn) -> Any:
    if not path:
        return data
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    old = parent[last]
    if how == "delete" and isinstance(parent, dict):
        del parent[last]
    elif how == "deepen":
        for _ in range(draw(st.integers(min_value=1, max_value=80))):
            old = [old]
        parent[last] = old
    elif how == "add" and isinstance(old, dict):
        old[draw(st.sampled_from(["extra", "x\x00", "\x1b", "k" * 300]))] = draw(VALUES)
    elif how == "grow" and isinstance(old, list | str):
        # Past the file size limit, but never so large that the test itself runs out
        # of memory writing the file (a list of 120,000-character texts times 5,000).
        factor = draw(st.sampled_from([2, 50, 5000]))
        parent[last] = old * max(1, min(factor, 4_000_000 // max(1, len(repr(old)))))
    else:
        parent[last] = draw(VALUES)
    return data


@st.composite
def mangled_bytes(draw: st.DrawFn, text: str) -> bytes:
    """``text`` encoded wrongly, cut short, with NUL bytes or flipped bytes."""
    how = draw(st.sampled_from(["utf-16", "latin-1", "bom", "nul", "flip", "cut", "crlf"]))
    raw = text.encode("utf-8")
    if how == "utf-16":
        return text.encode("utf-16")
    if how == "latin-1":
        return text.replace("a", "ä").encode("latin-1", errors="replace")
    if how == "bom":
        return b"\xef\xbb\xbf" + raw
    if how == "crlf":
        return raw.replace(b"\n", b"\r\n")
    at = draw(st.integers(min_value=0, max_value=max(0, len(raw) - 1)))
    if how == "nul":
        return raw[:at] + b"\x00" + raw[at:]
    if how == "flip":
        return (
            raw[:at] + bytes([raw[at] ^ draw(st.integers(1, 255))]) + raw[at + 1 :] if raw else raw
        )
    return raw[:at]
