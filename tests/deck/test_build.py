"""deck build: page count and boxes for every set, byte-identical output, manifest, steps."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import cast

import pypdf
import pytest
from deck_testkit import image_xobjects, render_page, solid_pictures, write_deck

from deckgen.deck.build import BuildContext, build_deck
from deckgen.deck.manifest import OutputFile
from deckgen.deck.render import render_cards
from deckgen.deck.spec import load_deck
from deckgen.progress import CollectingReporter
from deckgen.tiles import DominoSet

MM = 72 / 25.4


@pytest.mark.parametrize("n", range(6, 13))
def test_every_set_page_count_and_boxes(tmp_path: Path, n: int) -> None:
    deck_file = write_deck(
        tmp_path, {"name": f"Set {n}", "set": f"double-{n}", "card": {"size": "poker"}}
    )
    result = build_deck(deck_file, tmp_path / "out", preview=(n == 7))
    reader = pypdf.PdfReader(str(tmp_path / "out" / "cards.pdf"))
    tiles = len(DominoSet(n))
    assert len(reader.pages) == tiles + 2
    bleed = 3 * MM
    for page in (reader.pages[0], reader.pages[-1], reader.pages[tiles // 2]):
        media = [float(v) for v in page.mediabox]
        assert media == pytest.approx([0, 0, 63 * MM + 2 * bleed, 88 * MM + 2 * bleed], abs=0.01)
        assert [float(v) for v in page.bleedbox] == pytest.approx(media, abs=0.01)
        trim = [float(v) for v in page.trimbox]
        assert trim == pytest.approx([bleed, bleed, bleed + 63 * MM, bleed + 88 * MM], abs=0.01)
    back = pypdf.PdfReader(str(tmp_path / "out" / "back.pdf"))
    assert len(back.pages) == 1
    assert [float(v) for v in back.pages[0].trimbox] == pytest.approx(trim, abs=0.01)
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["format_version"] == 1
    assert manifest["set"] == f"double-{n}"
    assert manifest["card"] == {
        "width_mm": 63.0,
        "height_mm": 88.0,
        "bleed_mm": 3.0,
        "safe_mm": 4.0,
        "corner_radius_mm": 3.0,
        "orientation": "upright",
    }
    cards = manifest["cards"]
    assert len(cards) == tiles + 2
    assert cards[0] == {"index": 0, "kind": "cover", "tile": None, "page": 1}
    assert cards[1]["tile"] == "0-0"
    assert cards[-2]["tile"] == f"{n}-{n}"
    assert cards[-1]["kind"] == "imprint"
    assert cards[-1]["page"] == tiles + 2
    kinds = {f["kind"]: f for f in manifest["files"]}
    assert kinds["cards"]["pages"] == tiles + 2
    assert kinds["back"]["pages"] == 1
    assert ("preview" in kinds) == (n == 7)
    assert result.files[-1].name == "manifest.json"


def test_byte_identical_builds(tmp_path: Path) -> None:
    names = solid_pictures(tmp_path, 6)
    deck_file = write_deck(
        tmp_path,
        {
            "name": "Twice",
            "set": "double-6",
            "faces": {"style": "pictures+pips", "pictures": names},
        },
    )
    build_deck(deck_file, tmp_path / "a")
    build_deck(deck_file, tmp_path / "b")
    for name in ("cards.pdf", "back.pdf", "preview.png", "manifest.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_preview_is_a_contact_sheet(tmp_path: Path) -> None:
    from PIL import Image

    deck_file = write_deck(tmp_path, {"name": "Peek", "set": "double-6"})
    from deckgen.deck.build import preview_deck

    path = preview_deck(deck_file, tmp_path / "p.png")
    im = Image.open(path)
    # 30 fronts + 1 back of ~ 59 x 91 mm at 48 dpi
    card_w, card_h = round(59 / 25.4 * 48), round(91 / 25.4 * 48)
    assert im.width * im.height > 31 * card_w * card_h
    # the back (navy, last card) and the cover are on the sheet
    colours = cast(
        "list[tuple[int, tuple[int, int, int]]]", im.convert("RGB").getcolors(1 << 22) or []
    )
    navy = sum(n for n, (r, g, b) in colours if abs(r - 29) + abs(g - 53) + abs(b - 87) < 12)
    assert navy > card_w * card_h  # cover and back are both mostly navy


def test_extension_step_and_imprint_extra(tmp_path: Path) -> None:
    deck_file = write_deck(tmp_path, {"name": "Steps", "set": "double-6"})
    seen: dict[str, object] = {}

    def sheets_step(ctx: BuildContext) -> list[OutputFile]:
        seen["pages"] = ctx.file("cards").pages
        seen["option"] = ctx.options.get("paper")
        seen["has_bytes"] = ctx.file("cards").data is not None
        (ctx.stage / "extra.txt").write_text("made by a step")
        return [OutputFile("extra.txt", "test-extra")]

    result = build_deck(
        deck_file,
        tmp_path / "out",
        extra_steps=[sheets_step],
        options={"paper": "A4"},
        imprint_extra="Match **ends**. First out wins.",
        preview=False,
    )
    assert seen == {"pages": 30, "option": "A4", "has_bytes": True}
    assert (tmp_path / "out" / "extra.txt").read_text() == "made by a step"
    assert "test-extra" in [f["kind"] for f in result.manifest["files"]]
    text = pypdf.PdfReader(str(tmp_path / "out" / "cards.pdf")).pages[-1].extract_text()
    assert "Short rules" in text
    assert "First out wins" in text


def test_failed_build_writes_nothing(tmp_path: Path) -> None:
    names = solid_pictures(tmp_path, 6)
    (tmp_path / names[-1]).write_bytes(b"not a picture at all")
    deck_file = write_deck(
        tmp_path,
        {"name": "Broken", "set": "double-6", "faces": {"style": "pictures", "pictures": names}},
    )
    out = tmp_path / "out"
    with pytest.raises(Exception, match="not a picture") as info:
        build_deck(deck_file, out)
    assert "not a picture" in str(info.value)
    assert not out.exists() or not any(out.iterdir())


def test_each_picture_embedded_once(tmp_path: Path) -> None:
    from PIL import Image

    names = solid_pictures(tmp_path, 7)
    Image.new("RGBA", (400, 400), (200, 30, 30, 128)).save(tmp_path / "logo.png")
    Image.new("RGB", (900, 700), (20, 90, 20)).save(tmp_path / "cover.jpg")
    deck_file = write_deck(
        tmp_path,
        {
            "name": "Once",
            "set": "double-7",
            "faces": {"style": "pictures", "pictures": names},
            "back": {"logo": "logo.png"},
            "cover": {"picture": "cover.jpg"},
        },
    )
    result = build_deck(deck_file, tmp_path / "out", preview=False)
    assert image_xobjects((tmp_path / "out" / "cards.pdf").read_bytes()) == 8
    assert image_xobjects((tmp_path / "out" / "back.pdf").read_bytes()) == 1
    assert result.pictures_decoded == 9


def test_value_pictures_on_the_right_halves(tmp_path: Path) -> None:
    from deck_testkit import SOLID, half_boxes_px, mean_colour

    names = solid_pictures(tmp_path, 6, fmt="JPEG")
    deck_file = write_deck(
        tmp_path,
        {"name": "Pics", "set": "double-6", "faces": {"style": "pictures", "pictures": names}},
    )
    deck = load_deck(deck_file)
    cards = ["0-3", "1-2", "4-6", "5-5", "2-6"]
    pdf = render_cards(deck, cards, fmt="pdf", picture_dpi=100)
    assert isinstance(pdf, bytes)
    boxes = half_boxes_px(deck, 50, inset=0.0)
    for page, name in enumerate(cards):
        im = render_page(pdf, page, 50)
        values = [int(v) for v in name.split("-")]
        for value, (x0, y0, x1, y1) in zip(values, boxes, strict=True):
            got = mean_colour(im, (x0 + x1) // 2, (y0 + y1) // 2)
            want = SOLID[value - 1] if value else (255, 253, 247)
            assert sum(abs(a - b) for a, b in zip(got, want, strict=True)) < 25, (name, value, got)


def test_render_cards_png_for_the_booklet(tmp_path: Path) -> None:
    from PIL import Image

    deck_file = write_deck(tmp_path, {"name": "Booklet", "set": "double-6"})
    pngs = render_cards(deck_file, ["3-5", "cover"], fmt="png", dpi=72)
    assert isinstance(pngs, list)
    assert len(pngs) == 2
    im = Image.open(io.BytesIO(pngs[0]))
    assert abs(im.width - 59 / 25.4 * 72) <= 1
    assert abs(im.height - 91 / 25.4 * 72) <= 1


def test_text_fit_warns_or_fails_strictly(tmp_path: Path) -> None:
    from deckgen.errors import SpecError

    long_text = "Lorem ipsum dolor sit amet. " * 400
    deck_file = write_deck(
        tmp_path, {"name": "Wordy", "set": "double-6", "imprint": {"text": long_text[:5900]}}
    )
    reporter = CollectingReporter()
    build_deck(deck_file, tmp_path / "out", reporter=reporter, preview=False)
    assert any("imprint card" in w and "does not fit" in w for w in reporter.warnings)
    with pytest.raises(SpecError, match="does not fit at the minimum readable size 6 pt"):
        build_deck(deck_file, tmp_path / "out2", strict_text=True)
    with pytest.raises(SpecError, match="minimum readable size"):
        render_cards(deck_file, ["imprint"], strict_text=True)


def test_markup_is_not_html(tmp_path: Path) -> None:
    deck_file = write_deck(
        tmp_path,
        {
            "name": "Safe",
            "set": "double-6",
            "imprint": {"text": "<script>x</script> **Bold** <b>b</b>"},
        },
    )
    pdf = render_cards(deck_file, ["imprint"])
    assert isinstance(pdf, bytes)
    text = pypdf.PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert "<script>x</script>" in text
    assert "<b>b</b>" in text
    assert "**" not in text
