"""Fixtures for the studio tests: a new project in a temporary folder and a client for it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from studio_testkit import COOKIE, HOST, ORIGIN, TOKEN, studio_app

from deckgen.studio.project import StudioProject


@pytest.fixture
def project(tmp_path: Path) -> StudioProject:
    return StudioProject.open(tmp_path / "family")


def make_client(project: StudioProject) -> TestClient:
    client = TestClient(studio_app(project), base_url=f"http://{HOST}")
    client.cookies.set(COOKIE, TOKEN)
    client.headers["origin"] = ORIGIN
    return client


@pytest.fixture
def client(project: StudioProject) -> Iterator[TestClient]:
    with make_client(project) as c:
        yield c
