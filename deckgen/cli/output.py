"""Lines the CLI prints for people (``wrote <path>``, summaries), shown harmlessly.

Paths, names and texts in them come from the user (a deck file's name, an output
folder, a rules file's title). They go through :func:`deckgen.errors.safe_text`, the
escaping the error messages use, so that a terminal escape or a bidirectional override
in a file name is shown as ``\\x1b`` or ``\\u202e`` and never acts on the terminal.
Line feeds and tabs are kept. Machine output (``--json``) goes through
:func:`write_json`, which writes the same characters as JSON ``\\uXXXX`` escapes: the
same data for a program, harmless on a terminal.
"""

from __future__ import annotations

import sys
from typing import Any

import typer

from deckgen.errors import UNSAFE_CHARS, safe_text


def say(text: object, *, err: bool = False) -> None:
    """Print ``text`` (a line or several) with control characters made visible."""
    typer.echo(safe_text(text), err=err)


def write_json(text: str) -> None:
    """Write JSON text to stdout with every unsafe character as a ``\\uXXXX`` escape.

    ``json.dumps`` escapes the C0 controls itself, but with ``ensure_ascii=False`` it
    keeps C1 controls (``\\x9b`` starts a terminal escape too) and bidirectional
    overrides; those only occur inside JSON strings, where ``\\u009b`` means the same.
    """
    sys.stdout.write(UNSAFE_CHARS.sub(lambda m: f"\\u{ord(m.group()):04x}", text))


def write_text(text: str) -> None:
    """Write a report (Markdown, several lines) to stdout, shown harmlessly."""
    sys.stdout.write(safe_text(text))


PIPED_WIDTH = 400
"""The width a listing is laid out for when standard output is not a terminal: a table
piped to a file keeps its natural width instead of being squeezed to 80 columns."""


def listing_console() -> Any:
    """A rich Console for a listing on stdout: the terminal's width, or, when piped,
    wide enough that no cell is cut (a name a user must type is never shortened)."""
    from rich.console import Console

    if sys.stdout.isatty():
        return Console()
    return Console(width=PIPED_WIDTH)


def name_column(table: Any, title: str, names: list[str]) -> None:
    """Add the column of names a user types (preset, set): never wrapped or cut."""
    table.add_column(title, no_wrap=True, min_width=max((len(n) for n in names), default=4))
