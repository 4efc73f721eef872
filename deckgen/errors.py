"""Errors a user can cause, and how they read.

Every mistake a user can make (a bad deck file, a missing picture, an unknown set name)
raises a :class:`DeckgenError`. The CLI prints it as one paragraph on stderr,
``error: <what> (<where>). <how to fix>``, and exits with code 2, without a traceback.
Anything that is not a ``DeckgenError`` is a bug in deckgen and keeps its traceback.

A message is one paragraph of at most :data:`MAX_MESSAGE_CHARS` characters whatever
the input: text quoted from a user file goes through :func:`excerpt` (a short excerpt,
control characters and terminal escapes shown as ``\\x1b``), and :meth:`message`
makes the whole paragraph safe and short once more.

>>> str(InputError("unknown set 'double-99'", where="option --set",
...                fix="use one of double-0 ... double-18"))
"unknown set 'double-99' (option --set). use one of double-0 ... double-18."
"""

from __future__ import annotations

import difflib
import errno
import re
from collections.abc import Iterable

EXIT_USER_ERROR = 2
MAX_MESSAGE_CHARS = 600
"""An error message is cut to this many characters (one short paragraph)."""
EXCERPT_CHARS = 60
"""Text quoted from a user file in a message is cut to this many characters."""

UNSAFE_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""Characters never sent to a terminal as they are: controls (but tab and line feed),
terminal escapes, C1 controls, line separators and bidirectional overrides."""


def _escape_char(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe_text(text: object) -> str:
    """``text`` with control characters, terminal escapes and bidi overrides made visible.

    >>> safe_text("a\x1b[31mb")
    'a\\\\x1b[31mb'
    """
    return UNSAFE_CHARS.sub(_escape_char, str(text))


def excerpt(text: object, limit: int = EXCERPT_CHARS) -> str:
    """A short, harmless quotation of user text: escaped, one line, at most ``limit`` chars.

    >>> excerpt("x" * 100, 10)
    'xxxxxxxxx… (100 characters)'
    """
    raw = str(text)
    shown = safe_text(raw[: limit * 2]).replace("\n", "\\n").replace("\t", " ")
    if len(raw) > limit or len(shown) > limit:
        return shown[: max(1, limit - 1)] + f"… ({len(raw):,} characters)"
    return shown


def first_line(exc: BaseException, limit: int = 120) -> str:
    """The first line of an exception's text (its type name when it has no text).

    ``str(MemoryError())`` is empty: a message built from it must not fail in turn.
    """
    lines = str(exc).strip().splitlines()
    text = lines[0] if lines else type(exc).__name__
    return excerpt(text, limit)


class DeckgenError(Exception):
    """A problem the user can fix: says what went wrong, where, and how to fix it."""

    exit_code = EXIT_USER_ERROR
    shown_where: str | None = None
    """``where`` as the customer reads it, when it differs from the ``where`` code reads
    (the deck key ``faces.pictures[2]`` is shown as ``faces.pictures``, the message
    naming "the picture for 3")."""

    def __init__(self, what: str, *, where: str | None = None, fix: str | None = None) -> None:
        self.what = what
        self.where = where
        self.fix = fix
        super().__init__(self.message())

    def message(self) -> str:
        text = self.what.rstrip(". ")
        if self.where:
            where = self.shown_where or self.where
            if len(where) > 200:  # keep the end: it names the key
                where = where[:60] + "…" + where[-130:]
            text += f" ({where})"
        text += "."
        if self.fix:
            text += " " + self.fix.rstrip()
            if not text.endswith((".", "!", "?")):
                text += "."
        text = safe_text(" ".join(text.split()))
        if len(text) > MAX_MESSAGE_CHARS:  # cut between words, never inside one
            cut = text[: MAX_MESSAGE_CHARS - 30]
            if " " in cut:
                cut = cut[: cut.rindex(" ")]
            text = cut.rstrip(" ,;:") + " … (message shortened)"
        return text

    def __str__(self) -> str:
        return self.message()


class InputError(DeckgenError):
    """A bad command-line value or argument (unknown set name, bad option)."""


class SpecError(DeckgenError):
    """A deck file, rules file or preset that does not validate."""


class ResourceError(DeckgenError):
    """A picture, font or other file that is missing, broken, too large or unsafe."""


class UnsafePathError(ResourceError):
    """A path in a user file that leaves the folder it must stay in."""


class OutputError(DeckgenError):
    """An output that cannot be written (folder not writable, disk full)."""


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """A ``did you mean 'x'?`` hint, or an empty string when nothing is close."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""


MACHINE_ERRNOS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.ENAMETOOLONG: "the file name is too long",
    errno.ELOOP: "too many symbolic links (a link loop?)",
    errno.EISDIR: "it is a folder, not a file",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.EFBIG: "the file is too large",
    errno.EMFILE: "too many open files",
    errno.EIO: "an input/output error of the disk",
    errno.ENOENT: "it does not exist",
    errno.EEXIST: "it already exists",
    errno.ENXIO: "it is not a regular file (a pipe or device?)",
}


def machine_error(exc: BaseException) -> DeckgenError | None:
    """A fault of the machine (full disk, read-only folder, no memory) as a user error.

    None for anything else (a bug, which keeps its traceback).
    """
    if isinstance(exc, MemoryError):
        return ResourceError(
            "deckgen ran out of memory",
            fix="use smaller pictures or fonts, or close other programs",
        )
    if isinstance(exc, OSError) and exc.errno in MACHINE_ERRNOS:
        name = exc.filename if exc.filename is not None else ""
        where = excerpt(name, 120) if name else None
        return OutputError(
            f"{MACHINE_ERRNOS[exc.errno]}",
            where=where,
            fix="free some space, choose another folder (--out), or check its permissions",
        )
    return None
