"""User pictures (untrusted) with Pillow: opened safely, decoded once, prepared for a box.

Takes picture files (JPEG, PNG with transparency, WebP, TIFF) and the boxes (mm) the
cards show them in; gives :class:`PreparedPicture` objects: pixels cropped (``cover``,
around a focus point) or fitted (``contain``) to the box, reduced to what the box
needs at the target dpi, encoded for embedding (JPEG for opaque pictures, PNG-like
Flate with a soft mask for transparent ones).

Safety: file size limit, a pixel limit checked from the header before decoding
(decompression bombs), broken and truncated files, files that are not pictures.
Correctness: EXIF orientation, embedded ICC profiles (CMYK and RGB) converted to sRGB,
CMYK without a profile, 16-bit grey, palette and grey+alpha images. Speed: JPEGs are
decoded in draft mode at the smallest scale that still covers every use.
Memory: any other picture much larger than its uses need (an allowed 80-megapixel RGBA
or 16-bit PNG) is reduced right after decoding, strip by strip, before any conversion,
so that the decoded pixels exist once at full size and every copy is small; peak
memory stays near one full decode (docs/limits.md has the figures).

:func:`prepare_picture` is the ONE function every picture passes through on its way to
a PDF (a CMYK output can be switched on there later); :class:`PictureStore` makes sure
each file is decoded once and each prepared picture is made once.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from deckgen.deck.picturefile import ALLOWED_FORMATS as ALLOWED_FORMATS
from deckgen.deck.picturefile import MAX_PICTURE_BYTES as MAX_PICTURE_BYTES
from deckgen.deck.picturefile import MAX_PICTURE_PIXELS as MAX_PICTURE_PIXELS
from deckgen.deck.picturefile import (
    PictureHeader,
    decoding,
    open_untrusted,
    picture_subject,
    shown_to_customer,
    too_many_pixels,
)
from deckgen.errors import ResourceError
from deckgen.paths import read_limited
from deckgen.progress import Reporter

if TYPE_CHECKING:
    from PIL import Image as PILImage

    from deckgen.deck.picturecache import PreparedCache

TARGET_DPI = 300
JPEG_QUALITY = 90

Fit = Literal["cover", "contain"]


@dataclass(frozen=True)
class PictureUse:
    """Where a picture goes: a box in mm, the fit and the focus point (cover)."""

    width_mm: float
    height_mm: float
    fit: Fit = "cover"
    focus: tuple[float, float] = (0.5, 0.5)


@dataclass
class DecodedPicture:
    """A picture decoded once: upright, sRGB (``RGB``, ``RGBA`` or ``L``)."""

    path: Path
    image: PILImage.Image
    source_size: tuple[int, int]
    """Full size in pixels (after EXIF rotation), before any draft reduction."""
    where: str


@dataclass(frozen=True)
class PreparedPicture:
    """Pixels ready for one box: encoded bytes, size, and the drawn size in mm."""

    key: str
    data: bytes
    kind: Literal["jpeg", "raw"]
    mode: str
    width_px: int
    height_px: int
    draw_width_mm: float
    draw_height_mm: float
    effective_dpi: float
    image: PILImage.Image | None = field(default=None, repr=False, compare=False)


def open_picture(
    path: Path, *, where: str, needs: list[PictureUse] | None = None, dpi: int = TARGET_DPI
) -> DecodedPicture:
    """Open, check and decode ``path`` once, at the smallest draft scale that serves ``needs``.

    Opening and every check before decoding (size, format, pixels, JPEG scans) are
    :func:`deckgen.deck.picturefile.open_untrusted`'s; the pixels decoded at once in the
    process are bounded by :func:`deckgen.deck.picturefile.decoding`.
    """
    im, header = open_untrusted(path, where=where)
    with decoding(header.width_px * header.height_px):
        return _decode(im, header, path, where=where, needs=needs, dpi=dpi)


def _decode(
    im: PILImage.Image,
    header: PictureHeader,
    path: Path,
    *,
    where: str,
    needs: list[PictureUse] | None,
    dpi: int,
) -> DecodedPicture:
    from PIL import Image, ImageOps

    width, height = header.width_px, header.height_px
    orientation = header.orientation
    swapped = header.swapped
    upright = header.upright_size
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        if needs and im.format in ("JPEG", "MPO"):
            want = _draft_size(upright, needs, dpi)
            if swapped:
                want = (want[1], want[0])
            with contextlib.suppress(OSError, ValueError):
                im.draft("RGB" if im.mode != "L" else "L", want)
        try:
            _load_strictly(im)
        except Image.DecompressionBombError:
            raise too_many_pixels(path, where, (width, height)) from None
        except (OSError, ValueError, SyntaxError) as exc:
            subject = picture_subject(path, where, f"the picture '{path.name}'")
            raise shown_to_customer(
                ResourceError(
                    f"{subject} is damaged or cut short ({exc})",
                    where=where,
                    fix="export or download the picture again",
                )
            ) from None
    icc = im.info.get("icc_profile")
    decoded = (im.size[1], im.size[0]) if swapped else im.size  # after any draft
    factor = _reduce_factor(upright, decoded, needs, dpi) if needs else 1
    if factor >= 2:
        small = _reduced_by_strips(im, factor)
        im.close()
        return DecodedPicture(
            path=path,
            image=_to_srgb(_orient(small, orientation), icc),
            source_size=upright,
            where=where,
        )
    upright_im: PILImage.Image = im
    try:
        upright_im = ImageOps.exif_transpose(im) or im
    except Exception:
        upright_im = im
    return DecodedPicture(
        path=path, image=_to_srgb(upright_im, icc), source_size=upright, where=where
    )


STRIP_PIXELS = 2_000_000
"""Pixels per strip when a large picture is reduced (a few MB per strip)."""


def _reduce_factor(
    upright: tuple[int, int], decoded: tuple[int, int], needs: list[PictureUse], dpi: int
) -> int:
    """The integer reduction of the decoded pixels (upright size ``decoded``) that keeps
    at least twice the pixels every use needs of the full picture (``upright``)."""
    want_w, want_h = _draft_size(upright, needs, dpi)
    return max(1, min(decoded[0] // (2 * want_w), decoded[1] // (2 * want_h)))


def _reduced_by_strips(im: PILImage.Image, factor: int) -> PILImage.Image:
    """``im`` reduced by ``factor`` (box average), made strip by strip.

    Each strip is converted to a mode that averages correctly (palette, 16-bit and
    1-bit pictures first become RGB(A) or L) and reduced; no full-size copy is made.
    """
    from PIL import Image

    width, height = im.size
    rows = factor * max(1, STRIP_PIXELS // max(1, width) // factor)
    out: PILImage.Image | None = None
    for top in range(0, height, rows):
        strip = _averageable(im.crop((0, top, width, min(height, top + rows))), im.info)
        small = strip.reduce(factor)
        if out is None:
            size = (-(-width // factor), -(-height // factor))
            out = Image.new(small.mode, size)
        out.paste(small, (0, top // factor))
    assert out is not None
    return out


def _averageable(strip: PILImage.Image, info: Mapping[Any, object]) -> PILImage.Image:
    """A mode whose pixels may be averaged: no palette indices, no 16-bit or 1-bit."""
    if strip.mode in ("I;16", "I;16L", "I;16B", "I;16N", "I"):
        return strip.convert("I").point(lambda v: v * (1 / 257)).convert("L")
    if strip.mode == "F":
        return strip.point(lambda v: v * 255).convert("L")
    if strip.mode == "P":
        return strip.convert("RGBA" if "transparency" in info else "RGB")
    if strip.mode == "PA":
        return strip.convert("RGBA")
    if strip.mode == "1":
        return strip.convert("L")
    return strip


_TRANSPOSE = {2: 0, 3: 3, 4: 1, 5: 5, 6: 4, 7: 6, 8: 2}
"""EXIF orientation -> ``Image.Transpose`` value that makes the picture upright."""


def _orient(im: PILImage.Image, orientation: int) -> PILImage.Image:
    from PIL import Image

    method = _TRANSPOSE.get(orientation)
    return im if method is None else im.transpose(Image.Transpose(method))


def _load_strictly(im: PILImage.Image) -> None:
    """Decode all pixels, failing on a truncated file.

    WeasyPrint switches Pillow's process-wide ``LOAD_TRUNCATED_IMAGES`` on when it is
    imported (the booklet uses it); a cut-short customer photo must still be an error.
    """
    from PIL import ImageFile

    before = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        im.load()
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = before


def _draft_size(upright: tuple[int, int], needs: list[PictureUse], dpi: int) -> tuple[int, int]:
    """The smallest size (upright) at which the picture still serves every use."""
    sw, sh = upright
    scale = 0.0
    for use in needs:
        tw, th = _target_px(use, dpi)
        if use.fit == "cover":
            scale = max(scale, tw / sw, th / sh)
        else:
            scale = max(scale, min(tw / sw, th / sh))
    scale = min(1.0, scale)
    return (max(1, math.ceil(sw * scale)), max(1, math.ceil(sh * scale)))


def _target_px(use: PictureUse, dpi: int) -> tuple[int, int]:
    return (
        max(1, round(use.width_mm / 25.4 * dpi)),
        max(1, round(use.height_mm / 25.4 * dpi)),
    )


def _to_srgb(im: PILImage.Image, icc: bytes | None) -> PILImage.Image:
    """Any mode -> ``RGB``, ``RGBA`` or ``L``, honouring an embedded ICC profile."""
    from PIL import Image

    if im.mode in ("I;16", "I;16L", "I;16B", "I;16N", "I"):
        # 16-bit grey: scale 0..65535 down to 0..255 (a plain convert would clip).
        im = im.convert("I").point(lambda v: v * (1 / 257)).convert("L")
    elif im.mode == "F":
        im = im.point(lambda v: v * 255).convert("L")
    if im.mode == "P":
        im = im.convert("RGBA" if "transparency" in im.info else "RGB")
    elif im.mode == "PA":
        im = im.convert("RGBA")
    elif im.mode == "1":
        im = im.convert("L")
    elif im.mode == "LA" or im.mode in ("La", "RGBa"):
        im = im.convert("RGBA")
    if icc and im.mode in ("RGB", "RGBA", "CMYK"):
        try:
            from PIL import ImageCms

            src = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            dst = ImageCms.createProfile("sRGB")
            out_mode = "RGBA" if im.mode == "RGBA" else "RGB"
            converted = ImageCms.profileToProfile(im, src, dst, outputMode=out_mode)
            if converted is not None:
                im = converted
        except Exception:
            pass
    if im.mode not in ("RGB", "RGBA", "L"):
        im = im.convert("RGB")
    if im.mode == "RGBA":
        alpha = im.getchannel("A")
        if alpha.getextrema() == (255, 255):
            im = im.convert("RGB")
    if not isinstance(im, Image.Image):  # pragma: no cover
        raise TypeError("not an image")
    return im


def cover_crop(
    size: tuple[float, float], box_ratio: float, focus: tuple[float, float]
) -> tuple[float, float, float, float]:
    """The part of a picture of ``size`` that a ``cover`` fit shows in a box of
    ``box_ratio`` (width / height): the largest box-shaped region centred on the focus
    point (0..1 units), moved inside the picture. Gives (left, top, width, height) in
    the units of ``size`` (pixels, or 1 x 1 for fractions of the picture).

    >>> cover_crop((300, 100), 1.0, (0.0, 0.5))
    (0.0, 0.0, 100.0, 100.0)
    >>> cover_crop((300, 100), 1.0, (0.5, 0.5))
    (100.0, 0.0, 100.0, 100.0)
    """
    cw, ch = size
    if cw / ch > box_ratio:
        crop_w, crop_h = ch * box_ratio, float(ch)
    else:
        crop_w, crop_h = float(cw), cw / box_ratio
    fx, fy = focus
    left = min(max(fx * cw - crop_w / 2, 0.0), cw - crop_w)
    top = min(max(fy * ch - crop_h / 2, 0.0), ch - crop_h)
    return (left, top, crop_w, crop_h)


def prepare_picture(
    decoded: DecodedPicture,
    use: PictureUse,
    *,
    dpi: int = TARGET_DPI,
    reporter: Reporter | None = None,
    card: str = "",
) -> PreparedPicture:
    """THE one preparation step: crop/fit ``decoded`` to ``use``'s box at ``dpi``.

    Never upscales: a source smaller than the box needs is kept at its size and a
    warning names the file and its effective dpi (below ``dpi``).
    """
    from PIL import Image

    im = decoded.image
    sw_full, _sh_full = decoded.source_size
    cw, ch = im.size  # maybe reduced by draft
    factor = cw / sw_full  # draft reduction of this decode
    tw, th = _target_px(use, dpi)
    box_ratio = use.width_mm / use.height_mm
    if use.fit == "cover":
        left, top, crop_w, crop_h = cover_crop((cw, ch), box_ratio, use.focus)
        region = (left, top, left + crop_w, top + crop_h)
        full_px_w = crop_w / factor
        out_w, out_h = min(tw, round(crop_w)), min(th, round(crop_h))
        draw_w, draw_h = use.width_mm, use.height_mm
    else:
        region = (0.0, 0.0, float(cw), float(ch))
        full_px_w = cw / factor
        scale = min(use.width_mm / cw, use.height_mm / ch)
        draw_w, draw_h = cw * scale, ch * scale
        out_w = min(round(draw_w / 25.4 * dpi), cw)
        out_h = min(round(draw_h / 25.4 * dpi), ch)
    effective_dpi = full_px_w / (draw_w / 25.4)
    if reporter is not None:
        warn_low_dpi(
            reporter, decoded.path, decoded.where, (effective_dpi, draw_w, draw_h), dpi, card
        )
    out_w, out_h = max(1, out_w), max(1, out_h)
    box = tuple(round(v) for v in region)
    if box == (0, 0, cw, ch) and (out_w, out_h) == (cw, ch):
        pixels = im
    else:
        pixels = im.resize(
            (out_w, out_h),
            Image.Resampling.LANCZOS,
            box=region,
            reducing_gap=3.0,
        )
    if pixels.mode == "RGBA":
        buf = io.BytesIO()
        pixels.save(buf, format="PNG", compress_level=6)
        data, kind = buf.getvalue(), "raw"
    else:
        buf = io.BytesIO()
        pixels.save(buf, format="JPEG", quality=JPEG_QUALITY, optimize=True, subsampling=0)
        data, kind = buf.getvalue(), "jpeg"
    key = hashlib.sha256(data).hexdigest()[:16]
    return PreparedPicture(
        key=key,
        data=data,
        kind=kind,  # type: ignore[arg-type]
        mode=pixels.mode,
        width_px=out_w,
        height_px=out_h,
        draw_width_mm=draw_w,
        draw_height_mm=draw_h,
        effective_dpi=effective_dpi,
        image=pixels if kind == "raw" else None,
    )


@dataclass(frozen=True)
class PreparedKey:
    """Everything a prepared picture depends on (the key of a shared cache)."""

    content_sha256: str
    needs: frozenset[PictureUse]
    """Every use registered for the file when it was first drawn (sets the decode scale)."""
    use: PictureUse
    dpi: int


def warn_low_dpi(
    reporter: Reporter,
    path: Path,
    where: str,
    drawn: tuple[float, float, float],
    dpi: int,
    card: str = "",
) -> None:
    """Warn when a picture prints below ``dpi``; ``drawn``: effective dpi, width and
    height in mm as drawn. The numbers and words are the one resolution rule's
    (:mod:`deckgen.deck.resolution`)."""
    from deckgen.deck.resolution import needed_px, slot_name

    effective_dpi, draw_w, draw_h = drawn
    need_w, need_h = needed_px(draw_w, draw_h, dpi)
    if effective_dpi < dpi - 0.5:
        slot = slot_name(where.rsplit("key ", 1)[-1])
        reporter.warn(
            f"{path.name} ({slot}) prints at {effective_dpi:.0f} dpi"
            f"{' on ' + card if card else ''}, below {dpi} dpi: use a picture of at "
            f"least {need_w} x {need_h} px"
        )


class PictureStore:
    """Decodes each file once and prepares each (file, box) once.

    Register every use first with :meth:`need` (so the decode can use draft mode at
    the right scale), then :meth:`get` prepared pictures while drawing. When the
    process keeps a shared cache (:mod:`deckgen.deck.picturecache`, switched on in
    batch workers), prepared pictures come from there when an earlier deck made the
    same ones, and go there when made.
    """

    def __init__(
        self,
        *,
        dpi: int = TARGET_DPI,
        reporter: Reporter | None = None,
        cache: PreparedCache[PreparedPicture] | None = None,
    ) -> None:
        from deckgen.deck.picturecache import shared_cache

        self.dpi = dpi
        self.reporter = reporter
        self.cache = cache if cache is not None else shared_cache()
        self._needs: dict[Path, list[PictureUse]] = {}
        self._where: dict[Path, str] = {}
        self._decoded: dict[Path, DecodedPicture] = {}
        self._prepared: dict[tuple[Path, PictureUse], PreparedPicture] = {}
        self._pending: dict[Path, set[PictureUse]] = {}
        self._frozen_needs: dict[Path, list[PictureUse]] = {}
        self._digests: dict[Path, str] = {}
        self.decode_count = 0

    def need(self, path: Path, use: PictureUse, *, where: str) -> None:
        self._needs.setdefault(path, []).append(use)
        self._pending.setdefault(path, set()).add(use)
        self._where.setdefault(path, where)

    def _needs_of(self, path: Path) -> list[PictureUse]:
        """The uses registered for ``path`` when it was first drawn (they set the decode)."""
        found = self._frozen_needs.get(path)
        if found is None:
            found = list(self._needs.get(path, []))
            self._frozen_needs[path] = found
        return found

    def _decode(self, path: Path) -> DecodedPicture:
        found = self._decoded.get(path)
        if found is None:
            found = open_picture(
                path,
                where=self._where.get(path, str(path)),
                needs=self._needs_of(path) or None,
                dpi=self.dpi,
            )
            self._decoded[path] = found
            self.decode_count += 1
        return found

    def _cache_key(self, path: Path, use: PictureUse) -> PreparedKey:
        digest = self._digests.get(path)
        if digest is None:
            where = self._where.get(path, str(path))
            raw = read_limited(path, max_bytes=MAX_PICTURE_BYTES, what="picture", where=where)
            digest = hashlib.sha256(raw).hexdigest()
            self._digests[path] = digest
        return PreparedKey(digest, frozenset(self._needs_of(path)), use, self.dpi)

    def _prepare(self, path: Path, use: PictureUse, card: str) -> PreparedPicture:
        # No resolution warning here: the build's preflight judges every picture in
        # every slot once, by the one rule (deckgen.deck.resolution).
        if self.cache is None:
            return prepare_picture(self._decode(path), use, dpi=self.dpi, card=card)
        key = self._cache_key(path, use)
        found = self.cache.get(key)
        if found is None:
            found = prepare_picture(self._decode(path), use, dpi=self.dpi, card=card)
            self.cache.put(key, found)
        return found

    def get(self, path: Path, use: PictureUse, *, card: str = "") -> PreparedPicture:
        key = (path, use)
        found = self._prepared.get(key)
        if found is None:
            found = self._prepare(path, use, card)
            self._prepared[key] = found
            pending = self._pending.get(path)
            if pending is not None:
                pending.discard(use)
                if not pending:
                    # Every registered use is made: free the decoded pixels.
                    self._decoded.pop(path, None)
        return found

    @property
    def prepared(self) -> list[PreparedPicture]:
        return list(self._prepared.values())
