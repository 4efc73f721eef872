"""The studio speaks the customer's language and of what the customer sees.

The deck's card language follows the page's until the customer chooses; every message
of the server (refused values, refused uploads, the printer's objections, the sample
checklist, the preview's notes) is German or English and names the slot or field and
the customer's own file name, never a deck file key or a command line option.
"""

from __future__ import annotations

import doctest
import re
import string
from pathlib import Path
from typing import Any

import pytest
from conftest import make_client
from starlette.testclient import TestClient
from studio_testkit import photo

from deckgen.deck.sizes import CARD_SIZES_MM
from deckgen.deck.starter import StarterCard, starter_toml
from deckgen.prepress.presets import all_presets
from deckgen.studio import i18n, slots
from deckgen.studio import project as project_module
from deckgen.studio.cards import SIZE_NAMES
from deckgen.studio.printing import PRINTER_NAMES, games_for, print_problems
from deckgen.studio.project import EDITABLE_KEYS, StudioProject, sample_items

DE = {"accept-language": "de-DE,de;q=0.9"}
EN = {"accept-language": "en-GB,en;q=0.9"}
COMMAND_LINE = re.compile(r"--\w|faces\.|\bkey\b|\[\d+\]|\.toml|value-\d-[0-9a-f]{6}")


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_message_and_name_exists_in_both_languages() -> None:
    for table in (i18n.MESSAGES, i18n.FIELD_LABELS, PRINTER_NAMES, SIZE_NAMES):
        for msg_id, texts in table.items():
            assert set(texts) == {"de", "en"}, msg_id
            assert _fields(texts["de"]) == _fields(texts["en"]), msg_id
    for key in EDITABLE_KEYS:
        assert key in i18n.FIELD_LABELS, f"name the field {key} in i18n.FIELD_LABELS"
    for preset in all_presets():
        assert preset.name in PRINTER_NAMES, f"name the printer {preset.name} in German"
    assert set(SIZE_NAMES) == set(CARD_SIZES_MM)
    for text in (t for table in (i18n.MESSAGES, i18n.FIELD_LABELS) for t in table.values()):
        assert not COMMAND_LINE.search(text["en"] + text["de"]), text


@pytest.mark.parametrize("module", [i18n, slots, project_module])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0


def test_a_new_deck_follows_the_page_until_the_customer_chooses(project: StudioProject) -> None:
    client = make_client(project)
    client.get("/", headers=DE)
    assert project.get("language") == "de"
    assert project.get("name") == "Unser Domino"
    assert client.get("/api/state", headers=DE).json()["language_follows_page"] is True
    client.get("/", headers=EN)
    assert project.get("language") == "en"
    assert project.get("name") == "Our Domino"
    r = client.post("/api/field", json={"key": "language", "value": "de"}, headers=EN)
    assert r.json()["state"]["language_follows_page"] is False
    client.get("/", headers=EN)
    assert project.get("language") == "de"  # the customer's choice stays
    assert (project.folder / "deck.toml").read_text(encoding="utf-8").count('language = "de"')


def test_a_deck_file_the_studio_opens_keeps_its_language(tmp_path: Path) -> None:
    deck_file = tmp_path / "mine.toml"
    deck_file.write_text(starter_toml("Mine", "double-6", 6, StarterCard()), encoding="utf-8")
    opened = StudioProject.open(deck_file)
    client = make_client(opened)
    client.get("/", headers=DE)
    assert opened.get("language") == "en"
    assert client.get("/api/state").json()["language_follows_page"] is False


@pytest.mark.parametrize(
    ("key", "value", "headers", "expected"),
    [
        ("card.background", "nope", DE, "Kartenfarbe: Das ist keine Farbe. Wähle"),
        ("card.background", "nope", EN, "Card colour: that is not a colour."),
        ("name", "x" * 81, DE, "Name des Spiels: höchstens 80 Zeichen, bitte."),
        ("name", "", DE, "Name des Spiels darf nicht leer sein."),
        ("faces.style", "glitter", DE, "Wie eine Hälfte ihre Zahl zeigt: Wähle einen"),
        ("set", "double-99", DE, "Domino-Satz: Wähle einen der angebotenen Domino-Sätze."),
        ("nonsense", 1, DE, "Die Seite wollte etwas ändern, das hier nicht geht."),
    ],
)
def test_refused_values_are_said_in_the_page_language_by_field(
    client: TestClient, key: str, value: Any, headers: dict[str, str], expected: str
) -> None:
    r = client.post("/api/field", json={"key": key, "value": value}, headers=headers)
    assert r.status_code == 400
    message = r.json()["errors"][key]
    assert message.startswith(expected), message
    assert not COMMAND_LINE.search(message), message


def test_an_upload_error_names_the_slot_and_the_customers_file_in_german(
    client: TestClient,
) -> None:
    r = client.put(
        "/api/picture/value-3",
        content=b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01"
        b"\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;",
        headers={"x-file-name": "Opa%20am%20See.gif", **DE},
    )
    message = r.json()["errors"]["faces.pictures[2]"]
    assert message.startswith("Zahl 3: „Opa am See.gif“ ist kein Bild"), message
    assert "GIF-Datei" in message
    assert "upload-" not in message


def test_the_original_file_name_is_kept_and_shown(
    client: TestClient, project: StudioProject
) -> None:
    client.put(
        "/api/picture/value-1",
        content=photo((1000, 800)),
        headers={"x-file-name": "Oma%20beim%20Backen.jpg"},
    )
    state = client.post("/api/crop/value-1", json={"focus": [0.1, 0.1], "zoom": 2}).json()["state"]
    assert state["slots"]["value-1"]["file"] == "Oma beim Backen.jpg"
    # the crop tells the card where the subject is, within the crop
    ref = project.get("faces.pictures")[0]
    assert ref["file"].endswith("-crop.jpg")
    assert ref["focus"] != [0.5, 0.5]
    again = StudioProject.open(project.deck_path)
    assert again.upload_name(ref["file"]) == "Oma beim Backen.jpg"


def test_the_printers_objection_names_the_slot_and_the_file(
    client: TestClient, project: StudioProject
) -> None:
    client.put(
        "/api/picture/value-6", content=photo((120, 120)), headers={"x-file-name": "klein.jpg"}
    )
    slots = client.get("/api/state").json()["slots"]
    texts = [m.text("de") for m in print_problems(project, slots)]
    assert len(texts) == 1
    assert texts[0].startswith("Zahl 6: dein Bild „klein.jpg“ wird mit"), texts
    assert "Nimm ein Bild mit mindestens" in texts[0]
    english = print_problems(project, slots)[0].text("en")
    assert english.startswith("Number 6: your picture 'klein.jpg' prints at"), english
    assert not COMMAND_LINE.search(english + texts[0])


def test_the_rules_menu_offers_only_games_for_the_decks_set(
    client: TestClient, project: StudioProject
) -> None:
    assert [g for g, _ in games_for(7, "de")] == ["card-domino"]
    assert "all-fives" in [g for g, _ in games_for(6, "en")]
    page = client.get("/", headers=DE).text
    menu = page[page.index('data-key="imprint.rules"') :]
    menu = menu[: menu.index("</select>")]
    assert "Karten-Domino" in menu
    assert "Mexikanischer Zug" not in menu
    assert "card-domino)" not in menu  # no ids, only the game's name
    client.post("/api/field", json={"key": "set", "value": "double-12"})
    page = client.get("/", headers=DE).text
    assert "Mexikanischer Zug" in page
    assert "Karten-Domino" not in page


def test_the_sample_checklist_lists_what_is_left(
    client: TestClient, project: StudioProject
) -> None:
    state = client.get("/api/state", headers=DE).json()
    texts = [s["text"] for s in state["samples"]]
    assert "Zahl 1: noch das Beispielbild" in texts
    assert "Zahl 7: noch das Beispielbild" in texts
    # for a printer, the sample pictures stop the print files; the sample name does not
    blocking = {s["key"]: s["blocking"] for s in state["samples"]}
    assert blocking["faces.pictures[0]"] is True
    assert blocking["name"] is False
    client.post("/api/field", json={"key": "profile", "value": ""})
    assert not any(s["blocking"] for s in client.get("/api/state").json()["samples"])
    client.post("/api/field", json={"key": "profile", "value": "meinspiel"})
    assert "Titelbild: noch das Beispielbild" in texts
    assert "Logo: noch das Beispielbild" in texts
    assert "Name des Spiels: noch der Beispieltext" in texts
    assert len(texts) == 7 + 3
    # pips only: the sample pictures are not printed, so they are not listed
    client.post("/api/field", json={"key": "faces.style", "value": "pips"})
    assert len(sample_items(project)) == 3
    client.post("/api/field", json={"key": "faces.style", "value": "pictures+pips"})
    for v in range(1, 8):
        client.put(f"/api/picture/value-{v}", content=photo(), headers={"x-file-name": "a.jpg"})
    client.put("/api/picture/cover", content=photo(), headers={"x-file-name": "c.jpg"})
    client.delete("/api/picture/logo")
    client.post("/api/field", json={"key": "name", "value": "Familie Müller"})
    assert client.get("/api/state").json()["samples"] == []


@pytest.mark.parametrize(
    ("focus", "zoom", "corner"),
    [
        ((0.5, 0.5), 1.0, "top-left"),
        ((0.2, 0.2), 2.0, "bottom-right"),
        ((0.9, 0.9), 2.0, "top-left"),
    ],
)
def test_the_badge_corner_for_the_crop_editor(
    client: TestClient, focus: tuple[float, float], zoom: float, corner: str
) -> None:
    client.put("/api/picture/value-2", content=photo((800, 800)), headers={"x-file-name": "a.jpg"})
    r = client.post("/api/badge/value-2", json={"focus": list(focus), "zoom": zoom})
    assert r.json()["corner"] == corner


def test_no_badge_without_pips_on_pictures(client: TestClient) -> None:
    client.post("/api/field", json={"key": "faces.style", "value": "pictures"})
    r = client.post("/api/badge/value-2", json={"focus": [0.2, 0.2], "zoom": 1})
    assert r.json()["corner"] is None
    assert client.get("/api/state").json()["slots"]["value-2"]["badge"] is None


def test_the_previews_notes_are_in_the_page_language() -> None:
    note = i18n.note_text(
        "the imprint card's text does not fit even at 6 pt and is cut short "
        "(x.toml, keys imprint.text / imprint.rules): shorten it",
        "de",
    )
    assert (
        note == "Der Text der Impressumskarte passt nicht und wird abgeschnitten. Kürze den Text."
    )
    low = i18n.note_text("a.jpg (faces.pictures[0]) prints at 150 dpi on tile 1-1, below", "en")
    assert low.startswith("A picture prints at 150 ppi on this card")


def test_other_objections_of_the_printer_are_said_by_rule(
    project: StudioProject, client: TestClient
) -> None:
    from deckgen.prepress.contract import RULES

    refusal = (
        f"the deck breaks 2 rules of meinspiel: {RULES['line-not-k-only']}: the back "
        f"(back.pdf page 1): a thin line; {RULES['ink-over-limit']}: the cover (x)"
    )
    slots = client.get("/api/state").json()["slots"]
    texts = [m.text("de") for m in print_problems(project, slots, refusal)]
    assert len(texts) == 2, texts
    assert texts[0].startswith("Manche dunklen Flächen brauchen mehr Farbe"), texts
    assert texts[1].startswith("Manche dünnen Linien oder kleine Schrift in Grau"), texts
    assert "MeinSpiel (59 × 91 mm)" in texts[1]
    unknown = print_problems(project, slots, "something new")[0].text("en")
    assert unknown.startswith("The deck does not meet every requirement of MeinSpiel")


def test_every_message_the_page_asks_for_exists() -> None:
    from deckgen.studio.app import PACKAGE

    text = (PACKAGE / "templates" / "page.html.j2").read_text(encoding="utf-8")
    asked = set(re.findall(r"""say\(["']([a-z_]+)["']""", text))
    assert asked
    assert asked <= set(i18n.MESSAGES), asked - set(i18n.MESSAGES)


def test_a_card_that_cannot_be_drawn_names_the_picture_in_german(
    project: StudioProject, client: TestClient
) -> None:
    from deckgen.studio.slots import parse_slot
    from tests.hostile.jpegscans import progressive_jpeg

    (project.folder / "Scan.jpg").write_bytes(progressive_jpeg(640, 480, refinements=3))
    project.set_picture(parse_slot("value-3", project.max_pip), "Scan.jpg")
    card = client.get("/api/card/3-3.png", headers=DE)
    assert card.status_code == 400
    message = card.json()["errors"]["_"]
    assert message.startswith("Zahl 3: „Scan.jpg“ ist ein JPEG, das in"), message
    assert not COMMAND_LINE.search(message), message


def test_a_set_the_chosen_rules_cannot_play_is_refused_in_words(
    client: TestClient, project: StudioProject
) -> None:
    client.post("/api/field", json={"key": "imprint.rules", "value": "card-domino"})
    r = client.post("/api/field", json={"key": "set", "value": "double-6"}, headers=DE)
    assert r.status_code == 400
    message = r.json()["errors"]["set"]
    assert message.startswith("Die Kurzregeln auf der Impressumskarte sind die von Karten-Domino")
    assert project.get("set") == "double-7"


def test_print_files_with_sample_content_for_a_printer_are_refused_in_words(
    client: TestClient, project: StudioProject
) -> None:
    r = client.get("/download/print.zip", headers=DE)
    assert r.status_code == 409
    message = r.json()["errors"]["_"]
    assert message.startswith("Im Spiel ist noch Beispielinhalt; ersetze oder entferne ihn")
    assert "Zahl 1: noch das Beispielbild" in message
    assert "Logo: noch das Beispielbild" in message
    assert not COMMAND_LINE.search(message), message
    assert not (project.folder / "print" / "cards.pdf").exists()
