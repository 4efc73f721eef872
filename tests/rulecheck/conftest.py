from __future__ import annotations

from pathlib import Path

import pytest
import typer

from deckgen.cli import _DeckgenGroup
from deckgen.rulecheck.cli import check_command

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def check_app() -> typer.Typer:
    """A CLI group holding only ``check`` (as registered under ``deckgen rules``)."""
    app = typer.Typer(cls=_DeckgenGroup)
    app.command("check")(check_command)

    @app.command("noop")
    def _noop() -> None:  # a second command keeps ``check`` a named subcommand
        """Nothing."""

    return app
