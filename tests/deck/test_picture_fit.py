"""A logo on the cover or the imprint card is never cropped (contain fit), and the
number 0 can have a picture (issue 22, items 1 and 9)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from deck_testkit import count_blobs, half_boxes_px, write_deck
from PIL import Image

from deckgen.deck.render import render_cards
from deckgen.deck.spec import load_deck
from deckgen.errors import DeckgenError

RED = (230, 20, 20)
DPI = 100


def _logo(path: Path, *, transparent: bool) -> None:
    """A wide 3:1 logo: a red square mark in each of its four corners."""
    ground = (0, 0, 0, 0) if transparent else (250, 250, 250, 255)
    logo = Image.new("RGBA", (900, 300), ground)
    logo.paste((40, 40, 120, 255), (300, 100, 600, 200))
    for x, y in ((0, 0), (840, 0), (0, 240), (840, 240)):
        logo.paste((*RED, 255), (x, y, x + 60, y + 60))
    (logo if transparent else logo.convert("RGB")).save(path)


def _red_blobs(png: bytes, box: tuple[float, float, float, float]) -> int:
    """Red marks in ``box`` (shares of the card image: left, top, right, bottom)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    raw = image.tobytes()
    mask = Image.new("RGB", image.size)
    mask.putdata(
        [
            (200, 0, 0) if r > 180 and g < 80 and b < 80 else (255, 255, 255)
            for r, g, b in zip(raw[0::3], raw[1::3], raw[2::3], strict=True)
        ]
    )
    w, h = image.size
    area = (round(box[0] * w), round(box[1] * h), round(box[2] * w), round(box[3] * h))
    return count_blobs(mask, area, (255, 255, 255))


def _cover(tmp_path: Path, cover: dict[str, object], *, back_logo: bool = False) -> bytes:
    data: dict[str, object] = {"name": "Logo", "set": "double-1", "cover": cover}
    if back_logo:
        data["back"] = {"logo": "logo.png"}
    deck = write_deck(tmp_path, data, name=f"deck{abs(hash(repr(data)))}.toml")
    (png,) = render_cards(load_deck(deck), ["cover"], fmt="png", dpi=DPI)
    return png


def test_a_transparent_logo_on_the_cover_shows_all_four_corner_marks(tmp_path: Path) -> None:
    _logo(tmp_path / "logo.png", transparent=True)
    png = _cover(tmp_path, {"picture": "logo.png"})
    Image.open(io.BytesIO(png)).save(tmp_path / "cover.png")
    assert _red_blobs(png, (0, 0, 1, 0.6)) == 4, "the logo is cropped on the cover"
    # a cover fit asked for in the deck file still crops it (only two marks stay)
    assert _red_blobs(_cover(tmp_path, {"picture": "logo.png", "fit": "cover"}), (0, 0, 1, 0.6)) < 4


def test_the_backs_logo_on_the_cover_is_contained(tmp_path: Path) -> None:
    _logo(tmp_path / "logo.png", transparent=False)
    png = _cover(tmp_path, {"picture": "logo.png"}, back_logo=True)
    assert _red_blobs(png, (0, 0, 1, 0.6)) == 4
    # an opaque photo that is not the logo is still cropped to fill the box
    assert _red_blobs(_cover(tmp_path, {"picture": "logo.png"}), (0, 0, 1, 0.6)) < 4


def test_the_imprint_logo_shows_all_four_corner_marks(tmp_path: Path) -> None:
    _logo(tmp_path / "logo.png", transparent=False)
    deck = write_deck(
        tmp_path, {"name": "Logo", "set": "double-1", "imprint": {"picture": "logo.png"}}
    )
    (png,) = render_cards(load_deck(deck), ["imprint"], fmt="png", dpi=DPI)
    assert _red_blobs(png, (0, 0, 1, 0.5)) == 4


def _zero_deck(tmp_path: Path, style: str, zero: bool) -> Path:
    Image.new("RGB", (300, 300), (30, 60, 220)).save(tmp_path / "one.png")
    Image.new("RGB", (300, 300), (30, 170, 40)).save(tmp_path / "zero.png")
    faces: dict[str, object] = {"style": style, "pictures": ["one.png"]}
    if zero:
        faces["zero_picture"] = "zero.png"
    return write_deck(
        tmp_path,
        {"name": "Zero", "set": "double-1", "card": {"corner_index": False}, "faces": faces},
        name=f"{style}-{zero}.toml",
    )


def _half_colour(png: bytes, deck_file: Path, index: int) -> tuple[int, int, int]:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    x0, y0, x1, y1 = half_boxes_px(load_deck(deck_file), DPI, inset=0.2)[index]
    # the half's lower right part (clear of a pip badge in either corner)
    colour = image.resize((1, 1), box=(x0 + (x1 - x0) // 2, y0 + (y1 - y0) // 2, x1, y1))
    r, g, b = colour.getpixel((0, 0))  # type: ignore[misc]
    return (r, g, b)


@pytest.mark.parametrize("style", ["pictures", "pictures+pips"])
def test_zero_shows_its_picture_in_every_picture_style(tmp_path: Path, style: str) -> None:
    deck_file = _zero_deck(tmp_path, style, zero=True)
    (png,) = render_cards(load_deck(deck_file), ["0-1"], fmt="png", dpi=DPI)
    colours = [_half_colour(png, deck_file, i) for i in (0, 1)]
    green = [c for c in colours if c[1] > 140 and c[0] < 80 and c[2] < 80]
    blue = [c for c in colours if c[2] > 180 and c[0] < 80]
    assert len(green) == 1, f"the half of 0 does not show its picture: {colours}"
    assert len(blue) == 1, colours
    # without the picture for 0 that half stays blank (the tile colour)
    deck_file = _zero_deck(tmp_path, style, zero=False)
    (png,) = render_cards(load_deck(deck_file), ["0-1"], fmt="png", dpi=DPI)
    colours = [_half_colour(png, deck_file, i) for i in (0, 1)]
    assert sum(1 for c in colours if min(c) > 225) == 1, colours


def test_a_missing_picture_for_zero_is_an_error_naming_the_key(tmp_path: Path) -> None:
    deck_file = _zero_deck(tmp_path, "pictures", zero=True)
    (tmp_path / "zero.png").unlink()
    with pytest.raises(DeckgenError) as caught:
        load_deck(deck_file)
    assert "faces.zero_picture" in str(caught.value.where) + str(caught.value)


def test_a_picture_for_zero_that_is_a_number_is_refused(tmp_path: Path) -> None:
    deck_file = write_deck(
        tmp_path,
        {"name": "Zero", "set": "double-1", "faces": {"style": "pictures", "zero_picture": 3}},
    )
    with pytest.raises(DeckgenError, match="zero_picture"):
        load_deck(deck_file)
