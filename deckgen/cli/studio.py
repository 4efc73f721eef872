"""``deckgen studio``: the local web configurator (see docs/studio.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def studio_command(
    target: Annotated[
        Path | None,
        typer.Argument(
            help="A deck file to edit, or a folder (its deck.toml; a new deck if there is "
            "none). Default: a new deck in a new folder under output/.",
            metavar="DECK_FILE_OR_FOLDER",
        ),
    ] = None,
    port: Annotated[
        int, typer.Option("--port", help="Port to listen on (default: a free one).")
    ] = 0,
    host: Annotated[
        str,
        typer.Option(
            "--host",
            help="Address to listen on. Default 127.0.0.1 (this computer only). An address "
            "other machines can reach needs --allow-network; an address meaning every "
            "network (0.0.0.0, ::) is refused.",
        ),
    ] = "127.0.0.1",
    allow_network: Annotated[
        bool,
        typer.Option(
            "--allow-network",
            help="Let other machines reach the studio at the --host address (with a "
            "warning: anyone with the link can change the deck).",
        ),
    ] = False,
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Do not open the browser; just print the URL.")
    ] = False,
) -> None:
    """Make a deck in the browser: pictures, back, cover, imprint, live preview, downloads.

    The first line of output is the URL with the session token; open it in a browser.
    """
    from deckgen.studio.server import ServeOptions, serve

    serve(
        ServeOptions(
            target=target,
            port=port,
            host=host,
            open_browser=not no_browser,
            allow_network=allow_network,
        )
    )
