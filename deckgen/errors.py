"""Errors a user can cause, and how they read.

Every mistake a user can make (a bad deck file, a missing picture, an unknown set name)
raises a :class:`DeckgenError`. The CLI prints it as one paragraph on stderr,
``error: <what> (<where>). <how to fix>``, and exits with code 2, without a traceback.
Anything that is not a ``DeckgenError`` is a bug in deckgen and keeps its traceback.

>>> str(InputError("unknown set 'double-99'", where="option --set",
...                fix="use one of double-0 ... double-18"))
"unknown set 'double-99' (option --set). use one of double-0 ... double-18."
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

EXIT_USER_ERROR = 2


class DeckgenError(Exception):
    """A problem the user can fix: says what went wrong, where, and how to fix it."""

    exit_code = EXIT_USER_ERROR

    def __init__(self, what: str, *, where: str | None = None, fix: str | None = None) -> None:
        self.what = what
        self.where = where
        self.fix = fix
        super().__init__(self.message())

    def message(self) -> str:
        text = self.what.rstrip(". ")
        if self.where:
            text += f" ({self.where})"
        text += "."
        if self.fix:
            text += " " + self.fix.rstrip()
            if not text.endswith((".", "!", "?")):
                text += "."
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
