"""Every endpoint of the studio through Starlette's TestClient, on real files and PDFs."""

from __future__ import annotations

import io
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from starlette.testclient import TestClient
from studio_testkit import photo
from typer.testing import CliRunner

from deckgen.studio.app import THUMB_PX
from deckgen.studio.project import StudioProject
from deckgen.studio.uploads import MAX_UPLOAD_BYTES


def deck_data(project: StudioProject) -> dict:  # type: ignore[type-arg]
    return tomllib.loads(project.deck_path.read_text(encoding="utf-8"))


def test_a_new_project_is_a_meinspiel_double7_photo_deck_that_builds(
    project: StudioProject,
) -> None:
    data = deck_data(project)
    assert data["set"] == "double-7"
    assert data["preset"] == "meinspiel"
    assert data["card"]["size"] == "meinspiel"
    assert data["faces"]["style"] == "pictures+pips"
    assert len(data["faces"]["pictures"]) == 7
    assert project.loaded().dset.max_pip == 7


def test_the_page_in_english_and_german(client: TestClient) -> None:
    en = client.get("/", headers={"accept-language": "en-GB,en;q=0.9"})
    assert en.status_code == 200
    assert "Download print files" in en.text
    assert 'lang="en"' in en.text
    de = client.get("/", headers={"accept-language": "de-DE,de;q=0.9,en;q=0.5"})
    assert "Druckdateien herunterladen" in de.text
    assert 'lang="de"' in de.text
    assert "Ein Bild für jede Zahl" in de.text
    assert "content-security-policy" in en.headers


def test_static_files(client: TestClient) -> None:
    js = client.get("/static/studio.js")
    assert js.status_code == 200
    assert "javascript" in js.headers["content-type"]
    assert client.get("/static/studio.css").headers["content-type"].startswith("text/css")


def test_state_lists_fields_slots_and_cards(client: TestClient) -> None:
    state = client.get("/api/state").json()
    assert state["fields"]["set"] == "double-7"
    assert state["fields"]["profile"] == "meinspiel"
    assert [c["id"] for c in state["cards"]][:3] == ["cover", "0-0", "0-1"]
    assert len(state["cards"]) == 36 + 3
    slot = state["slots"]["value-1"]
    assert slot["demo"] is True
    assert slot["frame"]["fit"] == "cover"
    page, trim, safe, box = (slot["frame"][k] for k in ("page", "trim", "safe", "box"))
    assert page[2:] == pytest.approx([65.0, 97.0])
    assert trim == pytest.approx([3.0, 3.0, 59.0, 91.0])
    assert safe == pytest.approx([7.0, 7.0, 51.0, 83.0])
    assert safe[0] < box[0]
    assert box[0] + box[2] < safe[0] + safe[2]
    assert state["slots"]["cover"]["frame"]["box"][0] == 0  # the cover picture runs into the bleed
    assert state["slots"]["imprint"]["file"] is None


def test_a_field_change_is_checked_saved_and_answered_with_the_state(
    client: TestClient, project: StudioProject
) -> None:
    r = client.post("/api/field", json={"key": "cover.title", "value": "The Millers"})
    assert r.status_code == 200
    assert r.json()["state"]["fields"]["cover.title"] == "The Millers"
    assert deck_data(project)["cover"]["title"] == "The Millers"
    bad = client.post("/api/field", json={"key": "back.background", "value": "sky"})
    assert bad.status_code == 400
    assert "colour" in bad.json()["errors"]["back.background"]
    assert deck_data(project)["back"]["background"] == "#1d3557"
    assert (
        client.post("/api/field", json={"key": "fonts.regular", "value": "/etc/x"}).status_code
        == 400
    )
    assert client.post("/api/field", json={"key": "cover.title", "value": ["x"]}).status_code == 400
    assert (
        client.post(
            "/api/field", content=b"{nope", headers={"content-type": "application/json"}
        ).status_code
        == 400
    )
    assert client.post("/api/field", content=b"x" * 200_000).status_code == 413


def test_an_empty_optional_field_is_removed(client: TestClient, project: StudioProject) -> None:
    client.post("/api/field", json={"key": "cover.title", "value": ""})
    assert "title" not in deck_data(project)["cover"]


def test_changing_the_set_keeps_one_picture_per_value(
    client: TestClient, project: StudioProject
) -> None:
    client.put("/api/picture/value-7", content=photo(), headers={"x-file-name": "seven.jpg"})
    mine = deck_data(project)["faces"]["pictures"][6]
    state = client.post("/api/field", json={"key": "set", "value": "double-9"}).json()["state"]
    assert state["max_pip"] == 9
    assert len(deck_data(project)["faces"]["pictures"]) == 9
    client.post("/api/field", json={"key": "set", "value": "double-6"})
    assert len(deck_data(project)["faces"]["pictures"]) == 6
    client.post("/api/field", json={"key": "set", "value": "double-7"})
    assert deck_data(project)["faces"]["pictures"][6] == mine
    bad = client.post("/api/field", json={"key": "set", "value": "double-99"})
    assert bad.status_code == 400
    assert "set" in bad.json()["errors"]


def test_profiles_and_card_sizes(client: TestClient, project: StudioProject) -> None:
    r = client.post("/api/field", json={"key": "profile", "value": "drivethrucards"})
    assert r.status_code == 200
    data = deck_data(project)
    assert data["preset"] == "drivethrucards"
    assert data["card"]["size"] == "63.5 x 88.9"
    client.post("/api/field", json={"key": "profile", "value": ""})
    assert "preset" not in deck_data(project)
    client.post("/api/field", json={"key": "card.size", "value": "tarot"})
    state = client.get("/api/state").json()
    assert (state["card"]["width_mm"], state["card"]["height_mm"]) == (70.0, 120.0)
    assert client.post("/api/field", json={"key": "profile", "value": "nope"}).status_code == 400


def test_upload_a_picture(client: TestClient, project: StudioProject) -> None:
    r = client.put(
        "/api/picture/value-2", content=photo((1600, 1200)), headers={"x-file-name": "dog.jpg"}
    )
    assert r.status_code == 200
    slot = r.json()["state"]["slots"]["value-2"]
    assert slot["demo"] is False
    assert slot["size_px"] == [1600, 1200]
    assert slot["quality"]["sharp"] is True
    file = deck_data(project)["faces"]["pictures"][1]
    assert file.startswith("pictures/value-2-")
    assert file.endswith(".jpg")
    assert (project.folder / file).is_file()
    thumb = Image.open(io.BytesIO(client.get("/api/picture/value-2").content))
    assert max(thumb.size) <= THUMB_PX
    assert thumb.size[0] > thumb.size[1]


def test_a_small_picture_says_how_big_it_should_be(client: TestClient) -> None:
    r = client.put(
        "/api/picture/value-1", content=photo((200, 200)), headers={"x-file-name": "tiny.jpg"}
    )
    quality = r.json()["state"]["slots"]["value-1"]["quality"]
    assert quality["sharp"] is False
    assert quality["ppi"] < 300
    frame = r.json()["state"]["slots"]["value-1"]["frame"]
    need = round(frame["box"][2] / 25.4 * 300)
    assert quality["need_px"] == [need, need]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"this is not a picture at all", "not a picture"),
        (photo()[:3000], "damaged or cut short"),
        (
            b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,"
            b"\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;",
            "GIF",
        ),
    ],
)
def test_broken_uploads_are_refused_next_to_their_field(
    client: TestClient, project: StudioProject, body: bytes, message: str
) -> None:
    before = deck_data(project)
    r = client.put("/api/picture/value-4", content=body, headers={"x-file-name": "x.jpg"})
    assert r.status_code == 400
    assert message in r.json()["errors"]["faces.pictures[3]"]
    assert deck_data(project) == before
    assert (
        not list((project.folder / "pictures").glob("value-4-*"))
        if (project.folder / "pictures").exists()
        else True
    )
    assert not list((project.folder / ".studio").glob("upload-*"))


def test_a_decompression_bomb_is_refused(client: TestClient) -> None:
    bomb = io.BytesIO()
    Image.new("1", (12_000, 12_000)).save(bomb, format="PNG")
    r = client.put("/api/picture/cover", content=bomb.getvalue(), headers={"x-file-name": "b.png"})
    assert r.status_code == 400
    assert "megapixels" in r.json()["errors"]["cover.picture"]


def test_an_upload_over_the_limit_stops_while_it_arrives(
    client: TestClient, project: StudioProject
) -> None:
    declared = client.put(
        "/api/picture/cover", content=b"x", headers={"content-length": str(MAX_UPLOAD_BYTES + 1)}
    )
    assert declared.status_code == 413

    def chunks() -> Iterator[bytes]:
        for _ in range(MAX_UPLOAD_BYTES // 1_000_000 + 2):
            yield b"\0" * 1_000_000

    streamed = client.put("/api/picture/cover", content=chunks())
    assert streamed.status_code == 413
    assert "larger than" in streamed.json()["errors"]["cover.picture"]
    assert not list((project.folder / ".studio").glob("upload-*"))


def test_remove_a_picture(client: TestClient, project: StudioProject) -> None:
    client.put("/api/picture/imprint", content=photo(), headers={"x-file-name": "us.jpg"})
    assert "picture" in deck_data(project)["imprint"]
    assert client.delete("/api/picture/imprint").status_code == 200
    assert "picture" not in deck_data(project)["imprint"]
    client.put("/api/picture/value-5", content=photo(), headers={"x-file-name": "v.jpg"})
    client.delete("/api/picture/value-5")
    assert deck_data(project)["faces"]["pictures"][4] == "demo:value-05.png"
    assert client.get("/api/picture/imprint").status_code == 404


def test_crop_with_focus_only_keeps_the_file(client: TestClient, project: StudioProject) -> None:
    client.put(
        "/api/picture/value-1", content=photo((1600, 1000)), headers={"x-file-name": "w.jpg"}
    )
    file = deck_data(project)["faces"]["pictures"][0]
    r = client.post("/api/crop/value-1", json={"focus": [0.2, 0.5], "zoom": 1})
    assert r.status_code == 200
    assert deck_data(project)["faces"]["pictures"][0] == {"file": file, "focus": [0.2, 0.5]}


def test_crop_with_zoom_writes_the_chosen_part(client: TestClient, project: StudioProject) -> None:
    client.put("/api/picture/cover", content=photo((2000, 1500)), headers={"x-file-name": "c.jpg"})
    original = deck_data(project)["cover"]["picture"]
    r = client.post("/api/crop/cover", json={"focus": [0.25, 0.25], "zoom": 2})
    assert r.status_code == 200
    cropped = deck_data(project)["cover"]["picture"]
    assert cropped != original
    assert cropped.endswith("-crop.jpg")
    frame = r.json()["state"]["slots"]["cover"]["frame"]
    with Image.open(project.folder / cropped) as im:
        ratio = frame["box"][2] / frame["box"][3]
        assert im.width / im.height == pytest.approx(ratio, rel=0.01)
        assert im.width == pytest.approx(min(2000, 1500 * ratio) / 2, rel=0.01)
        # the yellow disc at a quarter of the picture is in the middle of the crop
        centre = im.convert("RGB").getpixel((im.width // 2, im.height // 2))
        assert isinstance(centre, tuple)
        assert centre[0] > 200
        assert centre[1] > 200
        assert centre[2] < 150
    slot = r.json()["state"]["slots"]["cover"]
    assert slot["zoom"] == 2
    assert slot["focus"] == [0.25, 0.25]
    assert slot["size_px"] == [2000, 1500]
    # cropping again starts from the original upload
    client.post("/api/crop/cover", json={"focus": [0.5, 0.5], "zoom": 1})
    assert deck_data(project)["cover"]["picture"] == original


@pytest.mark.parametrize(
    "body", [{"focus": [2, 0], "zoom": 1}, {"focus": [0.5, 0.5], "zoom": 9}, {"focus": "x"}]
)
def test_crop_refuses_nonsense(client: TestClient, body: dict) -> None:  # type: ignore[type-arg]
    assert client.post("/api/crop/cover", json=body).status_code == 400


def test_card_previews_at_true_proportions(client: TestClient) -> None:
    r = client.get("/api/card/cover.png")
    assert r.status_code == 200
    assert r.headers["content-type"] == "image/png"
    im = Image.open(io.BytesIO(r.content))
    assert im.width / im.height == pytest.approx(59 / 91, rel=0.01)
    back = Image.open(io.BytesIO(client.get("/api/card/back.png").content))
    assert back.size == im.size


def test_a_change_redraws_only_the_cards_it_touches(client: TestClient) -> None:
    studio = client.app.studio  # type: ignore[attr-defined]
    client.get("/api/card/cover.png")  # draws the whole deck once
    drawn = studio.previews.cards_drawn
    assert drawn == 36 + 3
    before = {c["id"]: c["key"] for c in client.get("/api/state").json()["cards"]}
    old_cover = client.get("/api/card/cover.png").content
    state = client.post(
        "/api/field", json={"key": "cover.title", "value": "Grandma's Domino"}
    ).json()["state"]
    after = {c["id"]: c["key"] for c in state["cards"]}
    assert [c for c in after if after[c] != before[c]] == ["cover"]
    assert client.get("/api/card/cover.png").content != old_cover
    for card in ("0-0", "3-5", "imprint", "back"):
        client.get(f"/api/card/{card}.png")
    assert studio.previews.cards_drawn == drawn + 1
    # a new picture for value 3 redraws the 8 tiles that show a 3
    state = client.put(
        "/api/picture/value-3", content=photo(), headers={"x-file-name": "3.jpg"}
    ).json()["state"]
    changed = sorted(c["id"] for c in state["cards"] if c["key"] != after[c["id"]])
    assert changed == sorted({f"{min(3, v)}-{max(3, v)}" for v in range(8)})
    client.get("/api/card/3-3.png")
    assert studio.previews.cards_drawn == drawn + 1 + 8


def test_the_deck_zip_builds_again_from_the_command_line(
    client: TestClient,
    project: StudioProject,
    tmp_path: Path,
    runner: CliRunner,
) -> None:
    from studio_testkit import unzip, zip_names

    from deckgen.cli import app

    client.put("/api/picture/value-1", content=photo(), headers={"x-file-name": "a.jpg"})
    client.put(
        "/api/picture/imprint",
        content=photo((800, 400), fmt="PNG"),
        headers={"x-file-name": "b.png"},
    )
    client.post("/api/field", json={"key": "profile", "value": ""})
    data = client.get("/download/deck.zip")
    assert data.headers["content-disposition"].startswith(
        'attachment; filename="our-domino-deck.zip"'
    )
    names = zip_names(data.content)
    assert "deck.toml" in names
    assert len([n for n in names if n.startswith("pictures/")]) == 2
    folder = tmp_path / "again"
    unzip(data.content, folder)
    assert (folder / "deck.toml").read_bytes() == project.deck_path.read_bytes()
    result = runner.invoke(
        app,
        [
            "deck",
            "build",
            str(folder / "deck.toml"),
            "--out",
            str(tmp_path / "o"),
            "--quiet",
            "--no-preview",
        ],
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "o" / "cards.pdf").is_file()


def test_an_upload_error_names_the_users_file(client: TestClient) -> None:
    r = client.put(
        "/api/picture/value-1",
        content=b"%PDF-1.4 not a picture",
        headers={"x-file-name": "Holiday%20photo.pdf"},
    )
    message = r.json()["errors"]["faces.pictures[0]"]
    assert "'Holiday photo.pdf' is not a picture" in message
    assert "upload-" not in message
    assert ". Use a JPEG" in message


def test_the_slot_shows_the_crop_and_the_editor_the_original(client: TestClient) -> None:
    client.put("/api/picture/value-1", content=photo((1000, 800)), headers={"x-file-name": "a.jpg"})
    state = client.post("/api/crop/value-1", json={"focus": [0.3, 0.3], "zoom": 2}).json()["state"]
    slot = state["slots"]["value-1"]
    shown = Image.open(io.BytesIO(client.get(slot["url"]).content))
    original = Image.open(io.BytesIO(client.get(slot["original_url"]).content))
    assert shown.size == (400, 400)
    assert original.size == (1000, 800)


def test_a_pips_deck_gets_pictures_when_it_changes_to_pictures(tmp_path: Path) -> None:
    from conftest import make_client

    deck = tmp_path / "pips.toml"
    deck.write_text('name = "Pips"\nset = "double-6"\n', encoding="utf-8")
    project = StudioProject.open(deck)
    with make_client(project) as client:
        client.post("/api/field", json={"key": "set", "value": "double-9"})
        assert "faces" not in deck_data(project)
        r = client.post("/api/field", json={"key": "faces.style", "value": "pictures"})
        assert r.status_code == 200
    assert len(deck_data(project)["faces"]["pictures"]) == 9
    page_deck = tmp_path / "big.toml"
    page_deck.write_text('name = "Big"\nset = "double-15"\n', encoding="utf-8")
    with make_client(StudioProject.open(page_deck)) as client:
        assert '<option value="double-15" selected>' in client.get("/").text


def test_text_that_does_not_fit_is_noted_on_its_card(client: TestClient) -> None:
    client.post("/api/field", json={"key": "imprint.text", "value": "many words " * 500})
    client.get("/api/card/imprint.png")
    notes = client.get("/api/state").json()["notes"]
    assert "does not fit" in notes["imprint"][0]
    assert "cover" not in notes
    client.post("/api/field", json={"key": "imprint.text", "value": "short"})
    client.get("/api/card/imprint.png")
    assert "imprint" not in client.get("/api/state").json()["notes"]
