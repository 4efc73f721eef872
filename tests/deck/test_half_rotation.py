"""``faces.half_rotation``: the second half's picture reads upright when the card is turned."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from deckgen.deck.render import render_cards
from deckgen.deck.spec import load_deck


def _two_tone(path: Path) -> None:
    """Red above, blue below: which way up it is drawn shows at once."""
    image = Image.new("RGB", (600, 600), (40, 60, 200))
    image.paste((220, 30, 30), (0, 0, 600, 300))
    image.save(path)


def _lower_half_red_on_top(folder: Path, rotate: bool) -> bool:
    deck_file = folder / f"deck-{rotate}.toml"
    deck_file.write_text(
        'name = "Turn"\nset = "double-3"\n[card]\ncorner_index = false\n'
        '[faces]\nstyle = "pictures"\nfit = "contain"\n'
        f"half_rotation = {'true' if rotate else 'false'}\n"
        'pictures = ["tone.png", "tone.png", "tone.png"]\n',
        encoding="utf-8",
    )
    deck = load_deck(deck_file)
    (png,) = render_cards(deck, ["1-1"], fmt="png", dpi=60)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    w, h = image.size
    # the lower half's picture: its upper and lower quarter, sampled on the centre line
    upper = image.getpixel((w // 2, int(h * 0.60)))
    lower = image.getpixel((w // 2, int(h * 0.80)))
    assert isinstance(upper, tuple)
    assert isinstance(lower, tuple)
    red_up = upper[0] > 150 and upper[2] < 100
    red_down = lower[0] > 150 and lower[2] < 100
    assert red_up != red_down, (upper, lower)
    return red_up


def test_half_rotation_turns_the_lower_picture(tmp_path: Path) -> None:
    _two_tone(tmp_path / "tone.png")
    assert _lower_half_red_on_top(tmp_path, rotate=False)
    assert not _lower_half_red_on_top(tmp_path, rotate=True)
