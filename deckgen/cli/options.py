"""Option types that several commands share, defined once (help text included)."""

from __future__ import annotations

from typing import Annotated

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
