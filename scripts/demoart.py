"""deckgen's own demo art, drawn with Pillow by this code (no third-party images).

Gives 12 value pictures (``value-01.png`` ... ``value-12.png``: sun, moon, tree,
house, fish, boat, flower, mountains, heart, leaf, rain cloud, star), a logo with
transparency (``logo.png``) and a cover picture (``cover.jpg``). The files in
``images/`` were made by ``python scripts/demoart.py images/``; the output is
deterministic.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from deckgen import atomic

if TYPE_CHECKING:
    from PIL import Image as PILImage
    from PIL import ImageDraw as PILDraw

SIZE = 720
SS = 2  # supersampling factor
Col = tuple[int, int, int]


def _canvas(bg: Col) -> tuple[PILImage.Image, PILDraw.ImageDraw, int]:
    from PIL import Image, ImageDraw

    n = SIZE * SS
    im = Image.new("RGB", (n, n), bg)
    return im, ImageDraw.Draw(im), n


def _finish(im: PILImage.Image) -> PILImage.Image:
    from PIL import Image

    return im.resize((im.width // SS, im.height // SS), Image.Resampling.LANCZOS)


def _gradient(im: PILImage.Image, top: Col, bottom: Col) -> None:
    from PIL import ImageDraw

    d = ImageDraw.Draw(im)
    for y in range(im.height):
        t = y / (im.height - 1)
        d.line(
            [(0, y), (im.width, y)],
            fill=tuple(round(a + (b - a) * t) for a, b in zip(top, bottom, strict=True)),
        )


def sun() -> PILImage.Image:
    im, d, n = _canvas((120, 190, 235))
    _gradient(im, (95, 170, 230), (175, 220, 245))
    c = n / 2
    for k in range(12):
        a = k * math.pi / 6
        p = [
            (c + math.cos(a - 0.12) * n * 0.27, c + math.sin(a - 0.12) * n * 0.27),
            (c + math.cos(a) * n * 0.45, c + math.sin(a) * n * 0.45),
            (c + math.cos(a + 0.12) * n * 0.27, c + math.sin(a + 0.12) * n * 0.27),
        ]
        d.polygon(p, fill=(255, 196, 40))
    d.ellipse([c - n * 0.25, c - n * 0.25, c + n * 0.25, c + n * 0.25], fill=(255, 210, 60))
    d.ellipse([c - n * 0.19, c - n * 0.19, c + n * 0.19, c + n * 0.19], fill=(255, 226, 110))
    return _finish(im)


def moon() -> PILImage.Image:
    im, d, n = _canvas((25, 35, 80))
    _gradient(im, (15, 22, 60), (45, 60, 120))
    rng = random.Random(2)
    for _ in range(60):
        x, y, r = rng.random() * n, rng.random() * n, rng.choice([3, 4, 6, 8])
        d.ellipse([x - r, y - r, x + r, y + r], fill=(240, 240, 210))
    from PIL import Image, ImageDraw

    c = n / 2
    mask = Image.new("L", (n, n), 0)
    md = ImageDraw.Draw(mask)
    md.ellipse([c - n * 0.3, c - n * 0.3, c + n * 0.3, c + n * 0.3], fill=255)
    md.ellipse([c - n * 0.16, c - n * 0.38, c + n * 0.4, c + n * 0.2], fill=0)
    im.paste((250, 235, 170), (0, 0, n, n), mask)
    return _finish(im)


def tree() -> PILImage.Image:
    im, d, n = _canvas((215, 238, 200))
    d.rectangle([0, n * 0.8, n, n], fill=(120, 175, 85))
    d.rectangle([n * 0.45, n * 0.5, n * 0.55, n * 0.84], fill=(120, 80, 45))
    for cx, cy, r in [(0.5, 0.36, 0.25), (0.33, 0.46, 0.17), (0.67, 0.46, 0.17), (0.5, 0.22, 0.16)]:
        d.ellipse([n * (cx - r), n * (cy - r), n * (cx + r), n * (cy + r)], fill=(40, 130, 70))
    rng = random.Random(3)
    for _ in range(9):
        x, y = n * (0.3 + rng.random() * 0.4), n * (0.2 + rng.random() * 0.35)
        d.ellipse([x - 16, y - 16, x + 16, y + 16], fill=(220, 50, 50))
    return _finish(im)


def house() -> PILImage.Image:
    im, d, n = _canvas((250, 222, 190))
    d.rectangle([0, n * 0.82, n, n], fill=(130, 180, 90))
    d.rectangle([n * 0.24, n * 0.45, n * 0.76, n * 0.84], fill=(245, 245, 235))
    d.polygon([(n * 0.17, n * 0.47), (n * 0.5, n * 0.18), (n * 0.83, n * 0.47)], fill=(200, 60, 45))
    d.rectangle([n * 0.44, n * 0.62, n * 0.56, n * 0.84], fill=(110, 70, 40))
    for x in (0.3, 0.62):
        d.rectangle([n * x, n * 0.52, n * (x + 0.08), n * 0.6], fill=(110, 170, 220))
    d.rectangle([n * 0.64, n * 0.2, n * 0.71, n * 0.36], fill=(150, 60, 45))
    return _finish(im)


def fish() -> PILImage.Image:
    im, d, n = _canvas((40, 120, 190))
    _gradient(im, (70, 160, 215), (20, 80, 150))
    d.ellipse([n * 0.2, n * 0.33, n * 0.72, n * 0.67], fill=(255, 140, 30))
    d.polygon(
        [(n * 0.68, n * 0.5), (n * 0.88, n * 0.32), (n * 0.88, n * 0.68)], fill=(240, 110, 20)
    )
    d.ellipse([n * 0.3, n * 0.43, n * 0.36, n * 0.49], fill=(255, 255, 255))
    d.ellipse([n * 0.315, n * 0.445, n * 0.345, n * 0.475], fill=(20, 20, 20))
    for x, y, r in [(0.18, 0.25, 0.03), (0.12, 0.15, 0.022), (0.2, 0.08, 0.015)]:
        d.ellipse(
            [n * (x - r), n * (y - r), n * (x + r), n * (y + r)], outline=(220, 240, 255), width=6
        )
    return _finish(im)


def boat() -> PILImage.Image:
    im, d, n = _canvas((190, 225, 245))
    d.rectangle([0, n * 0.68, n, n], fill=(40, 110, 180))
    for k in range(6):
        y = n * (0.74 + 0.045 * k)
        for x in range(0, n, n // 6):
            d.arc([x, y - 20, x + n // 6, y + 20], 0, 180, fill=(150, 200, 235), width=6)
    d.polygon(
        [(n * 0.22, n * 0.66), (n * 0.78, n * 0.66), (n * 0.68, n * 0.76), (n * 0.32, n * 0.76)],
        fill=(150, 75, 40),
    )
    d.rectangle([n * 0.49, n * 0.18, n * 0.51, n * 0.66], fill=(90, 60, 40))
    d.polygon(
        [(n * 0.52, n * 0.2), (n * 0.52, n * 0.62), (n * 0.76, n * 0.62)], fill=(250, 250, 245)
    )
    d.polygon([(n * 0.48, n * 0.28), (n * 0.48, n * 0.62), (n * 0.3, n * 0.62)], fill=(230, 80, 60))
    return _finish(im)


def flower() -> PILImage.Image:
    im, d, n = _canvas((250, 215, 225))
    c = n / 2
    d.rectangle([c - 10, c, c + 10, n], fill=(60, 140, 60))
    for k in range(8):
        a = k * math.pi / 4
        x, y = c + math.cos(a) * n * 0.17, c * 0.9 + math.sin(a) * n * 0.17
        d.ellipse([x - n * 0.11, y - n * 0.11, x + n * 0.11, y + n * 0.11], fill=(215, 60, 120))
    d.ellipse([c - n * 0.1, c * 0.9 - n * 0.1, c + n * 0.1, c * 0.9 + n * 0.1], fill=(255, 200, 40))
    return _finish(im)


def mountains() -> PILImage.Image:
    im, d, n = _canvas((210, 205, 240))
    _gradient(im, (180, 190, 240), (240, 220, 235))
    d.polygon([(0, n * 0.85), (n * 0.35, n * 0.25), (n * 0.7, n * 0.85)], fill=(95, 95, 140))
    d.polygon(
        [(n * 0.35, n * 0.25), (n * 0.27, n * 0.39), (n * 0.43, n * 0.39)], fill=(250, 250, 255)
    )
    d.polygon([(n * 0.35, n * 0.85), (n * 0.7, n * 0.35), (n, n * 0.85)], fill=(70, 75, 120))
    d.polygon(
        [(n * 0.7, n * 0.35), (n * 0.63, n * 0.45), (n * 0.77, n * 0.45)], fill=(250, 250, 255)
    )
    d.rectangle([0, n * 0.84, n, n], fill=(90, 150, 90))
    return _finish(im)


def heart() -> PILImage.Image:
    im, d, n = _canvas((255, 232, 232))
    pts = []
    for k in range(200):
        t = 2 * math.pi * k / 200
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        pts.append((n / 2 + x * n * 0.021, n * 0.47 - y * n * 0.021))
    d.polygon(pts, fill=(210, 35, 60))
    d.ellipse([n * 0.33, n * 0.3, n * 0.4, n * 0.37], fill=(240, 120, 130))
    return _finish(im)


def leaf() -> PILImage.Image:
    im, d, n = _canvas((245, 240, 215))
    pts = []
    for k in range(100):
        t = math.pi * k / 99
        pts.append((n * 0.2 + n * 0.6 * k / 99, n / 2 - math.sin(t) * n * 0.22))
    for k in range(100):
        t = math.pi * (99 - k) / 99
        pts.append((n * 0.2 + n * 0.6 * (99 - k) / 99, n / 2 + math.sin(t) * n * 0.22))
    d.polygon(pts, fill=(90, 160, 60))
    d.line([(n * 0.12, n * 0.58), (n * 0.8, n * 0.5)], fill=(60, 110, 40), width=10)
    for k in range(1, 5):
        x = n * (0.22 + 0.1 * k)
        y = n * (0.57 - 0.012 * k)
        d.line([(x, y), (x + n * 0.07, y - n * 0.12)], fill=(60, 110, 40), width=6)
        d.line([(x, y), (x + n * 0.07, y + n * 0.08)], fill=(60, 110, 40), width=6)
    return _finish(im)


def rain() -> PILImage.Image:
    im, d, n = _canvas((200, 215, 230))
    for cx, cy, r in [(0.35, 0.38, 0.15), (0.55, 0.32, 0.19), (0.7, 0.42, 0.13)]:
        d.ellipse([n * (cx - r), n * (cy - r), n * (cx + r), n * (cy + r)], fill=(120, 130, 150))
    d.rectangle([n * 0.3, n * 0.4, n * 0.72, n * 0.55], fill=(120, 130, 150))
    for k in range(7):
        x = n * (0.3 + 0.07 * k)
        y = n * (0.65 + 0.06 * (k % 2))
        d.polygon([(x, y - 30), (x - 14, y + 10), (x + 14, y + 10)], fill=(40, 110, 200))
        d.ellipse([x - 14, y, x + 14, y + 28], fill=(40, 110, 200))
    return _finish(im)


def star() -> PILImage.Image:
    im, d, n = _canvas((85, 45, 120))
    c = n / 2
    pts = []
    for k in range(10):
        r = n * (0.38 if k % 2 == 0 else 0.16)
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((c + math.cos(a) * r, c * 1.05 + math.sin(a) * r))
    d.polygon(pts, fill=(255, 200, 50))
    return _finish(im)


VALUE_PICTURES: list[Callable[[], PILImage.Image]] = [
    sun,
    moon,
    tree,
    house,
    fish,
    boat,
    flower,
    mountains,
    heart,
    leaf,
    rain,
    star,
]


def _tile_image(a: int, b: int, side: int) -> PILImage.Image:
    """A domino tile on its own transparent image (for the cover)."""
    from PIL import Image, ImageDraw

    from deckgen.deck.colour import value_colour
    from deckgen.deck.pips import layout

    im = Image.new("RGBA", (side * 2 + 20, side + 20), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle([14, 16, side * 2 + 14, side + 16], radius=side // 8, fill=(0, 0, 0, 90))
    d.rounded_rectangle(
        [4, 4, side * 2 + 4, side + 4],
        radius=side // 8,
        fill=(255, 253, 247),
        outline=(43, 43, 43),
        width=max(2, side // 60),
    )
    d.line(
        [(side + 4, 4 + side * 0.12), (side + 4, 4 + side * 0.88)],
        fill=(43, 43, 43),
        width=max(2, side // 50),
    )
    for value, hx in ((a, 4 + side / 2), (b, 4 + side * 1.5)):
        pl = layout(value)
        spread = side * 0.31
        r = pl.radius * spread
        for x, y in pl.points:
            px, py = hx + y * spread, 4 + side / 2 + x * spread
            d.ellipse([px - r, py - r, px + r, py + r], fill=value_colour(value))
    return im


def cover() -> PILImage.Image:
    """A warm table top with a handful of tiles scattered on it."""
    from PIL import Image, ImageDraw

    w, h = 1400, 1100
    im = Image.new("RGB", (w, h))
    _gradient(im, (200, 130, 70), (120, 70, 35))
    d = ImageDraw.Draw(im)
    rng = random.Random(7)
    for y in range(0, h, 9):  # wood grain
        shade = rng.randint(-14, 10)
        d.line(
            [(0, y), (w, y + rng.randint(-6, 6))],
            fill=(150 + shade, 92 + shade, 48 + shade),
            width=2,
        )
    tiles = [
        (6, 6, 250, 140, -18),
        (3, 5, 690, 80, 12),
        (1, 4, 1020, 230, -8),
        (2, 2, 160, 560, 25),
        (0, 6, 560, 470, -4),
        (4, 5, 930, 620, 30),
        (5, 5, 420, 820, -28),
        (1, 3, 900, 930, 8),
    ]
    for a, b, x, y, angle in tiles:
        tile = _tile_image(a, b, 190).rotate(angle, expand=True, resample=Image.Resampling.BICUBIC)
        im.paste(tile, (x - tile.width // 2 + 90, y - tile.height // 2 + 60), tile)
    return im


LOGO_TEXT_EM: dict[str, float] = {"DOMINO": 0.095, "family games": 0.075}
"""The logo's words and their font sizes as a share of the logo's width. Light on navy,
they are reversed text: on the demo back (the logo 70 % of the safe width, 51 mm on
MeinSpiel's cards, about 101 pt) "family games" is 7.6 pt, above every preset's smallest
reversed text (7 pt); at 4.5 pt it was too small to print."""


def logo() -> PILImage.Image:
    """A round badge with a domino and a word mark, on a transparent background."""
    from PIL import Image, ImageDraw, ImageFont

    from deckgen.resources import fonts_dir

    n = 900 * SS // 2 * 2
    im = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    c = n / 2
    d.ellipse([n * 0.04, n * 0.04, n * 0.96, n * 0.96], fill=(245, 200, 90, 255))
    d.ellipse([n * 0.08, n * 0.08, n * 0.92, n * 0.92], fill=(29, 53, 87, 255))
    d.ellipse([n * 0.11, n * 0.11, n * 0.89, n * 0.89], outline=(245, 200, 90, 255), width=n // 160)
    tile = _tile_image(3, 5, int(n * 0.26))
    im.alpha_composite(tile, (int(c - tile.width / 2), int(n * 0.26)))
    font = ImageFont.truetype(
        str(fonts_dir() / "DejaVuSans-Bold.ttf"), int(n * LOGO_TEXT_EM["DOMINO"])
    )
    d.text((c, n * 0.64), "DOMINO", font=font, fill=(245, 200, 90, 255), anchor="mm")
    small = ImageFont.truetype(
        str(fonts_dir() / "DejaVuSans.ttf"), int(n * LOGO_TEXT_EM["family games"])
    )
    d.text((c, n * 0.745), "family games", font=small, fill=(235, 235, 225, 255), anchor="mm")
    return im.resize((n // SS, n // SS), Image.Resampling.LANCZOS)


def write_demo_art(folder: Path) -> list[Path]:
    """Draw every demo picture into ``folder``; return the files written."""
    import io

    written = []
    for i, draw in enumerate(VALUE_PICTURES, start=1):
        buf = io.BytesIO()
        draw().save(buf, format="PNG", optimize=True)
        written.append(atomic.write_bytes(folder / f"value-{i:02d}.png", buf.getvalue()))
    buf = io.BytesIO()
    logo().save(buf, format="PNG", optimize=True)
    written.append(atomic.write_bytes(folder / "logo.png", buf.getvalue()))
    buf = io.BytesIO()
    cover().save(buf, format="JPEG", quality=88, optimize=True)
    written.append(atomic.write_bytes(folder / "cover.jpg", buf.getvalue()))
    return written


if __name__ == "__main__":  # pragma: no cover
    for p in write_demo_art(Path(sys.argv[1] if len(sys.argv) > 1 else "images")):
        print(p)
