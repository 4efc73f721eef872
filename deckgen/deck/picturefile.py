"""The one place where an untrusted picture file is opened: header checks before pixels.

Every picture a customer gives (``deck build``, the studio's uploads, thumbnails and
slot sizes, the batch, the print check) is opened here, so every limit holds everywhere:

- the file: a regular file of at most :data:`MAX_PICTURE_BYTES` (:mod:`deckgen.paths`);
- the format: JPEG (and MPO), PNG, WebP or TIFF;
- the size: at most :data:`MAX_PICTURE_PIXELS`, read from the header (Pillow's
  ``Image.open`` is lazy), before a single pixel is decoded;
- JPEG scans: a progressive JPEG is decoded once per scan, so a small file with
  hundreds of scans of a large picture takes minutes (0.065 s per scan at 79 MP). The
  markers are walked (segment lengths, entropy-coded data skipped) and a JPEG with
  more than :data:`MAX_JPEG_SCANS` scans is refused before decoding;
  a plain JPEG has 1 scan (3 when not interleaved), libjpeg's and mozjpeg's progressive
  ones about 10.

:func:`picture_header` gives size and EXIF orientation from the header alone, with
bounded memory (a 176-megapixel PNG of 688 KB is refused without decoding it; for PNG
the ``eXIf`` chunk is found by walking the chunks, as Pillow's ``getexif`` would decode
the whole picture to look for it). :func:`open_untrusted` gives a lazily opened,
checked Pillow image for the one decoder (:func:`deckgen.deck.pictures.open_picture`).
:func:`decoding` bounds the pixels decoded at once in a process (the studio decodes
uploads in many threads): a decode waits while others hold the budget.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import stat
import threading
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, TypeVar

from deckgen.errors import DeckgenError, ResourceError, excerpt
from deckgen.paths import read_limited

if TYPE_CHECKING:
    from PIL import Image as PILImage

MAX_PICTURE_BYTES = 80_000_000
MAX_PICTURE_PIXELS = 80_000_000
"""Pictures claiming more pixels than this (80 MP) are refused before decoding."""
MAX_JPEG_SCANS = 32
"""Scans a JPEG may have (progressive JPEGs from cameras and libraries: about 10)."""
DECODE_BUDGET_PIXELS = 100_000_000
"""Pixels a process decodes at once; more concurrent decodes wait (one may exceed it)."""
ALLOWED_FORMATS = frozenset({"JPEG", "PNG", "WEBP", "TIFF", "MPO"})
ORIENTATION_TAG = 0x0112
SWAPPING_ORIENTATIONS = frozenset({5, 6, 7, 8})


@dataclass(frozen=True)
class PictureHeader:
    """What a picture's header says: format, stored size, EXIF orientation, scans."""

    format: str
    width_px: int
    height_px: int
    orientation: int = 1
    scans: int = 0
    """JPEG scans counted (0: not counted or not a JPEG)."""

    @property
    def swapped(self) -> bool:
        return self.orientation in SWAPPING_ORIENTATIONS

    @property
    def upright_size(self) -> tuple[int, int]:
        """Width and height as shown, EXIF rotation applied."""
        if self.swapped:
            return (self.height_px, self.width_px)
        return (self.width_px, self.height_px)


class PictureTooLarge(ResourceError):
    """A picture refused for its size: too many pixels, or too many JPEG scans."""


_KEY_IN_WHERE = re.compile(r"^(?P<head>.*\bkey )(?P<key>[\w.]+(?:\[\d+\])?)$", re.DOTALL)


def customer_slot(where: str) -> tuple[str | None, str]:
    """The slot a picture's ``where`` names as a customer sees it ("picture for 2"), and
    ``where`` with the list key the customer wrote (``faces.pictures``, not the internal
    zero-based ``faces.pictures[1]``). (None, ``where``) when it names no picture key.

    >>> customer_slot("deck.toml, key faces.pictures[1]")
    ('picture for 2', 'deck.toml, key faces.pictures')
    >>> customer_slot("deck.toml, key cover.picture")
    ('cover picture', 'deck.toml, key cover.picture')
    >>> customer_slot("column photo")
    (None, 'column photo')
    """
    from deckgen.deck.resolution import slot_name

    found = _KEY_IN_WHERE.match(where)
    if not found:
        return None, where
    key = found.group("key")
    slot = slot_name(key)
    if slot == key:
        return None, where
    return slot, found.group("head") + re.sub(r"\[\d+\]$", "", key)


def picture_subject(path: Path, where: str, plain: str) -> str:
    """How a message names the picture: its slot and file name when ``where`` names a
    picture key ("the picture for 2 ('ben.jpg')"), else ``plain``."""
    slot, _ = customer_slot(where)
    if slot is None:
        return plain
    return f"the {slot} ('{excerpt(path.name, 80)}')"


E = TypeVar("E", bound=DeckgenError)


def shown_to_customer(error: E) -> E:
    """``error`` showing its ``where`` as the customer reads it (``key faces.pictures``
    for the internal ``key faces.pictures[1]``); code still reads the key from
    ``error.where``."""
    if error.where:
        _, shown = customer_slot(error.where)
        if shown != error.where:
            error.shown_where = shown
    return error


def _content_hint(path: Path) -> str:
    """What a file that is not a picture holds, when it is plain to see: empty, text."""
    try:
        with path.open("rb") as fh:
            head = fh.read(512)
    except OSError:
        return ""
    if not head:
        return "it is empty (0 bytes)"
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        return ""
    if all(c.isprintable() or c in "\r\n\t" for c in text):
        return "it holds text, not a picture (a renamed file?)"
    return ""


def not_a_picture(path: Path, where: str, detail: str = "") -> ResourceError:
    subject = picture_subject(path, where, f"'{excerpt(path.name, 80)}'")
    detail = _content_hint(path) or detail
    return shown_to_customer(
        ResourceError(
            f"{subject} is not a picture deckgen can read{': ' + detail if detail else ''}",
            where=where,
            fix="use a JPEG, PNG, WebP or TIFF file (re-export it from your photo program)",
        )
    )


def too_many_pixels(
    path: Path, where: str, size: tuple[int, int] | None, detail: str = ""
) -> PictureTooLarge:
    claimed = re.search(r"\((\d+) pixels\)", detail)
    if size:
        claim = f"claims {size[0]:,} x {size[1]:,} pixels"
    elif claimed:
        claim = f"claims {int(claimed.group(1)):,} pixels"
    else:
        claim = "claims too many pixels"
    subject = picture_subject(path, where, f"the picture '{excerpt(path.name, 80)}'")
    return shown_to_customer(
        PictureTooLarge(
            f"{subject} {claim}, more than the "
            f"{MAX_PICTURE_PIXELS // 1_000_000} megapixels deckgen accepts (a decompression bomb?)",
            where=where,
            fix="use a smaller picture; a card needs only a few megapixels",
        )
    )


def too_many_scans(path: Path, where: str, scans: int) -> PictureTooLarge:
    subject = picture_subject(path, where, f"the picture '{excerpt(path.name, 80)}'")
    return shown_to_customer(
        PictureTooLarge(
            f"{subject} is a JPEG stored in {scans} or more passes (scans), "
            f"more than the {MAX_JPEG_SCANS} deckgen accepts: decoding it would take minutes",
            where=where,
            fix="save the picture again as a normal JPEG (any photo program does; in an export "
            "dialog, switch 'progressive' off)",
        )
    )


# -- JPEG markers ---------------------------------------------------------------------------

_ENTROPY_END = re.compile(rb"\xff[^\x00\xd0-\xd7]")
"""The end of entropy-coded data: 0xFF followed by neither a stuffed 0 nor a restart."""
_STANDALONE = frozenset({0x01, *range(0xD0, 0xD8)})


def jpeg_scan_count(data: bytes, *, stop_after: int = MAX_JPEG_SCANS) -> int:
    """The number of scans (SOS markers) of the first picture in JPEG ``data``.

    Walks the marker segments by their lengths (so a thumbnail inside EXIF is not
    counted) and skips each scan's entropy-coded data to the next marker. Stops counting
    past ``stop_after`` (the answer is then ``stop_after + 1``) and at the first EOI.

    >>> jpeg_scan_count(b"\\xff\\xd8\\xff\\xda\\x00\\x02\\x12\\xff\\x00\\xff\\xd9")
    1
    """
    if not data.startswith(b"\xff\xd8"):
        return 0
    pos, scans, end = 2, 0, len(data)
    while pos + 1 < end:
        if data[pos] != 0xFF:
            # bytes between segments: decoders skip them to the next 0xFF, and so do we
            # (stopping here would let a few junk bytes hide every scan behind them)
            pos = data.find(b"\xff", pos)
            if pos < 0:
                break
            continue
        while pos + 1 < end and data[pos + 1] == 0xFF:
            pos += 1  # fill bytes
        if pos + 1 >= end:
            break
        marker = data[pos + 1]
        if marker == 0xD9:
            break
        if marker in _STANDALONE:
            pos += 2
            continue
        if pos + 4 > end:
            break
        length = int.from_bytes(data[pos + 2 : pos + 4], "big")
        pos += 2 + length
        if marker == 0xDA:
            scans += 1
            if scans > stop_after:
                return scans
            found = _ENTROPY_END.search(data, pos)
            if found is None:
                break
            pos = found.start()
    return scans


# -- PNG chunks -----------------------------------------------------------------------------


def _png_exif(fh: IO[bytes], size: int) -> bytes | None:
    """The payload of a PNG's ``eXIf`` chunk, wherever it is, reading chunk heads only."""
    pos = 8
    while pos + 8 <= size:
        fh.seek(pos)
        head = fh.read(8)
        if len(head) < 8:
            return None
        length = int.from_bytes(head[:4], "big")
        kind = head[4:]
        if kind == b"eXIf":
            if length > 1_000_000:
                return None
            return fh.read(length)
        if kind == b"IEND":
            return None
        pos += 12 + length
    return None


# -- opening --------------------------------------------------------------------------------


def _open_file(path: Path, *, where: str) -> IO[bytes]:
    """``path`` opened for reading if it is a regular file within the size limit.

    Anything else is reported by :func:`deckgen.paths.read_limited` (its messages), which
    fails the same way without reading the file.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):
        read_limited(path, max_bytes=MAX_PICTURE_BYTES, what="picture", where=where)
        raise  # pragma: no cover - read_limited raised already
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_PICTURE_BYTES:
        os.close(fd)
        read_limited(path, max_bytes=MAX_PICTURE_BYTES, what="picture", where=where)
        raise not_a_picture(path, where, "it changed while it was read")
    return os.fdopen(fd, "rb")


def _lazy_open(fh: IO[bytes], path: Path, *, where: str) -> PILImage.Image:
    """Pillow's lazy open (header only), checked: format and pixel count."""
    from PIL import Image, UnidentifiedImageError

    with warnings.catch_warnings():
        # Pillow's own guard warns above ~89 MP and refuses above ~179 MP; we check
        # the size ourselves, below, with our limit and our message.
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            im = Image.open(fh)
        except Image.DecompressionBombError as exc:
            raise too_many_pixels(path, where, None, str(exc)) from None
        except UnidentifiedImageError:
            raise not_a_picture(path, where) from None
        except (OSError, ValueError, SyntaxError, EOFError) as exc:
            raise not_a_picture(path, where, str(exc)) from None
    if im.format not in ALLOWED_FORMATS:
        im.close()
        raise not_a_picture(path, where, f"it is a {im.format} file")
    width, height = im.size
    if width < 1 or height < 1:
        im.close()
        raise not_a_picture(path, where, "it has no pixels")
    if width * height > MAX_PICTURE_PIXELS:
        im.close()
        raise too_many_pixels(path, where, (width, height))
    return im


def _orientation(im: PILImage.Image, fh: IO[bytes], size: int) -> int:
    """EXIF orientation without decoding pixels (PNG: the ``eXIf`` chunk, walked to)."""
    try:
        if im.format == "PNG" and "exif" not in im.info:
            payload = _png_exif(fh, size)
            im.info["exif"] = payload or b""
        exif = im.getexif()
        value = int(exif.get(ORIENTATION_TAG, 1))
    except Exception:  # a broken EXIF block: the picture as stored
        return 1
    return value if 1 <= value <= 8 else 1


def picture_header(path: Path, *, where: str, count_scans: bool = False) -> PictureHeader:
    """Size and orientation of the picture at ``path`` from its header; checked.

    Reads the header and (PNG) the chunk heads; never decodes pixels. Raises
    :class:`~deckgen.errors.ResourceError` for a file that is missing, too large, not a
    picture, or that claims more than :data:`MAX_PICTURE_PIXELS`. With ``count_scans``
    a JPEG's markers are walked too (the whole file is read) and more than
    :data:`MAX_JPEG_SCANS` scans are refused.
    """
    with _open_file(path, where=where) as fh:
        size = os.fstat(fh.fileno()).st_size
        im = _lazy_open(fh, path, where=where)
        try:
            orientation = _orientation(im, fh, size)
            scans = 0
            if count_scans and im.format in ("JPEG", "MPO"):
                fh.seek(0)
                scans = jpeg_scan_count(fh.read(MAX_PICTURE_BYTES))
                if scans > MAX_JPEG_SCANS:
                    raise too_many_scans(path, where, scans)
            return PictureHeader(str(im.format), im.size[0], im.size[1], orientation, scans)
        finally:
            im.close()


def open_untrusted(path: Path, *, where: str) -> tuple[PILImage.Image, PictureHeader]:
    """The picture at ``path`` opened lazily from memory, with every header check passed.

    The file is read once (at most :data:`MAX_PICTURE_BYTES`); the image decodes on
    ``load()``. A JPEG's scans are counted first.
    """
    raw = read_limited(path, max_bytes=MAX_PICTURE_BYTES, what="picture", where=where)
    buffer = io.BytesIO(raw)
    im = _lazy_open(buffer, path, where=where)
    scans = 0
    if im.format in ("JPEG", "MPO"):
        scans = jpeg_scan_count(raw)
        if scans > MAX_JPEG_SCANS:
            im.close()
            raise too_many_scans(path, where, scans)
    orientation = _orientation(im, buffer, len(raw))
    header = PictureHeader(str(im.format), im.size[0], im.size[1], orientation, scans)
    return im, header


# -- how many pixels are decoded at once ------------------------------------------------------


class DecodeBudget:
    """At most ``pixels`` decoded at once across threads (one larger decode runs alone).

    Re-entrant per thread: a decode inside another one of the same thread (the studio
    holds the budget around a whole upload) counts once.
    """

    def __init__(self, pixels: int = DECODE_BUDGET_PIXELS) -> None:
        self.pixels = pixels
        self.in_use = 0
        self.peak = 0
        self._cond = threading.Condition()
        self._local = threading.local()

    @contextlib.contextmanager
    def hold(self, pixels: int) -> Iterator[None]:
        if getattr(self._local, "depth", 0):
            self._local.depth += 1
            try:
                yield
            finally:
                self._local.depth -= 1
            return
        want = max(0, pixels)
        with self._cond:
            self._cond.wait_for(lambda: self.in_use == 0 or self.in_use + want <= self.pixels)
            self.in_use += want
            self.peak = max(self.peak, self.in_use)
        self._local.depth = 1
        try:
            yield
        finally:
            self._local.depth = 0
            with self._cond:
                self.in_use -= want
                self._cond.notify_all()


BUDGET = DecodeBudget()


def decoding(pixels: int) -> contextlib.AbstractContextManager[None]:
    """Hold ``pixels`` of the process's decode budget while the block runs."""
    return BUDGET.hold(pixels)
