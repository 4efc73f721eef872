"""Portrait photos keep their upper third (heads) unless the deck file names a focus."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from deckgen.deck.render import render_cards
from deckgen.deck.spec import load_deck

RED = (220, 30, 30)


def _portrait(path: Path) -> None:
    """A tall photo: a red 'head' band at 20-38 % of its height, blue elsewhere."""
    image = Image.new("RGB", (400, 1200), (40, 60, 200))
    for y in range(240, 456):
        for x in range(400):
            image.putpixel((x, y), RED)
    image.save(path)


def _red_share(deck_file: Path) -> float:
    deck = load_deck(deck_file)
    (png,) = render_cards(deck, ["cover"], fmt="png", dpi=60)
    import io

    image = Image.open(io.BytesIO(png)).convert("RGB")
    top = image.crop((0, 0, image.width, int(image.height * 0.38)))  # the cover picture
    data = top.tobytes()
    pixels = [data[i : i + 3] for i in range(0, len(data), 3)]
    red = sum(1 for r, g, b in pixels if r > 180 and g < 90 and b < 90)
    return red / len(pixels)


def _deck(folder: Path, picture: str) -> Path:
    path = folder / f"deck-{abs(hash(picture))}.toml"
    path.write_text(
        f'name = "Focus"\nset = "double-3"\n[cover]\npicture = {picture}\n', encoding="utf-8"
    )
    return path


def test_portrait_keeps_its_upper_third_by_default(tmp_path: Path) -> None:
    _portrait(tmp_path / "tall.png")
    default = _red_share(_deck(tmp_path, '"tall.png"'))
    centred = _red_share(_deck(tmp_path, '{ file = "tall.png", focus = [0.5, 0.5] }'))
    top = _red_share(_deck(tmp_path, '{ file = "tall.png", focus = [0.5, 0.0] }'))
    assert default > 0.25, default  # the head is in view
    assert centred < default / 3, (centred, default)  # an explicit centre focus is obeyed
    assert top < default / 3, (top, default)  # and so is a focus at the very top
