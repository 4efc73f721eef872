"""The studio's guard: each check refuses what it is there for (and lets the page work).

Every test here fails if its check is taken out of :mod:`deckgen.studio.security` or
the project's path rule.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import make_client
from starlette.testclient import TestClient
from studio_testkit import COOKIE, HOST, ORIGIN, TOKEN, photo, studio_app

from deckgen.studio.project import StudioProject
from deckgen.studio.security import allowed_hosts

GETS = ["/", "/api/state", "/api/card/cover.png", "/api/picture/cover", "/download/deck.zip"]


def bare_client(project: StudioProject) -> TestClient:
    """A client without the session cookie or an Origin header."""
    return TestClient(studio_app(project), base_url=f"http://{HOST}")


@pytest.mark.parametrize("path", GETS)
def test_no_token_no_entry(project: StudioProject, path: str) -> None:
    response = bare_client(project).get(path)
    assert response.status_code == 403
    assert "link" in response.text


def test_a_wrong_token_is_refused(project: StudioProject) -> None:
    client = bare_client(project)
    assert client.get("/?token=guess", follow_redirects=False).status_code == 403
    client.cookies.set(COOKIE, "guess")
    assert client.get("/api/state").status_code == 403


def test_the_token_link_sets_a_strict_cookie_and_drops_the_token(project: StudioProject) -> None:
    client = bare_client(project)
    first = client.get(f"/?token={TOKEN}", follow_redirects=False)
    assert first.status_code == 303
    assert first.headers["location"] == "/"
    cookie = first.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}={TOKEN}")
    assert "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie
    page = client.get("/")  # the client keeps the cookie, as a browser does
    assert page.status_code == 200
    assert "deckgen studio" in page.text


@pytest.mark.parametrize(
    "host", ["evil.example:8765", "127.0.0.1.nip.io:8765", "127.0.0.1:9999", ""]
)
def test_a_foreign_host_header_is_refused(project: StudioProject, host: str) -> None:
    client = make_client(project)
    response = client.get("/api/state", headers={"host": host})
    assert response.status_code == 421


def test_changes_need_the_studios_own_origin(project: StudioProject) -> None:
    client = make_client(project)
    change = {"key": "cover.subtitle", "value": "from elsewhere"}
    del client.headers["origin"]
    assert client.post("/api/field", json=change).status_code == 403
    assert (
        client.post(
            "/api/field", json=change, headers={"origin": "http://evil.example"}
        ).status_code
        == 403
    )
    assert client.post("/api/field", json=change, headers={"origin": "null"}).status_code == 403
    assert project.get("cover.subtitle") == ""
    ok = client.post("/api/field", json=change, headers={"origin": ORIGIN})
    assert ok.status_code == 200
    assert project.get("cover.subtitle") == "from elsewhere"


def test_cross_site_reads_are_refused(project: StudioProject) -> None:
    client = make_client(project)
    del client.headers["origin"]
    assert (
        client.get("/api/card/cover.png", headers={"sec-fetch-site": "cross-site"}).status_code
        == 403
    )
    assert client.get("/api/state", headers={"origin": "http://evil.example"}).status_code == 403
    # another server on this computer (another port) is "same-site", and gets the cookie
    assert (
        client.get("/api/card/cover.png", headers={"sec-fetch-site": "same-site"}).status_code
        == 403
    )
    assert client.get("/api/state", headers={"sec-fetch-site": "same-origin"}).status_code == 200
    assert client.get("/", headers={"sec-fetch-site": "none"}).status_code == 200


def test_allowed_hosts_name_only_the_bound_address() -> None:
    assert allowed_hosts("127.0.0.1", 8000) == {"127.0.0.1:8000", "localhost:8000", "[::1]:8000"}
    assert "192.168.1.5:8000" in allowed_hosts("192.168.1.5", 8000)


@pytest.mark.parametrize(
    "path",
    [
        "/api/picture/..%2F..%2Fdeck.toml",
        "/api/picture/value-0",
        "/api/picture/value-8",
        "/api/picture/%2Fetc%2Fpasswd",
        "/static/..%2Fapp.py",
        "/static/page.html.j2",
        "/api/card/..%2F..%2Fdeck.toml.png",
        "/api/card/9-9.png",
    ],
)
def test_no_path_from_the_browser_names_a_file(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_project_paths_stay_inside_the_folder(project: StudioProject) -> None:
    for bad in ("../x", "/etc/passwd", "pictures/../../x", "a\x00b", "."):
        with pytest.raises(ValueError):  # noqa: PT011 - the only error it raises
            project.path(bad)
    assert project.path("pictures/a.png").is_relative_to(project.folder)


def test_an_upload_name_never_becomes_a_path(
    client: TestClient, project: StudioProject, tmp_path: Path
) -> None:
    before = set(tmp_path.rglob("*"))
    response = client.put(
        "/api/picture/value-3",
        content=photo((400, 400)),
        headers={"x-file-name": "../../../evil.jpg", "content-type": "image/jpeg"},
    )
    assert response.status_code == 200
    new = set(tmp_path.rglob("*")) - before
    assert new, "the upload was stored"
    assert all(p.resolve().is_relative_to(project.folder) for p in new)
    assert not any("evil" in p.name for p in new)
    assert not (tmp_path.parent / "evil.jpg").exists()


def test_everything_the_studio_writes_is_inside_its_folder(tmp_path: Path) -> None:
    project = StudioProject.open(tmp_path / "deck")
    outside = tmp_path / "outside"
    outside.mkdir()
    before = sorted(os.listdir(tmp_path))
    with make_client(project) as client:
        client.put("/api/picture/cover", content=photo(), headers={"x-file-name": "c.jpg"})
        client.post("/api/crop/cover", json={"focus": [0.3, 0.3], "zoom": 2})
        client.get("/api/card/cover.png")
        client.get("/download/deck.zip")
    assert sorted(os.listdir(tmp_path)) == before
    assert not any(outside.iterdir())
