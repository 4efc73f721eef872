"""Pictures from the browser: streamed to disk with a size limit, then checked like a build.

An upload arrives as the raw body of a request. :func:`receive_upload` writes it in
chunks to a temporary file inside the project's ``.studio/`` folder, stopping as soon
as it passes :data:`MAX_UPLOAD_BYTES`; :func:`accept_picture` then opens it with the
deck's own picture loader (decompression bombs, broken and truncated files, formats
that are not pictures), and only a good picture is moved to ``pictures/`` under a name
made from the slot and its content (the browser's file name is never used as a path).
:func:`crop_picture` writes the part of an upload the user chose in the crop editor.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import tempfile
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen import atomic
from deckgen.deck.picturefile import MAX_PICTURE_BYTES, decoding, picture_header
from deckgen.deck.pictures import PictureUse, open_picture
from deckgen.errors import ResourceError
from deckgen.studio.project import PICTURES_DIR, WORK_DIR, StudioProject, file_digest

if TYPE_CHECKING:
    from PIL import Image as PILImage

MAX_UPLOAD_BYTES = MAX_PICTURE_BYTES
"""The same limit ``deck build`` puts on a picture file."""
CHECK_USE = PictureUse(203.2, 203.2, "contain")
"""An upload is checked decoded to about 2400 pixels a side (JPEG: DCT scaling), not in
full: all of its data is still read and decoded, so a broken file still fails."""
EXTENSIONS = {"JPEG": "jpg", "MPO": "jpg", "PNG": "png", "WEBP": "webp", "TIFF": "tif"}


class UploadTooLarge(ResourceError):
    """An upload over the limit (stopped while it arrived)."""


@dataclass(frozen=True)
class AcceptedPicture:
    """A checked picture now in ``pictures/``: its deck-file-relative name and size."""

    file: str
    width_px: int
    height_px: int


async def receive_upload(
    project: StudioProject, chunks: AsyncIterator[bytes], *, limit: int = MAX_UPLOAD_BYTES
) -> Path:
    """Stream ``chunks`` into a temporary file in ``.studio/`` (removed if too large)."""
    work = project.path(WORK_DIR)
    work.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix="upload-", suffix=".part", dir=work)
    tmp = Path(name)
    size = 0
    try:
        with os.fdopen(fd, "wb") as fh:
            async for chunk in chunks:
                size += len(chunk)
                if size > limit:
                    raise UploadTooLarge(
                        f"the picture is larger than {limit / 1e6:.0f} MB",
                        where="upload",
                        fix="use a smaller picture; a card needs only a few megapixels",
                    )
                fh.write(chunk)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise
    return tmp


def accept_picture(
    project: StudioProject, tmp: Path, *, slot: str, shown_name: str
) -> AcceptedPicture:
    """Check ``tmp`` as ``deck build`` checks a picture; keep it under ``pictures/``."""
    try:
        where = f"upload '{shown_name}'"
        try:
            header = picture_header(tmp, where=where)
            with decoding(header.width_px * header.height_px):
                # every byte is decoded (a broken file fails), at a reduced scale
                decoded = open_picture(tmp, where=where, needs=[CHECK_USE])
                width, height = decoded.source_size
                del decoded  # checked: the pixels are not kept
        except ResourceError as exc:
            # the message names the file the user chose, not our temporary file
            raise type(exc)(
                exc.what.replace(tmp.name, shown_name), where=exc.where, fix=exc.fix
            ) from None
        fmt = header.format
        data = tmp.read_bytes()
        ext = EXTENSIONS.get(fmt, "png")
        target = project.path(f"{PICTURES_DIR}/{slot}-{file_digest(data)}.{ext}")
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    return AcceptedPicture(project.relative(target), width, height)


def crop_picture(
    project: StudioProject,
    original: Path,
    *,
    slot: str,
    box_ratio: float,
    zoom: float,
    focus: tuple[float, float],
) -> AcceptedPicture:
    """Cut the box-shaped part the user chose (``zoom`` around ``focus``) out of ``original``."""
    where = f"picture for {slot}"
    header = picture_header(original, where=where)
    with decoding(header.width_px * header.height_px):
        return _crop(
            project, open_picture(original, where=where).image, slot, box_ratio, zoom, focus
        )


def _crop(
    project: StudioProject,
    im: PILImage.Image,
    slot: str,
    box_ratio: float,
    zoom: float,
    focus: tuple[float, float],
) -> AcceptedPicture:
    width, height = im.size
    crop_w = min(float(width), height * box_ratio) / zoom
    crop_h = crop_w / box_ratio
    left = min(max(focus[0] * width - crop_w / 2, 0.0), width - crop_w)
    top = min(max(focus[1] * height - crop_h / 2, 0.0), height - crop_h)
    region = (round(left), round(top), round(left + crop_w), round(top + crop_h))
    part = im.crop(region)
    buf = io.BytesIO()
    if part.mode == "RGBA":
        part.save(buf, format="PNG", compress_level=6)
        ext = "png"
    else:
        part.save(buf, format="JPEG", quality=95, subsampling=0)
        ext = "jpg"
    data = buf.getvalue()
    target = project.path(f"{PICTURES_DIR}/{slot}-{file_digest(data)}-crop.{ext}")
    atomic.write_bytes(target, data)
    return AcceptedPicture(project.relative(target), part.width, part.height)


_MADE_HERE = re.compile(
    r"^(?:value-\d{1,2}|cover|logo|back|imprint)-[0-9a-f]{10}(?:-crop)?\.(?:jpg|png|webp|tif)$"
)
"""The names :func:`accept_picture` and :func:`crop_picture` give (nothing else is ours)."""


def _used_files(project: StudioProject) -> set[str]:
    """Every file name the deck, the kept pictures of higher values and their crops name."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, str):
            found.add(node)
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(project.data)
    walk(list(project.stash.values()))
    found |= {crop.original for file, crop in project.crops.items() if file in found}
    return found


@contextlib.contextmanager
def dropping_replaced(project: StudioProject) -> Iterator[None]:
    """Delete the uploads the block's change left unused (replaced or removed pictures).

    Only files the studio made (in ``pictures/``, named by slot and content) are
    deleted, and only when nothing in the deck names them any more.
    """
    with project.lock:
        before = _used_files(project)
        yield
        gone = before - _used_files(project)
        for name in sorted(gone):
            parts = name.split("/")
            if len(parts) != 2 or parts[0] != PICTURES_DIR or not _MADE_HERE.match(parts[1]):
                continue
            with contextlib.suppress(OSError, ValueError):
                project.path(name).unlink()
