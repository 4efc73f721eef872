"""Lines the CLI prints for people (``wrote <path>``, summaries), shown harmlessly.

Paths, names and texts in them come from the user (a deck file's name, an output
folder, a rules file's title). They go through :func:`deckgen.errors.safe_text`, the
escaping the error messages use, so that a terminal escape or a bidirectional override
in a file name is shown as ``\\x1b`` or ``\\u202e`` and never acts on the terminal.
Line feeds and tabs are kept. Machine output (``--json``) is JSON and escapes its own
control characters.
"""

from __future__ import annotations

import typer

from deckgen.errors import safe_text


def say(text: object, *, err: bool = False) -> None:
    """Print ``text`` (a line or several) with control characters made visible."""
    typer.echo(safe_text(text), err=err)
