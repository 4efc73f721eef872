"""Paths that come from user files: resolved against their file's folder, kept inside it.

Deck and rules files arrive from customers in bulk orders, so a path inside one is
untrusted: ``../../etc/passwd`` or an absolute path must not let a deck file read
anything outside its own folder unless the user allows it explicitly.
"""

from __future__ import annotations

import os
from pathlib import Path

from deckgen.errors import ResourceError, UnsafePathError


def resolve_inside(
    base_dir: str | os.PathLike[str],
    relative: str,
    *,
    where: str,
    allow_outside: bool = False,
) -> Path:
    """Resolve ``relative`` against ``base_dir``; refuse it if it leaves ``base_dir``.

    Symbolic links are followed before the check, so a link inside the folder that
    points outside it is refused too. ``where`` names the file and key for the error.
    """
    if "\x00" in relative:
        raise UnsafePathError("a path contains a NUL character", where=where)
    base = Path(base_dir).resolve()
    candidate = (base / Path(relative).expanduser()).resolve()
    if not allow_outside and not candidate.is_relative_to(base):
        raise UnsafePathError(
            f"the path '{relative}' leads outside the folder {base}",
            where=where,
            fix="put the file next to the deck file (or in a folder below it), "
            "or pass --allow-outside if you trust this file",
        )
    return candidate


def read_limited(path: Path, *, max_bytes: int, what: str, where: str) -> bytes:
    """Read a whole file, refusing a missing, unreadable or oversized one clearly."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise ResourceError(
            f"{what} '{path}' does not exist", where=where, fix="check the file name and folder"
        ) from None
    except OSError as exc:
        raise ResourceError(f"cannot read {what} '{path}': {exc.strerror}", where=where) from exc
    if not path.is_file():
        raise ResourceError(f"{what} '{path}' is not a file", where=where)
    if size > max_bytes:
        raise ResourceError(
            f"{what} '{path}' is {size / 1e6:.1f} MB, "
            f"more than the {max_bytes / 1e6:.0f} MB allowed",
            where=where,
            fix="use a smaller file",
        )
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ResourceError(f"cannot read {what} '{path}': {exc.strerror}", where=where) from exc
