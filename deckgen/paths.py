"""Paths that come from user files: resolved against their file's folder, kept inside it.

Deck and rules files arrive from customers in bulk orders, so a path inside one is
untrusted: ``../../etc/passwd`` or an absolute path must not let a deck file read
anything outside its own folder unless the user allows it explicitly.

A path that is not a regular file (a folder, a FIFO, a device, a symlink loop, a name
longer than the file system allows) is refused without blocking: files are opened
with ``O_NONBLOCK`` and checked with ``fstat`` on the open descriptor, so a FIFO put
where a picture should be never makes a build wait. Names are quoted through
:func:`~deckgen.errors.excerpt` (terminal escapes shown, never sent).
"""

from __future__ import annotations

import difflib
import errno
import os
import re
import stat
import unicodedata
from pathlib import Path

from deckgen.errors import MACHINE_ERRNOS, ResourceError, UnsafePathError, excerpt


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
    try:
        base = Path(base_dir).resolve()
        candidate = (base / Path(relative).expanduser()).resolve()
    except (OSError, RuntimeError) as exc:  # symlink loop, name too long
        raise ResourceError(
            f"the path '{excerpt(relative, 80)}' cannot be followed: {_reason(exc)}",
            where=where,
            fix="point it at a file (check for a symbolic link that points to itself)",
        ) from None
    if not allow_outside and not candidate.is_relative_to(base):
        raise UnsafePathError(
            f"the path '{excerpt(relative, 80)}' leads outside the folder {excerpt(base, 80)}",
            where=where,
            fix="put the file next to the deck file (or in a folder below it), "
            "or pass --allow-outside if you trust this file",
        )
    if not os.path.lexists(candidate):
        variant = unicode_variant(candidate)
        if variant is not None:
            return resolve_inside(base, str(variant), where=where, allow_outside=allow_outside)
    return candidate


MAX_LISTED = 5000
"""Entries of a folder looked at to find a file under another spelling of its name."""


def _entries(folder: Path) -> list[str]:
    """Up to :data:`MAX_LISTED` names in ``folder`` (none if it cannot be listed)."""
    names: list[str] = []
    try:
        with os.scandir(folder) as found:
            for entry in found:
                names.append(entry.name)
                if len(names) >= MAX_LISTED:
                    break
    except (OSError, ValueError):
        return []
    return names


def _nfc(name: str) -> str:
    return unicodedata.normalize("NFC", name)


def unicode_variant(path: Path) -> Path | None:
    """The existing file ``path`` names when its name (or a folder's) is spelt in another
    Unicode form: macOS writes "Ö" decomposed (NFD, "O" and a combining diaeresis) while
    a deck file typed by hand has it composed (NFC). None when there is no such file.

    >>> unicode_variant(Path("/no/such/folder/x.jpg")) is None
    True
    """
    current = Path(path.anchor)
    changed = False
    for part in path.parts[1:] if path.anchor else path.parts:
        step = current / part
        if not os.path.lexists(step):
            wanted = _nfc(part)
            same = [name for name in _entries(current) if _nfc(name) == wanted]
            if not same:
                return None
            step = current / same[0]
            changed = True
        current = step
    return current if changed else None


def _digitless(name: str) -> str:
    return re.sub(r"\d+", "#", name)


def nearest_name(path: Path, shown: str) -> str | None:
    """The file in ``path``'s folder whose name is nearest to ``path``'s (a name that
    differs only in upper and lower case first), as ``shown`` would name it; None when
    no name is close."""
    names = [n for n in _entries(path.parent) if is_regular_file(path.parent / n)]
    if not names:
        return None
    wanted = _nfc(path.name)
    folded = {_nfc(n).casefold(): n for n in names}
    match = folded.get(wanted.casefold())
    if match is None:
        close = [
            name
            for name in difflib.get_close_matches(wanted.casefold(), list(folded), n=3, cutoff=0.6)
            if _digitless(name) != _digitless(wanted.casefold())  # photo2 is not a typo of photo3
        ]
        if not close:
            return None
        match = folded[close[0]]
    if _nfc(shown).endswith(wanted):
        return _nfc(shown)[: len(_nfc(shown)) - len(wanted)] + match
    return match


def _reason(exc: BaseException) -> str:
    if isinstance(exc, RuntimeError):
        return MACHINE_ERRNOS[errno.ELOOP]
    if isinstance(exc, OSError):
        return MACHINE_ERRNOS.get(exc.errno or 0, exc.strerror or type(exc).__name__)
    return type(exc).__name__


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def read_limited(path: Path, *, max_bytes: int, what: str, where: str) -> bytes:
    """Read a whole regular file, refusing a missing, unreadable, oversized one (or one
    that is not a file) clearly, and never blocking on a FIFO or device."""
    shown = excerpt(path, 120)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise ResourceError(
            f"{what} '{shown}' does not exist", where=where, fix="check the file name and folder"
        ) from None
    except (OSError, ValueError) as exc:
        reason = _reason(exc) if isinstance(exc, OSError) else "the name holds a NUL"
        raise ResourceError(f"cannot read {what} '{shown}': {reason}", where=where) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ResourceError(
                f"{what} '{shown}' is {_kind(info.st_mode)}, not a file",
                where=where,
                fix="give the path of a file",
            )
        if info.st_size > max_bytes:
            raise ResourceError(
                f"{what} '{shown}' is {info.st_size / 1e6:.1f} MB, "
                f"more than the {max_bytes / 1e6:.0f} MB allowed",
                where=where,
                fix="use a smaller file",
            )
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > max_bytes:  # the file grew while we read it
                raise ResourceError(
                    f"{what} '{shown}' is more than the {max_bytes / 1e6:.0f} MB allowed",
                    where=where,
                    fix="use a smaller file",
                )
        return b"".join(chunks)
    except OSError as exc:
        raise ResourceError(f"cannot read {what} '{shown}': {_reason(exc)}", where=where) from None
    finally:
        os.close(fd)


def is_regular_file(path: str | os.PathLike[str]) -> bool:
    """True for an existing regular file; False for anything else, never an exception
    (a name too long, a symlink loop, a NUL byte)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def require_file(
    path: Path, *, shown: str, what: str, where: str, fix: str, slot: str | None = None
) -> None:
    """Refuse ``path`` unless it is a regular file, saying what it is instead.

    ``slot`` names what the file is for as the customer sees it ("picture for 2"); a
    missing file's message suggests the nearest name in its folder.
    """
    named = f"the {slot} ('{excerpt(shown, 80)}')" if slot else f"the {what} '{excerpt(shown, 80)}'"
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        near = nearest_name(path, shown)
        if near is not None:
            fix = f"did you mean '{excerpt(near, 80)}'? Otherwise {fix}"
        raise ResourceError(f"{named} does not exist", where=where, fix=fix) from None
    except (OSError, ValueError) as exc:
        reason = _reason(exc) if isinstance(exc, OSError) else "the name holds a NUL"
        raise ResourceError(f"{named} cannot be read: {reason}", where=where, fix=fix) from None
    if not stat.S_ISREG(mode):
        raise ResourceError(f"{named} is {_kind(mode)}, not a file", where=where, fix=fix)


def check_output_file(path: Path, *, where: str) -> None:
    """Refuse an output file name that cannot be written as a file, before any work."""
    from deckgen.errors import OutputError

    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except (OSError, ValueError) as exc:
        reason = _reason(exc) if isinstance(exc, OSError) else "the name holds a NUL"
        raise OutputError(f"cannot write '{excerpt(path, 80)}': {reason}", where=where) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise OutputError(
            f"cannot write '{excerpt(path, 80)}': it is a folder, not a file",
            where=where,
            fix="give a file name (for example inside that folder)",
        )
    if len(os.fsencode(path.name)) > 255:
        raise OutputError(
            f"cannot write '{excerpt(path, 80)}': {MACHINE_ERRNOS[errno.ENAMETOOLONG]}",
            where=where,
            fix="use a shorter file name",
        )
