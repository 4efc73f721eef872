"""``deck showcase``: a marketing picture of a deck, drawn from its real card renders.

Takes a loaded deck, a style and a size; gives PNG bytes. The cards are the deck's own
pages (rendered to PDF as for print, rasterised and cut to the card with its rounded
corners), laid on a felt table lit from the middle, each with a soft shadow:

- ``hand``: a fanned hand of seven tiles held over the table, the cover beside it;
- ``table``: a domino line being played, with matching halves touching and the
  doubles across, the face-down stock and the cover;
- ``box``: the box: the cover on the front of a tuck box with its sides, a few cards
  fanned out behind it.

The layout is deterministic: the same deck and size give the same picture.

The size is bounded (:data:`MAX_SHOWCASE_PIXELS`): the table cloth, the shadows and the
card renders grow with the picture (8000 x 8000 took over a minute and 3.5 GB); a
larger size is refused before anything is drawn.
"""

from __future__ import annotations

import io
import itertools
import math
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from deckgen.export.cardimages import card_height_px, card_images

if TYPE_CHECKING:
    from PIL import Image as PILImage

    from deckgen.deck.cards import CardRef
    from deckgen.deck.spec import LoadedDeck

Style = Literal["hand", "table", "box"]
STYLES: tuple[Style, ...] = ("hand", "table", "box")
PICTURE_DPI = 200
RGB = tuple[int, int, int]


MAX_SHOWCASE_PIXELS = 3840 * 2160
"""The largest showcase picture drawn: a 4K screen's pixels (8.3 megapixels; about
450 MB of memory, where 16 megapixels took 900 MB and 8000 x 8000 3.5 GB)."""


@dataclass(frozen=True)
class ShowcaseSize:
    width_px: int = 1600
    height_px: int = 900


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _felt(deck: LoadedDeck, size: ShowcaseSize) -> PILImage.Image:
    """A table cloth in a deep shade of the deck's back colour, lit from the middle."""
    import numpy as np
    from PIL import Image

    from deckgen.deck.colour import parse_colour

    base = parse_colour(deck.spec.back.background)
    dark = _mix(base, (12, 14, 18), 0.72)
    light = _mix(base, (40, 44, 50), 0.45)
    w, h = size.width_px, size.height_px
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    d = np.sqrt(((x - w * 0.5) / (w * 0.62)) ** 2 + ((y - h * 0.42) / (h * 0.75)) ** 2)
    t = np.clip(d, 0.0, 1.0)[..., None] ** 1.6
    rgb = np.array(light, np.float32) * (1 - t) + np.array(dark, np.float32) * t
    grain = np.random.default_rng(7).normal(0.0, 3.0, (h, w, 1)).astype(np.float32)
    rgb = np.clip(rgb + grain, 0, 255).astype(np.uint8)
    return Image.fromarray(rgb, "RGB")


def _rounded(card: PILImage.Image, radius_px: float) -> PILImage.Image:
    """The card with its die-cut rounded corners (smooth alpha edge)."""
    from PIL import Image, ImageDraw

    ss = 4
    mask = Image.new("L", (card.width * ss, card.height * ss), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, mask.width - 1, mask.height - 1), radius=max(0, round(radius_px * ss)), fill=255
    )
    out = card.convert("RGBA")
    out.putalpha(mask.resize(card.size, Image.Resampling.LANCZOS))
    return out


def _place(
    canvas: PILImage.Image,
    card: PILImage.Image,
    centre: tuple[float, float],
    angle: float = 0.0,
    lift: float = 1.0,
) -> None:
    """Paste an RGBA card at ``centre``, turned ``angle`` degrees, over its soft shadow."""
    from PIL import Image, ImageFilter

    turned = card.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
    blur = max(2.0, card.width * 0.035 * lift)
    pad = int(blur * 3)
    alpha = turned.getchannel("A")
    shadow = Image.new("L", (turned.width + 2 * pad, turned.height + 2 * pad), 0)
    shadow.paste(alpha.point(lambda a: int(a * 0.55)), (pad, pad))
    shadow = shadow.filter(ImageFilter.GaussianBlur(blur))
    off = card.width * 0.03 * lift
    x = round(centre[0] - turned.width / 2)
    y = round(centre[1] - turned.height / 2)
    black = Image.new("RGB", shadow.size, (0, 0, 0))
    canvas.paste(black, (x - pad + round(off * 0.6), y - pad + round(off)), shadow)
    canvas.paste(turned, (x, y), turned)


@dataclass(frozen=True)
class _Cards:
    """The renders a showcase needs: chosen fronts (by tile or kind) and the back."""

    fronts: dict[str, PILImage.Image]
    back: PILImage.Image
    width_px: int
    height_px: int


def _label(card: CardRef) -> str:
    return str(card.tile) if card.tile is not None else card.kind


def _render(deck: LoadedDeck, wanted: list[CardRef], width_px: int) -> _Cards:
    from deckgen.deck.render import render_pdf

    fronts_pdf = render_pdf(deck, wanted, dpi=PICTURE_DPI).data
    back_pdf = render_pdf(deck, back=True, dpi=PICTURE_DPI).data
    radius = deck.corner_radius_mm / deck.width_mm * width_px
    fronts = {
        _label(card): _rounded(im, radius)
        for card, im in zip(wanted, card_images(deck, fronts_pdf, width_px), strict=True)
    }
    (back,) = card_images(deck, back_pdf, width_px)
    return _Cards(fronts, _rounded(back, radius), width_px, card_height_px(deck, width_px))


def _tile_card(deck: LoadedDeck, a: int, b: int) -> CardRef:
    from deckgen.deck.cards import deck_cards
    from deckgen.tiles import Tile

    tile = Tile(min(a, b), max(a, b))
    return next(c for c in deck_cards(deck) if c.tile == tile)


def _hand_tiles(deck: LoadedDeck) -> list[tuple[int, int]]:
    """Seven varied tiles, a double in the middle."""
    m = deck.dset.max_pip
    wish = [(1, 3), (2, 5), (4, 6), (m, m), (3, 6), (1, 5), (4, 2)]
    seen: list[tuple[int, int]] = []
    for a, b in wish:
        tile = (min(a % (m + 1), b % (m + 1)), max(a % (m + 1), b % (m + 1)))
        if tile not in seen:
            seen.append(tile)
    return seen


def _line_tiles(deck: LoadedDeck) -> list[tuple[int, int]]:
    """A played line: each tile's left value is the previous tile's right value."""
    m = deck.dset.max_pip
    values = [m, m, max(0, m - 3), 1 % (m + 1), 1 % (m + 1), min(m, 5), 2 % (m + 1)]
    line: list[tuple[int, int]] = []
    used: set[tuple[int, int]] = set()
    for a, b in itertools.pairwise(values):
        key = (min(a, b), max(a, b))
        if key in used:
            break
        used.add(key)
        line.append((a, b))
    return line


def _hand(deck: LoadedDeck, size: ShowcaseSize) -> PILImage.Image:
    from deckgen.deck.cards import deck_cards

    canvas = _felt(deck, size)
    tiles = _hand_tiles(deck)
    ratio = deck.width_mm / deck.height_mm
    width = round(min(size.width_px * 0.155, size.height_px * 0.5 * ratio))
    refs = [_tile_card(deck, a, b) for a, b in tiles]
    cards = _render(deck, [deck_cards(deck)[0], *refs], width)
    h = cards.height_px
    # the stock and the cover, lying on the table at the left
    stock_x, stock_y = size.width_px * 0.15, size.height_px * 0.5
    rng = random.Random(3)
    for i in range(4):
        _place(canvas, cards.back, (stock_x + i * 2, stock_y - i * 3), rng.uniform(-4, 4), 0.6)
    _place(canvas, cards.fronts["cover"], (stock_x + width * 0.4, stock_y + h * 0.1), -8, 0.8)
    # the hand: fanned about a point below the cards, each card over its left neighbour
    radius = h * 1.25
    pivot = (size.width_px * 0.61, size.height_px * 0.44 + radius)
    spread = 12.0
    n = len(refs)
    for i, ref in enumerate(refs):
        angle = (i - (n - 1) / 2) * spread
        cx = pivot[0] + radius * math.sin(math.radians(angle))
        cy = pivot[1] - radius * math.cos(math.radians(angle))
        _place(canvas, cards.fronts[_label(ref)], (cx, cy), -angle, 1.3)
    return canvas


def _table(deck: LoadedDeck, size: ShowcaseSize) -> PILImage.Image:
    from deckgen.deck.cards import deck_cards

    canvas = _felt(deck, size)
    line = _line_tiles(deck)
    doubles = sum(1 for a, b in line if a == b)
    # lengthwise a card spans its height, a double across spans its width
    w_units = (len(line) - doubles) * deck.height_mm + doubles * deck.width_mm
    width = round(min(size.width_px * 0.86 / w_units * deck.width_mm, size.height_px * 0.3))
    refs = [_tile_card(deck, a, b) for a, b in line]
    cards = _render(deck, [deck_cards(deck)[0], *refs], width)
    h = cards.height_px
    total = (len(line) - doubles) * h + doubles * width
    x = (size.width_px - total) / 2
    y = size.height_px * 0.67
    rng = random.Random(5)
    for (a, b), ref in zip(line, refs, strict=True):
        card = cards.fronts[_label(ref)]
        if a == b:
            _place(canvas, card, (x + width / 2, y), rng.uniform(-1.5, 1.5), 0.5)
            x += width
            continue
        # the card's top half shows the lower value; turn it so `a` touches the left
        angle = 90.0 if a < b else -90.0
        _place(
            canvas, card, (x + h / 2, y + rng.uniform(-2, 2)), angle + rng.uniform(-1.5, 1.5), 0.5
        )
        x += h
    stock = (size.width_px * 0.74, size.height_px * 0.29)
    for i in range(5):
        jitter = (rng.uniform(-6, 6), rng.uniform(-4, 4))
        _place(
            canvas,
            cards.back,
            (stock[0] + jitter[0] + i * width * 0.18, stock[1] + jitter[1]),
            rng.uniform(-12, 12),
            0.5,
        )
    _place(canvas, cards.fronts["cover"], (size.width_px * 0.22, size.height_px * 0.29), 9, 0.7)
    return canvas


def _box(deck: LoadedDeck, size: ShowcaseSize) -> PILImage.Image:
    from PIL import Image, ImageDraw

    from deckgen.deck.cards import deck_cards
    from deckgen.deck.colour import parse_colour

    canvas = _felt(deck, size)
    width = round(min(size.width_px * 0.24, size.height_px * 0.62 * deck.width_mm / deck.height_mm))
    fan = _hand_tiles(deck)[:3]
    refs = [_tile_card(deck, a, b) for a, b in fan]
    cards = _render(deck, [deck_cards(deck)[0], *refs], width)
    h = cards.height_px
    cx, cy = size.width_px * 0.33, size.height_px * 0.52
    # the back and three tiles fanned out behind the box, to its right
    _place(canvas, cards.back, (cx + width * 2.05, cy + h * 0.12), -34, 0.9)
    spots = [(1.72, 0.04, -24.0), (1.36, -0.01, -15.0), (1.0, -0.04, -6.0)]
    for ref, (dx, dy, angle) in zip(refs, spots, strict=False):
        _place(canvas, cards.fronts[_label(ref)], (cx + width * dx, cy + h * dy), angle, 0.9)
    # the box: the cover on its front, a side and a top drawn in the cover's colour
    depth = width * 0.2
    box_w, box_h = width * 1.06, h * 1.04
    x0, y0 = cx - box_w / 2, cy - box_h / 2 + depth * 0.3
    colour = parse_colour(deck.spec.cover.background)
    side = _mix(colour, (0, 0, 0), 0.38)
    top = _mix(colour, (255, 255, 255), 0.18)
    shadow_layer = Image.new("RGBA", canvas.size, (0, 0, 0, 0))
    sd = ImageDraw.Draw(shadow_layer)
    sd.polygon(
        [
            (x0 + 10, y0 + box_h + 6),
            (x0 + box_w + depth + 24, y0 + box_h - depth + 14),
            (x0 + box_w + depth + 34, y0 + box_h + 30),
            (x0 + 24, y0 + box_h + 34),
        ],
        fill=(0, 0, 0, 110),
    )
    from PIL import ImageFilter

    shadow_layer = shadow_layer.filter(ImageFilter.GaussianBlur(depth * 0.45))
    canvas.paste(shadow_layer, (0, 0), shadow_layer)
    draw = ImageDraw.Draw(canvas)
    draw.polygon(
        [
            (x0 + box_w, y0),
            (x0 + box_w + depth, y0 - depth * 0.6),
            (x0 + box_w + depth, y0 + box_h - depth * 0.6),
            (x0 + box_w, y0 + box_h),
        ],
        fill=side,
    )
    draw.polygon(
        [
            (x0, y0),
            (x0 + depth, y0 - depth * 0.6),
            (x0 + box_w + depth, y0 - depth * 0.6),
            (x0 + box_w, y0),
        ],
        fill=top,
    )
    face = Image.new("RGB", (round(box_w), round(box_h)), colour)
    cover = cards.fronts["cover"]
    inset_x = (face.width - cover.width) // 2
    inset_y = (face.height - cover.height) // 2
    face.paste(cover, (inset_x, inset_y), cover)
    canvas.paste(face, (round(x0), round(y0)))
    edge = _mix(colour, (0, 0, 0), 0.55)
    draw.line([(x0 + box_w, y0), (x0 + box_w, y0 + box_h)], fill=edge, width=2)
    draw.line([(x0, y0), (x0 + box_w, y0)], fill=_mix(colour, (255, 255, 255), 0.35), width=2)
    return canvas


DRAW = {"hand": _hand, "table": _table, "box": _box}


def check_size(size: ShowcaseSize) -> None:
    """Refuse a showcase size above :data:`MAX_SHOWCASE_PIXELS` with a clear error."""
    from deckgen.errors import InputError

    pixels = size.width_px * size.height_px
    if pixels > MAX_SHOWCASE_PIXELS:
        raise InputError(
            f"a showcase picture of {size.width_px:,} x {size.height_px:,} pixels "
            f"({pixels / 1e6:.1f} megapixels) is larger than the "
            f"{MAX_SHOWCASE_PIXELS / 1e6:.1f} megapixels deckgen draws",
            where="options --width / --height",
            fix="choose at most 3840 x 2160 (a 4K screen) or another size of as many pixels",
        )


def showcase_png(
    deck: LoadedDeck, style: Style = "hand", size: ShowcaseSize | None = None
) -> bytes:
    """The showcase picture of ``deck`` in ``style`` as PNG bytes."""
    size = size or ShowcaseSize()
    check_size(size)
    picture = DRAW[style](deck, size)
    buffer = io.BytesIO()
    picture.convert("RGB").save(buffer, "PNG", optimize=True)
    return buffer.getvalue()
