"""Shared fixtures for the deckgen test suite."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def repo() -> Path:
    return REPO
