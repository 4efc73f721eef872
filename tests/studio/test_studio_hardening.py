"""The studio against hostile pictures, edited files and other web pages (issue #24).

Each test names what went wrong before: a 500 for a deck naming a 200-megapixel PNG,
a 500 (and a path outside the project) from an edited crops.json, JPEGs with hundreds
of scans taking minutes per upload and thumbnail, responses without nosniff or framing
rules, JSON endpoints that took plain-text posts, old uploads left on disk, and several
large uploads decoded at once.
"""

from __future__ import annotations

import io
import json
import re
import struct
import threading
import zlib
from pathlib import Path

import pytest
from PIL import Image
from starlette.testclient import TestClient
from studio_testkit import COOKIE, HOST, ORIGIN, TOKEN, photo, studio_app
from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.deck import picturefile
from deckgen.errors import InputError
from deckgen.studio.project import StudioProject
from deckgen.studio.security import cookie_name
from deckgen.studio.server import listen_address
from deckgen.studio.slots import parse_slot
from tests.hostile.jpegscans import progressive_jpeg


def make_client(project: StudioProject) -> TestClient:
    client = TestClient(studio_app(project), base_url=f"http://{HOST}")
    client.cookies.set(COOKIE, TOKEN)
    client.headers["origin"] = ORIGIN
    return client


def _page_state(html: str) -> dict:  # type: ignore[type-arg]
    found = re.search(r'<script type="application/json" id="studio-state">(.*?)</script>', html)
    assert found, "the page holds no state"
    return json.loads(found.group(1))  # type: ignore[no-any-return]


def _png_1bit(path: Path, width: int, height: int) -> None:
    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data)
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    packer = zlib.compressobj(9)
    row = b"\0" * (1 + -(-width // 8))
    idat = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")
    )


# -- item 6: a deck naming a picture the studio cannot use --------------------------------


def test_a_deck_naming_a_200_megapixel_png_opens_and_marks_the_slot(
    project: StudioProject, client: TestClient
) -> None:
    _png_1bit(project.folder / "huge.png", 20_000, 10_000)
    project.set_picture(parse_slot("value-2", project.max_pip), "huge.png")
    page = client.get("/", headers={"accept-language": "de-DE,de;q=0.9"})
    assert page.status_code == 200
    problem = _page_state(page.text)["slots"]["value-2"]["problem"]
    assert "„huge.png“" in problem
    assert "zu viele Pixel" in problem
    state = client.get("/api/state", headers={"accept-language": "en"})
    assert state.status_code == 200
    english = state.json()["slots"]["value-2"]["problem"]
    assert english.startswith("The picture “huge.png” has too many pixels")
    assert state.json()["slots"]["value-1"].get("problem") is None
    assert client.get("/api/picture/value-2").status_code == 404


def test_a_picture_that_is_no_picture_is_marked_too(
    project: StudioProject, client: TestClient
) -> None:
    (project.folder / "notes.jpg").write_text("a shopping list, not a photo")
    project.set_picture(parse_slot("cover", project.max_pip), "notes.jpg")
    state = client.get("/api/state").json()
    assert "“notes.jpg” cannot be read" in state["slots"]["cover"]["problem"]


# -- item 3: a JPEG with hundreds of scans ----------------------------------------------------


def test_an_upload_with_hundreds_of_scans_is_refused_naming_it(
    project: StudioProject, client: TestClient
) -> None:
    r = client.put(
        "/api/picture/value-3",
        content=progressive_jpeg(640, 480, refinements=3),
        headers={"x-file-name": "scans.jpg", "content-type": "image/jpeg"},
    )
    assert r.status_code == 400
    message = r.json()["errors"]["faces.pictures[2]"]
    assert "'scans.jpg' is a JPEG stored in" in message
    assert "passes" in message
    assert not list((project.folder / ".studio").glob("upload-*"))
    # named by the deck file: no thumbnail, and the preview names the picture
    (project.folder / "scans.jpg").write_bytes(progressive_jpeg(640, 480, refinements=3))
    project.set_picture(parse_slot("value-3", project.max_pip), "scans.jpg")
    assert client.get("/api/picture/value-3").status_code == 404
    slot = client.get("/api/state").json()["slots"]["value-3"]
    assert slot["problem"].startswith("The picture “scans.jpg” has too many pixels or is stored")
    card = client.get("/api/card/3-3.png")
    assert card.status_code == 400
    assert "'scans.jpg' is a JPEG stored in" in card.json()["errors"]["_"]


# -- item 9: crops.json naming files outside the project --------------------------------------


@pytest.mark.parametrize("original", ["/etc/passwd", "../secret.jpg"])
def test_crops_json_naming_a_file_outside_is_never_read(tmp_path: Path, original: str) -> None:
    project = StudioProject.open(tmp_path / "family")
    with make_client(project) as client:
        client.put("/api/picture/value-1", content=photo(), headers={"x-file-name": "a.jpg"})
    file = project.picture_ref(parse_slot("value-1", 7))
    (tmp_path / "secret.jpg").write_bytes(photo((300, 300), colour=(0, 255, 0)))
    crops = {file: {"original": original, "zoom": 2.0, "focus": [0.5, 0.5]}}
    (project.folder / ".studio" / "crops.json").write_text(json.dumps(crops))
    edited = StudioProject.open(project.deck_path)
    with make_client(edited) as client:
        assert client.get("/api/state").status_code == 200
        assert client.get("/api/picture/value-1?original=1").status_code == 404
        assert client.get("/api/picture/value-1").status_code == 200
        r = client.post("/api/crop/value-1", json={"focus": [0.4, 0.4], "zoom": 2})
        assert r.status_code == 200, r.text
    new_file = edited.picture_ref(parse_slot("value-1", 7))
    assert edited.crops[new_file].original == file  # cut from the picture itself


# -- item 13: headers, content types, cookies, disk and memory ---------------------------------


def test_every_response_says_nosniff_no_framing_no_referrer(client: TestClient) -> None:
    client.put("/api/picture/cover", content=photo(), headers={"x-file-name": "c.jpg"})
    answers = {
        "page": client.get("/"),
        "state": client.get("/api/state"),
        "script": client.get("/static/studio.js"),
        "picture": client.get("/api/picture/cover"),
        "no picture": client.get("/api/picture/logo"),
        "unknown": client.get("/static/nothing.js"),
        "refused": client.get("/api/state", headers={"host": "evil.example:8765"}),
        "redirect": client.get("/?token=test-token-0123456789", follow_redirects=False),
        "json error": client.post("/api/field", content=b"x", headers={"content-type": "text/x"}),
    }
    for name, r in answers.items():
        assert r.headers.get("x-content-type-options") == "nosniff", name
        assert r.headers.get("x-frame-options") == "DENY", name
        assert r.headers.get("referrer-policy") == "no-referrer", name
        assert "frame-ancestors 'none'" in r.headers.get("content-security-policy", ""), name
    assert "script-src 'self'" in answers["page"].headers["content-security-policy"]


@pytest.mark.parametrize(
    "kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None]
)
def test_json_endpoints_take_only_json(
    client: TestClient, project: StudioProject, kind: str | None
) -> None:
    headers = {"content-type": kind} if kind else {}
    body = json.dumps({"key": "name", "value": "Hacked"}).encode()
    r = client.post("/api/field", content=body, headers=headers)
    assert r.status_code == 415
    crop = client.post("/api/crop/cover", content=b'{"zoom": 2}', headers=headers)
    assert crop.status_code == 415
    assert project.get("name") != "Hacked"
    ok = client.post("/api/field", json={"key": "name", "value": "Ours"})
    assert ok.status_code == 200


def test_the_session_cookie_is_new_at_each_start() -> None:
    first, second = cookie_name(8765), cookie_name(8765)
    assert first != second
    assert first.startswith("deckgen_studio_8765_")
    assert cookie_name(8766).startswith("deckgen_studio_8766_")


def test_replaced_and_removed_uploads_leave_the_disk(
    project: StudioProject, client: TestClient
) -> None:
    slot = parse_slot("value-1", project.max_pip)
    # a picture of the user's own in pictures/ is never deleted
    own = project.folder / "pictures" / "grandma.jpg"
    own.parent.mkdir()
    own.write_bytes(photo((200, 200)))
    project.set_picture(slot, "pictures/grandma.jpg")
    client.put("/api/picture/value-1", content=photo(colour=(200, 0, 0)), headers={})
    first = project.picture_ref(slot)
    assert own.is_file()
    r = client.post("/api/crop/value-1", json={"focus": [0.3, 0.3], "zoom": 2})
    assert r.status_code == 200
    cropped = project.picture_ref(slot)
    assert cropped != first
    assert (project.folder / first).is_file()  # the original of a crop is kept
    client.post("/api/crop/value-1", json={"focus": [0.6, 0.6], "zoom": 3})
    assert not (project.folder / cropped).exists()  # the earlier crop is gone
    client.put("/api/picture/value-1", content=photo(colour=(0, 0, 200)), headers={})
    second = project.picture_ref(slot)
    pictures = sorted(p.name for p in (project.folder / "pictures").iterdir())
    assert pictures == sorted([Path(second).name, "grandma.jpg"])
    r = client.delete("/api/picture/value-1")
    assert r.status_code == 200, r.text
    assert sorted(p.name for p in (project.folder / "pictures").iterdir()) == ["grandma.jpg"]


def test_large_uploads_at_once_are_decoded_within_the_pixel_budget(
    project: StudioProject, client: TestClient
) -> None:
    buf = io.BytesIO()
    Image.new("RGB", (8000, 5000), (90, 120, 30)).save(buf, "JPEG", quality=50)
    big = buf.getvalue()  # 40 MP: two fit in the budget of 100, three do not
    picturefile.BUDGET.peak = 0
    codes: list[int] = []

    def upload(slot: str) -> None:
        codes.append(client.put(f"/api/picture/{slot}", content=big, headers={}).status_code)

    threads = [threading.Thread(target=upload, args=(f"value-{v}",)) for v in (1, 2, 3, 4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert codes == [200, 200, 200, 200]
    assert 40_000_000 <= picturefile.BUDGET.peak <= picturefile.DECODE_BUDGET_PIXELS
    assert picturefile.BUDGET.in_use == 0


# -- item 12: the listening address ----------------------------------------------------------


@pytest.mark.parametrize(
    "host", ["0", "0x0", "000.000.000.000", "::0", "0:0:0:0:0:0:0:0", "[::]", "::ffff:0.0.0.0"]
)
def test_every_spelling_of_every_network_is_refused(
    runner: CliRunner, tmp_path: Path, host: str
) -> None:
    for extra in ([], ["--allow-network"]):
        result = runner.invoke(
            app, ["studio", "--no-browser", "--host", host, *extra, str(tmp_path / "d")]
        )
        assert result.exit_code == 2, (host, result.output)
        assert "every network" in result.output


@pytest.mark.parametrize("host", ["192.168.1.20", "10.0.0.7", "example.org", "fe80::1"])
def test_another_machines_address_needs_allow_network(host: str) -> None:
    with pytest.raises(InputError, match="--allow-network"):
        listen_address(host)
    assert listen_address(host, allow_network=True) == host


@pytest.mark.parametrize(
    ("host", "bound"),
    [("127.0.0.1", "127.0.0.1"), ("localhost", "127.0.0.1"), ("127.1", "127.0.0.1"),
     ("0x7f000001", "127.0.0.1"), ("[::1]", "::1"), ("::ffff:127.0.0.1", "127.0.0.1")],
)  # fmt: skip
def test_loopback_in_any_spelling_is_this_computer(host: str, bound: str) -> None:
    assert listen_address(host) == bound
