"""``deck showcase``: a PNG of the chosen size, drawn from the deck's own card renders."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.deck.spec import load_deck
from deckgen.export.showcase import STYLES, ShowcaseSize, Style, showcase_png

DECK = """
name = "Show"
set = "{set}"
[cover]
background = "#ff00ff"
[back]
background = "#00c000"
pattern = "none"
"""


def _share(im: Image.Image, colour: tuple[int, int, int], tolerance: int = 40) -> float:
    px = np.asarray(im.convert("RGB")).astype(int)
    close = np.abs(px - np.array(colour)).sum(axis=2) < tolerance
    return float(close.mean())


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("set_name", ["double-2", "double-9"])
def test_showcase_shows_the_real_cover_and_back(
    tmp_path: Path, style: Style, set_name: str
) -> None:
    (tmp_path / "d.toml").write_text(DECK.format(set=set_name))
    deck = load_deck(tmp_path / "d.toml")
    png = showcase_png(deck, style, ShowcaseSize(640, 400))
    im = Image.open(BytesIO(png))
    assert im.format == "PNG"
    assert im.size == (640, 400)
    assert _share(im, (255, 0, 255)) > 0.005  # the cover card (or the box in its colour)
    if style != "box" or set_name == "double-9":
        assert _share(im, (0, 192, 0)) > 0.003  # a back
    ivory = _share(im, (239, 231, 216), 30)  # card background of the tile cards
    assert ivory > 0.02


def test_showcase_is_deterministic_and_the_cli_writes_it(tmp_path: Path) -> None:
    (tmp_path / "d.toml").write_text(DECK.format(set="double-6"))
    deck = load_deck(tmp_path / "d.toml")
    first = showcase_png(deck, "table", ShowcaseSize(480, 270))
    assert showcase_png(deck, "table", ShowcaseSize(480, 270)) == first
    out = tmp_path / "s.png"
    result = CliRunner().invoke(
        app,
        [
            "deck",
            "showcase",
            str(tmp_path / "d.toml"),
            "--style",
            "table",
            "--width",
            "480",
            "--out",
            str(out),
            "-q",
        ],
    )
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == first
    bad = CliRunner().invoke(app, ["deck", "showcase", str(tmp_path / "d.toml"), "--style", "x"])
    assert bad.exit_code == 2
