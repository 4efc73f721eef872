"""Helpers for the deck tests: deck files in a temp folder, pictures, pixel and PDF checks."""

from __future__ import annotations

import io
from collections import deque
from pathlib import Path
from typing import Any

from PIL import Image

SOLID = [
    (230, 30, 30),
    (30, 160, 40),
    (30, 60, 220),
    (240, 200, 20),
    (160, 40, 200),
    (20, 200, 200),
    (250, 120, 10),
    (120, 70, 30),
    (255, 105, 180),
    (0, 0, 0),
    (128, 128, 0),
    (0, 128, 128),
]


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    return repr(value)


def to_toml(data: dict[str, Any]) -> str:
    """A tiny TOML writer for test deck files (tables one level deep)."""
    top = [f"{k} = {toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    tables = []
    for k, v in data.items():
        if isinstance(v, dict):
            tables.append(
                f"[{k}]\n" + "\n".join(f"{kk} = {toml_value(vv)}" for kk, vv in v.items())
            )
    return "\n".join(top) + "\n\n" + "\n\n".join(tables) + "\n"


def write_deck(folder: Path, data: dict[str, Any], name: str = "deck.toml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(to_toml(data), encoding="utf-8")
    return path


def solid_pictures(folder: Path, count: int, size: int = 400, fmt: str = "PNG") -> list[str]:
    """``count`` single-colour pictures (value k has colour SOLID[k-1]); their file names."""
    names = []
    for k in range(1, count + 1):
        name = f"v{k:02d}.{'png' if fmt == 'PNG' else 'jpg'}"
        Image.new("RGB", (size, size), SOLID[(k - 1) % len(SOLID)]).save(folder / name, fmt)
        names.append(name)
    return names


def render_page(pdf: bytes, index: int, dpi: float) -> Image.Image:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        image: Image.Image = doc[index].render(scale=dpi / 72).to_pil().convert("RGB")
        return image
    finally:
        doc.close()


def half_boxes_px(deck: Any, dpi: float, inset: float = 0.08) -> list[tuple[int, int, int, int]]:
    """The two tile halves of a card page, in pixels (top-left origin), shrunk by ``inset``."""
    from deckgen.deck.geometry import card_geometry

    g = card_geometry(deck)
    scale = dpi / 72
    page_h = g.page.h
    boxes = []
    for half in g.halves:
        d = half.w * inset
        x0 = (half.x + d) * scale
        x1 = (half.x + half.w - d) * scale
        y0 = (page_h - (half.y + half.h - d)) * scale
        y1 = (page_h - (half.y + d)) * scale
        boxes.append((round(x0), round(y0), round(x1), round(y1)))
    return boxes


def count_blobs(
    im: Image.Image, box: tuple[int, int, int, int], background: tuple[int, int, int]
) -> int:
    """Connected regions (4-neighbour) of pixels clearly unlike ``background`` in ``box``."""
    region = im.crop(box)
    w, h = region.size
    px = region.load()
    assert px is not None
    ink = [[False] * w for _ in range(h)]
    for y in range(h):
        row = ink[y]
        for x in range(w):
            r, g, b = px[x, y]  # type: ignore[misc]
            dist = abs(r - background[0]) + abs(g - background[1]) + abs(b - background[2])
            row[x] = dist > 90
    seen = [[False] * w for _ in range(h)]
    blobs = 0
    for y in range(h):
        for x in range(w):
            if ink[y][x] and not seen[y][x]:
                size = 0
                queue = deque([(x, y)])
                seen[y][x] = True
                while queue:
                    cx, cy = queue.popleft()
                    size += 1
                    for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                        if 0 <= nx < w and 0 <= ny < h and ink[ny][nx] and not seen[ny][nx]:
                            seen[ny][nx] = True
                            queue.append((nx, ny))
                if size >= 4:
                    blobs += 1
    return blobs


def image_xobjects(pdf: bytes) -> int:
    """How many image XObjects (soft masks excluded) a PDF holds."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        images = set()
        masks = set()
        for obj in doc.objects:
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image":
                images.add(obj.objgen)
                smask = obj.get("/SMask")
                if smask is not None:
                    masks.add(smask.objgen)
        return len(images - masks)


def mean_colour(im: Image.Image, cx: int, cy: int, r: int = 3) -> tuple[int, int, int]:
    from PIL import ImageStat

    crop = im.crop((cx - r, cy - r, cx + r + 1, cy + r + 1))
    mean = ImageStat.Stat(crop).mean
    return (round(mean[0]), round(mean[1]), round(mean[2]))


def make_cff_otf(path: Path) -> None:
    """A small OpenType font with PostScript (CFF) outlines: every letter a box."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    chars = [chr(c) for c in range(33, 127)] + list("äöüßÄÖÜ·…–€")
    names = [".notdef", "space"] + [f"g{ord(c)}" for c in chars]
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(names)
    cmap = {32: "space"}
    cmap.update({ord(c): f"g{ord(c)}" for c in chars})
    fb.setupCharacterMap(cmap)
    strings = {}
    for name in names:
        pen = T2CharStringPen(600, None)
        if name != "space":
            pen.moveTo((50, 0))
            pen.curveTo((50, 300), (100, 700), (300, 700))
            pen.lineTo((550, 700))
            pen.lineTo((550, 0))
            pen.closePath()
        strings[name] = pen.getCharString()
    fb.setupCFF("TestBoxes-Regular", {"FullName": "Test Boxes"}, strings, {})
    fb.setupHorizontalMetrics(dict.fromkeys(names, (600, 50)))
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Test Boxes", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    fb.save(str(path))
