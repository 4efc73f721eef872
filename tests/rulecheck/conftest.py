from __future__ import annotations

import pytest
import typer


@pytest.fixture
def check_app() -> typer.Typer:
    """The deckgen command line (``rules check`` is registered in ``deckgen.cli.rules``)."""
    from deckgen.cli import app

    return app
