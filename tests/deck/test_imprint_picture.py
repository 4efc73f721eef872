"""``imprint.picture``: a logo or photo on the imprint card that never overlaps the text.

Checked with pixels: the card is rendered to PDF, rasterised with pypdfium2, and the
picture's pixels (pure red) and the text's pixels (dark ink) are found on the page.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from deck_testkit import render_page, write_deck
from numpy.typing import NDArray
from PIL import Image

from deckgen.deck.geometry import MM
from deckgen.deck.render import render_cards
from deckgen.deck.spec import load_deck
from deckgen.errors import ResourceError
from deckgen.product import load_printed_deck
from deckgen.resources import images_dir

DPI = 150.0


def _rows(mask: NDArray[np.bool_]) -> tuple[int, int]:
    rows = np.flatnonzero(mask.any(axis=1))
    assert rows.size, "nothing found"
    return int(rows[0]), int(rows[-1])


def _cols(mask: NDArray[np.bool_]) -> tuple[int, int]:
    cols = np.flatnonzero(mask.any(axis=0))
    return int(cols[0]), int(cols[-1])


def _red_and_ink(pdf: bytes) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    px = np.asarray(render_page(pdf, 0, DPI)).astype(int)
    red = (px[..., 0] > 200) & (px[..., 1] < 60) & (px[..., 2] < 60)
    ink = (px[..., 0] < 110) & (px[..., 1] < 110) & (px[..., 2] < 110)
    return red, ink


def _safe_px(deck_file: Path) -> tuple[float, float, float, float]:
    """The safe area (left, top, right, bottom) in page pixels."""
    deck = load_deck(deck_file)
    k = DPI / 72 * MM
    inset = (deck.bleed_mm + deck.safe_mm) * k
    return (
        inset,
        inset,
        (deck.width_mm + 2 * deck.bleed_mm) * k - inset,
        (deck.height_mm + 2 * deck.bleed_mm) * k - inset,
    )


def _deck_with_picture(folder: Path, text: str, rules: str = "") -> Path:
    Image.new("RGB", (600, 300), (255, 0, 0)).save(folder / "logo.png")
    imprint = {"text": text, "picture": "logo.png"}
    if rules:
        imprint["rules"] = rules
    return write_deck(folder, {"name": "Red Logo", "set": "double-6", "imprint": imprint})


def test_picture_sits_above_the_text_inside_the_safe_area(tmp_path: Path) -> None:
    long_text = " ".join(["Made by the Example family in Example Town."] * 25)
    deck_file = _deck_with_picture(tmp_path, long_text)
    red, ink = _red_and_ink(render_cards(deck_file, ["imprint"]))
    red_top, red_bottom = _rows(red)
    red_left, red_right = _cols(red)
    left, top, right, bottom = _safe_px(deck_file)
    assert red_top >= top - 1
    assert red_bottom <= bottom + 1
    assert red_left >= left - 1
    assert red_right <= right + 1
    # contain fit: the 2:1 picture fills its box's height, centred
    assert red_bottom - red_top > 0.26 * (bottom - top)
    assert abs((red_left + red_right) / 2 - (left + right) / 2) < 2
    ink_top, _ = _rows(ink)
    assert ink_top > red_bottom, "text starts inside the picture"
    assert not (ink & red).any()
    # the text fills the room below: it reaches well down the card
    _, ink_bottom = _rows(ink)
    assert ink_bottom > top + 0.8 * (bottom - top)


def test_without_a_picture_the_text_starts_at_the_top(tmp_path: Path) -> None:
    deck_file = write_deck(tmp_path, {"name": "Plain", "set": "double-6", "imprint": {"text": "x"}})
    _, ink = _red_and_ink(render_cards(deck_file, ["imprint"]))
    _, top, _, bottom = _safe_px(deck_file)
    assert _rows(ink)[0] < top + 0.1 * (bottom - top)


def test_short_rules_choose_a_shorter_text_to_leave_the_picture_its_room(
    tmp_path: Path,
) -> None:
    for name in ("value-01.png",):
        shutil.copy(images_dir() / name, tmp_path / name)
    plain = write_deck(
        tmp_path,
        {"name": "Rules", "set": "double-7", "imprint": {"rules": "card-domino"}},
        name="plain.toml",
    )
    with_picture = _deck_with_picture(tmp_path, "", rules="card-domino")
    shutil.move(with_picture, tmp_path / "picture.toml")
    (tmp_path / "picture.toml").write_text(
        (tmp_path / "picture.toml").read_text().replace("double-6", "double-7")
    )
    text_plain = load_printed_deck(plain).spec.imprint.rules
    deck = load_printed_deck(tmp_path / "picture.toml")
    text_picture = deck.spec.imprint.rules
    assert len(text_picture) < len(text_plain)
    pdf = render_cards(deck, ["imprint"], strict_text=True)
    red, ink = _red_and_ink(pdf)
    assert _rows(ink)[0] > _rows(red)[1]


def test_a_missing_imprint_picture_names_its_key(tmp_path: Path) -> None:
    deck_file = write_deck(tmp_path, {"name": "Gone", "imprint": {"picture": "nowhere.png"}})
    with pytest.raises(ResourceError, match=r"imprint\.picture"):
        load_deck(deck_file)
