"""Option types that several commands share, defined once (help text included)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars or notes.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON on stdout.")]
AllowOutsideOpt = Annotated[
    bool,
    typer.Option(
        "--allow-outside",
        help="Let the deck file use pictures and fonts outside its own folder "
        "(only for deck files you trust).",
    ),
]


def players_option(help_text: str) -> Any:
    """``--players`` / ``-n``, the same in ``rules play`` and ``rules check``: a player
    count, or several separated by commas (``3`` or ``2,3,4``); see :func:`player_counts`."""
    return typer.Option("--players", "-n", metavar="N[,N...]", help=help_text)


def player_counts(text: str, *, where: str = "option --players") -> tuple[int, ...]:
    """``"2,3,4"`` -> ``(2, 3, 4)``; anything else is an InputError saying the form.

    >>> player_counts("3"), player_counts("2, 4")
    ((3,), (2, 4))
    """
    from deckgen.errors import InputError

    try:
        counts = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        counts = ()
    if not counts:
        raise InputError(
            f"'{text}' is not a player count",
            where=where,
            fix="e.g. --players 3 or --players 2,3,4",
        )
    return counts
