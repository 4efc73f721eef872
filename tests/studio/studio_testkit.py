"""Helpers for the studio tests: a studio on a project folder, photos, zips, PDFs."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from PIL import Image, ImageDraw

from deckgen.studio.app import create_app
from deckgen.studio.project import StudioProject
from deckgen.studio.security import GuardSettings, StudioGuard

TOKEN = "test-token-0123456789"
HOST = "127.0.0.1:8765"
ORIGIN = f"http://{HOST}"
COOKIE = "deckgen_studio_8765"
SETTINGS = GuardSettings(
    token=TOKEN, hosts=frozenset({HOST, f"localhost:{HOST[-4:]}"}), cookie=COOKIE
)


def studio_app(project: StudioProject) -> StudioGuard:
    return create_app(project, SETTINGS)


def photo(
    size: tuple[int, int] = (1200, 1200),
    colour: tuple[int, int, int] = (200, 60, 40),
    fmt: str = "JPEG",
) -> bytes:
    """A photo-like picture: a gradient with a disc, so crops and focus points show."""
    width, height = size
    im = Image.new("RGB", size, colour)
    draw = ImageDraw.Draw(im)
    for y in range(0, height, max(1, height // 40)):
        shade = tuple(min(255, c + y * 80 // height) for c in colour)
        draw.rectangle((0, y, width, y + height // 40), fill=shade)
    r = min(width, height) // 6
    draw.ellipse(
        (width // 4 - r, height // 4 - r, width // 4 + r, height // 4 + r), fill=(250, 240, 90)
    )
    buf = io.BytesIO()
    im.save(buf, format=fmt, quality=90)
    return buf.getvalue()


def zip_names(data: bytes) -> list[str]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return sorted(zf.namelist())


def unzip(data: bytes, folder: Path) -> None:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        zf.extractall(folder)
