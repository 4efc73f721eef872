"""Card drawing as pictures a person can read (in the manner of WeasyPrint's tests/draw/).

A tiny card (35 x 50 mm, 3 mm bleed, 3 mm safe zone, square corners) is drawn in a few
plain colours, rendered at a low resolution and written as one character per pixel:

    ``.`` card background (blue)   `` `` tile face (white)   ``#`` black
    ``+`` grey (a black line's edge)   ``o`` pip (red)   ``g`` picture (green, on cards
    with pictures only)

each row framed by ``|``, and compared with the expected picture in the test; a
failure prints both pictures.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

PALETTE = {
    ".": (30, 60, 200),
    " ": (255, 255, 255),
    "#": (0, 0, 0),
    "+": (140, 140, 140),
    "o": (220, 30, 30),
    "g": (40, 170, 60),
}
MM_PER_INCH = 25.4

DECK = """\
name = "Ascii"
set = "double-3"
[card]
size = "35 x 50"
bleed_mm = 3
safe_mm = 3
corner_radius_mm = 0
corner_index = {corner_index}
background = "#1e3cc8"
[faces]
style = "{style}"
tile_colour = "#ffffff"
tile_edge = "#000000"
pip_colours = "mono"
ink = "#dc1e1e"
pictures = ["green.png", "green.png", "green.png"]
"""


def _char(rgb: tuple[int, int, int], chars: str) -> str:
    """The character of the palette colour nearest to ``rgb``."""
    return min(chars, key=lambda c: sum((a - b) ** 2 for a, b in zip(PALETTE[c], rgb, strict=True)))


def card_pixels(
    folder: Path,
    *,
    card: str,
    px_per_mm: float,
    style: str = "pips",
    corner_index: bool = False,
    box: tuple[int, int, int, int] | None = None,
) -> str:
    """The page of ``card`` (bleed included) as characters, one per pixel (cropped to ``box``)."""
    from deckgen.deck.cards import select_cards
    from deckgen.deck.render import rasterize_pages, render_pdf
    from deckgen.deck.spec import load_deck

    Image.new("RGB", (200, 200), PALETTE["g"]).save(folder / "green.png")
    deck_file = folder / "ascii.toml"
    text = DECK.format(style=style, corner_index=str(corner_index).lower())
    deck_file.write_text(text, encoding="utf-8")
    deck = load_deck(deck_file)
    pdf = render_pdf(deck, select_cards(deck, [card])).data
    image = rasterize_pages(pdf, dpi=px_per_mm * MM_PER_INCH)[0]
    if box is not None:
        image = image.crop(box)
    chars = "".join(PALETTE) if "pictures" in style else ". #+o"
    return "\n".join(
        "|" + "".join(_char(image.getpixel((x, y)), chars) for x in range(image.width)) + "|"  # type: ignore[arg-type]
        for y in range(image.height)
    )


def assert_picture(actual: str, expected: str) -> None:
    want = "\n".join(line for line in expected.strip("\n").splitlines())
    if actual != want:
        pytest.fail(f"the drawing differs.\nexpected:\n{want}\n\nactual:\n{actual}", pytrace=False)


def test_pips_of_a_tile_lie_where_the_classic_layout_puts_them(tmp_path: Path) -> None:
    """Tile 2-3, 1 px per mm, cropped to the tile: two pips on a diagonal, the divider
    (black with grey edges), three pips on the other diagonal and the tile's edge."""
    actual = card_pixels(tmp_path, card="2-3", px_per_mm=1, box=(10, 7, 32, 51))
    assert_picture(
        actual,
        """
|.#++++++++++++++++++#.|
|#                    #|
|#                o+  #|
|#               ooo+ #|
|#               ooo+ #|
|#                o+  #|
|#                    #|
|#                    #|
|#                    #|
|#                    #|
|#                    #|
|#                    #|
|#                    #|
|#                    #|
|#                    #|
|#                    #|
|#  ooo               #|
|# +ooo               #|
|#  oo+               #|
|#                    #|
|#         ++         #|
|# +#######++#######+ #|
|#         ++         #|
|#                    #|
|#               +oo  #|
|#               ooo+ #|
|#               ooo  #|
|#                    #|
|#                    #|
|#                    #|
|#         ++         #|
|#        +oo+        #|
|#        oooo        #|
|#         oo         #|
|#                    #|
|#                    #|
|#                    #|
|#  +o                #|
|# +ooo               #|
|# +ooo               #|
|#  ++                #|
|#                    #|
|.#++++++++++++++++++##|
|..##################..|
""",
    )


def test_the_badge_shows_the_value_in_small_pips_on_the_picture(tmp_path: Path) -> None:
    """Style pictures+pips, 2 px per mm, the top half of tile 2-3: the picture (green)
    with a white badge in its upper left corner that carries the value 2 as pips."""
    actual = card_pixels(
        tmp_path, card="2-3", px_per_mm=2, style="pictures+pips", box=(20, 13, 62, 35)
    )
    assert_picture(
        actual,
        """
|....###################################...|
|..##+++++++++++++++++++++++++++++++++++##.|
|.#+                                     +#|
|#+  ++ggggggggggggggggggggggggggggggg++  +|
|#  +gg++++++++++ggggggggggggggggggggggg+  |
|g  g++          ++gggggggggggggggggggggg  |
|+ +g+          o++gggggggggggggggggggggg+ |
|+ +g+         +oo+gggggggggggggggggggggg+ |
|+ +g+          +  +ggggggggggggggggggggg+ |
|+ +g+             +ggggggggggggggggggggg+ |
|+ +g+             +ggggggggggggggggggggg+ |
|+ +g+             +ggggggggggggggggggggg+ |
|+ +g+             +ggggggggggggggggggggg+ |
|+ +g+             +ggggggggggggggggggggg+ |
|+ +g+             +ggggggggggggggggggggg+ |
|+ +g++o           +ggggggggggggggggggggg+ |
|+ +g+oo+         +gggggggggggggggggggggg+ |
|+ +g+++          +gggggggggggggggggggggg+ |
|+ +gg++++++++++++ggggggggggggggggggggggg+ |
|+ +ggggggggggggggggggggggggggggggggggggg+ |
|+ +ggggggggggggggggggggggggggggggggggggg+ |
|+ +ggggggggggggggggggggggggggggggggggggg+ |
""",
    )


def test_the_background_runs_into_the_bleed_and_the_tile_stays_inside(tmp_path: Path) -> None:
    """Tile 0-1, the whole page at 1 px per 2 mm: the card background fills the page to
    its edge (the 3 mm bleed beyond the cut), the tile sits well inside the card."""
    actual = card_pixels(tmp_path, card="0-1", px_per_mm=0.5)
    assert_picture(
        actual,
        """
|.....................|
|.....................|
|.....................|
|.....###########.....|
|.....#         #.....|
|.....+         +.....|
|.....+         +.....|
|.....+         +.....|
|.....+         +.....|
|.....+         +.....|
|.....+         +.....|
|.....+         +.....|
|.....+         +.....|
|.....+         +.....|
|.....+####+####+.....|
|.....+         +.....|
|.....+         +.....|
|.....+         +.....|
|.....+         +.....|
|.....+    o    +.....|
|.....+    o    +.....|
|.....+         +.....|
|.....+         +.....|
|.....+         +.....|
|.....#         #.....|
|.....###########.....|
|.....................|
|.....................|
|.....................|
""",
    )


def test_the_corner_index_starts_at_the_safe_zone(tmp_path: Path) -> None:
    """The top left corner of tile 2-3 at 2 px per mm: 6 px of bleed, 6 px of safe
    margin, then the corner index "2|3" (dark on the background) from row and column
    12 on, inside the safe area rounded with the card's corner; the tile's corner
    below it."""
    actual = card_pixels(tmp_path, card="2-3", px_per_mm=2, corner_index=True, box=(0, 0, 40, 26))
    assert_picture(
        actual,
        """
|........................................|
|........................................|
|........................................|
|........................................|
|........................................|
|........................................|
|........................................|
|........................................|
|........................................|
|........................................|
|........................................|
|........................................|
|.............#....#.....................|
|.............#....#.....................|
|............##....#.....................|
|........................................|
|........................................|
|........................................|
|........................................|
|........................................|
|..........................##############|
|.........................#++            |
|........................#               |
|.......................#+               |
|.......................#                |
|.......................#                |
""",
    )
