"""Where a photo's subject is: faces (OpenCV's Haar cascade), failing that the salient region.

Takes a picture (a file, or decoded pixels); gives a :class:`FocusRegion`: a box in
0..1 units of the upright picture (left, top, right, bottom) around the faces it
shows or, when it shows none, around its most eye-catching part. The box's centre is
the default focus of ``cover`` crops (cover card, card pictures, imprint picture) when
the deck file names no focus, and the pip badge of ``pictures+pips`` sits in the
corner of a card picture farthest from it.

The detector is OpenCV's frontal face Haar cascade, shipped in the
``opencv-python-headless`` 4.x wheel (``cv2.data.haarcascades``); it runs offline, on
a copy reduced to about :data:`DETECT_SIDE_PX` squared pixels, in some ten
milliseconds. Results are kept per file content (SHA-256, as the prepared picture
cache keys its entries), in memory and in the user's cache folder
(:mod:`deckgen.usercache`, with the detector's settings in the name), so a photo used
on many cards, decks and runs is looked at once: a later run imports neither numpy
nor OpenCV for it.

The salient fallback is plain numpy: an energy map of edges (luminance gradient) plus
colour contrast (distance from the picture's mean colour), smoothed; the box holds
the central part of that energy around its centroid. A flat picture (no energy) has
no region (``None``).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import math
import warnings
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
    from PIL import Image as PILImage

DETECT_SIDE_PX = 400
"""Faces are looked for on a copy of about this many pixels squared (400 x 400 for a
square photo, 693 x 231 for a 3:1 panorama): small, yet a face of a sixth of a wide
photo's height still has the detector's 20 pixels."""
DETECT_PIXELS = DETECT_SIDE_PX * DETECT_SIDE_PX
DRAFT_SHARE = 0.75
"""A JPEG is decoded at the smallest scale (1/2, 1/4, 1/8) that still gives this share
of the detection size on each side (a 2400 px photo: 300 px, not 600)."""
MIN_FACE_SHARE = 0.08
"""The smallest face looked for, as a share of the reduced picture's shorter side."""
KEEP_FACE_SHARE = 0.3
"""Faces smaller than this share of the largest face's width are left out of the box
(far-away people and the detector's occasional false find)."""
SALIENT_PIXELS = 200 * 200
"""The salient part is looked for on about this many pixels."""
SALIENT_MASS = 0.5
"""The salient box holds about this share of the energy around its centroid."""
MIN_NEIGHBOURS = 3
"""How many overlapping finds make a face (OpenCV's ``minNeighbors``): 3 finds 115 of
the benchmark's 120 faces with no false find; 5 misses two more."""
SCALE_STEP = 1.15
"""Each scan looks for faces this much larger than the last (``scaleFactor``): 1.1
finds one face more of 120 and costs a third more time."""
MIN_SIDE_PX = 8
"""A picture narrower than this has nothing to find (and no gradient to take)."""
CACHE_ENTRIES = 512
KEPT_FORMAT = 1
KEPT_MAX_BYTES = 4096
"""A kept focus region is about 150 bytes of JSON; a bigger file is not ours."""

Kind = Literal["faces", "salient"]
Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class FocusRegion:
    """What a photo is about: a box (left, top, right, bottom) in 0..1 of the upright
    picture, found as ``faces`` or, when it shows no face, as the ``salient`` part."""

    box: Rect
    kind: Kind
    count: int = 1
    """How many faces the box holds (1 for a salient region)."""
    aspect: float = 1.0
    """The picture's width / height (upright), to place the box in a crop."""

    @property
    def centre(self) -> tuple[float, float]:
        left, top, right, bottom = self.box
        return ((left + right) / 2, (top + bottom) / 2)


_cache: OrderedDict[str, FocusRegion | None] = OrderedDict()
"""Focus regions by SHA-256 of the file's content."""
_digests: dict[tuple[str, int, int], str] = {}
"""The content hash of a file as last read (path, size, modification time): a picture
drawn on many cards is read and hashed once, an edited file again."""


def focus_region_of_file(path: Path) -> FocusRegion | None:
    """The focus region of the picture file ``path`` (cached by content), or None when
    the file cannot be read or is refused (the picture loader reports such files) or
    is flat. The file is opened as every customer picture is
    (:func:`deckgen.deck.picturefile.open_untrusted`: header checks before pixels,
    within the process's decode budget)."""
    from deckgen.deck.picturefile import MAX_PICTURE_BYTES

    try:
        stat = path.stat()
        if stat.st_size > MAX_PICTURE_BYTES:
            return None
        seen = (str(path), stat.st_size, stat.st_mtime_ns)
        digest = _digests.get(seen)
        if digest is not None and digest in _cache:
            _cache.move_to_end(digest)
            return _cache[digest]
        raw = path.read_bytes()
    except OSError:
        return None
    digest = hashlib.sha256(raw).hexdigest()
    del raw
    _digests[seen] = digest
    if len(_digests) > CACHE_ENTRIES:
        _digests.pop(next(iter(_digests)))
    if digest in _cache:
        _cache.move_to_end(digest)
        return _cache[digest]
    kept = _read_kept(digest)
    if kept is not None:
        found = kept[0]
    else:
        small = _small_copy(path)
        found = None
        if small is not None:
            try:
                found = focus_region(small)
            except (ValueError, RuntimeError):  # pragma: no cover - OpenCV refusing odd pixels
                found = None
            _keep(digest, found)
    _cache[digest] = found
    while len(_cache) > CACHE_ENTRIES:
        _cache.popitem(last=False)
    return found


@functools.lru_cache(maxsize=256)
def picture_aspect(path: Path) -> float:
    """Width / height of the picture file as shown (EXIF rotation applied), from its
    header; 1.0 when it cannot be read (the picture loader reports such files)."""
    from deckgen.deck.picturefile import picture_header
    from deckgen.errors import DeckgenError

    try:
        width, height = picture_header(path, where=str(path)).upright_size
    except (DeckgenError, OSError):
        return 1.0
    return width / height if width > 0 and height > 0 else 1.0


def _kept_name(digest: str) -> str:
    """The cache file of a picture's focus: its content hash and the detector's
    settings (another setting or OpenCV version looks again)."""
    return f"focus/{digest[:2]}/{digest}-{_settings_key()}.json"


@functools.lru_cache(maxsize=1)
def _settings_key() -> str:
    """The detector's settings and OpenCV's version, hashed (once per process)."""
    from importlib import metadata

    try:
        opencv = metadata.version("opencv-python-headless")
    except metadata.PackageNotFoundError:  # pragma: no cover - another OpenCV wheel
        opencv = "?"
    settings = (KEPT_FORMAT, DETECT_SIDE_PX, DRAFT_SHARE, MIN_FACE_SHARE, KEEP_FACE_SHARE,
                SALIENT_PIXELS, SALIENT_MASS, MIN_NEIGHBOURS, SCALE_STEP, opencv)  # fmt: skip
    return hashlib.sha256(repr(settings).encode()).hexdigest()[:12]


def _read_kept(digest: str) -> tuple[FocusRegion | None] | None:
    """The focus region kept on disk for the picture content ``digest`` (in a 1-tuple:
    ``(None,)`` is a picture known to have none), or None when nothing valid is kept."""
    from deckgen.usercache import read_json

    data = read_json(_kept_name(digest), KEPT_MAX_BYTES)
    if not isinstance(data, dict) or data.get("key") != digest:
        return None
    region = data.get("region")
    if region is None:
        return (None,)
    try:
        box = tuple(float(v) for v in region["box"])
        kind, count, aspect = region["kind"], region["count"], float(region["aspect"])
    except (KeyError, TypeError, ValueError):
        return None
    if len(box) != 4 or not all(0.0 <= v <= 1.0 for v in box):
        return None
    if box[0] >= box[2] or box[1] >= box[3] or kind not in ("faces", "salient"):
        return None
    if type(count) is not int or not 1 <= count <= 10_000 or not 1e-4 < aspect < 1e4:
        return None
    return (FocusRegion(box, kind, count, aspect),)


def _keep(digest: str, found: FocusRegion | None) -> None:
    """Keep a picture's focus region on disk, for later runs."""
    from deckgen.usercache import write_json

    region = None if found is None else dataclasses.asdict(found)
    write_json(_kept_name(digest), {"key": digest, "region": region})


def clear_cache() -> None:
    """Forget every result held in memory (a cold start also points
    ``$DECKGEN_CACHE_DIR`` at an empty folder: results are kept there too)."""
    _cache.clear()
    _digests.clear()


def _small_copy(path: Path) -> PILImage.Image | None:
    """The picture upright, as RGB, reduced to about :data:`DETECT_PIXELS`.

    JPEGs decode in draft mode at a reduced size; any other large picture is reduced
    strip by strip right after decoding (as the picture loader does), so that its
    full-size pixels exist once and no full-size copy is made.
    """
    from PIL import Image

    from deckgen.deck.picturefile import decoding, open_untrusted
    from deckgen.deck.pictures import _orient, _reduced_by_strips
    from deckgen.errors import DeckgenError

    try:
        im, header = open_untrusted(path, where=str(path))
    except (DeckgenError, OSError):
        return None
    try:
        with warnings.catch_warnings(), decoding(header.width_px * header.height_px):
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            if im.format in ("JPEG", "MPO"):
                # decoding at 1/8 instead of 1/4 scale is several times cheaper; a copy
                # down to DRAFT_SHARE of the detection size is still plenty
                want = _reduced_size(im.size)
                im.draft("RGB", (round(want[0] * DRAFT_SHARE), round(want[1] * DRAFT_SHARE)))
            im.load()
            want = _reduced_size(im.size)
            factor = min(im.size[0] // want[0], im.size[1] // want[1])
            if factor >= 2:
                im = _reduced_by_strips(im, factor)
            im = _orient(im, header.orientation)
            if im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
                # a transparent picture (a logo) is seen on white, as on a light card
                rgba = im.convert("RGBA")
                ground = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
                im = Image.alpha_composite(ground, rgba)
            if im.mode in ("I;16", "I;16L", "I;16B", "I;16N", "I"):
                im = im.convert("I").point(lambda v: v * (1 / 257)).convert("L")
            return _reduced(im.convert("RGB"))
    except Exception:
        return None


def focus_region(image: PILImage.Image) -> FocusRegion | None:
    """The faces in ``image`` (any size; reduced first), else its salient region."""
    import numpy as np

    im = _reduced(image.convert("RGB"))

    rgb = np.asarray(im, dtype=np.uint8)
    if min(rgb.shape[:2]) < MIN_SIDE_PX:
        return None
    faces = find_faces(rgb)
    if faces:
        found: FocusRegion | None = _faces_region(faces, rgb.shape[1], rgb.shape[0])
    else:
        # the salient part needs no fine detail: every other pixel or fewer
        step = max(1, round(math.sqrt(rgb.shape[0] * rgb.shape[1] / SALIENT_PIXELS)))
        found = salient_region(rgb[::step, ::step])
    if found is None:
        return None
    return dataclasses.replace(found, aspect=image.width / image.height)


def _reduced_size(size: tuple[int, int]) -> tuple[int, int]:
    width, height = size
    scale = min(1.0, math.sqrt(DETECT_PIXELS / max(1, width * height)))
    return (max(1, round(width * scale)), max(1, round(height * scale)))


def _reduced(im: PILImage.Image) -> PILImage.Image:
    from PIL import Image

    size = _reduced_size(im.size)
    if size == im.size:
        return im
    return im.resize(size, Image.Resampling.BILINEAR)


def find_faces(rgb: NDArray[np.uint8]) -> list[tuple[int, int, int, int]]:
    """Face boxes (x, y, w, h in pixels) in an RGB array, largest first."""
    import cv2

    grey = cv2.equalizeHist(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY))
    side = max(20, round(min(grey.shape) * MIN_FACE_SHARE))
    found: Any = _cascade().detectMultiScale(
        grey, scaleFactor=SCALE_STEP, minNeighbors=MIN_NEIGHBOURS, minSize=(side, side)
    )
    boxes = [(int(x), int(y), int(w), int(h)) for x, y, w, h in found]
    return sorted(boxes, key=lambda b: -b[2] * b[3])


_cascades: dict[str, Any] = {}


def _cascade() -> Any:
    import cv2

    found = _cascades.get("face")
    if found is None:
        folder: str = cv2.data.haarcascades  # type: ignore[attr-defined]
        path = Path(folder) / "haarcascade_frontalface_alt2.xml"
        found = cv2.CascadeClassifier(str(path))
        if found.empty():  # pragma: no cover - a broken OpenCV install
            raise RuntimeError(f"OpenCV's face cascade is missing ({path})")
        _cascades["face"] = found
    return found


FACE_MARGIN = 0.12
"""The detector's box is a little tighter than a face (forehead to chin, ear to ear):
each side is widened by this share of the box."""


def _faces_region(faces: list[tuple[int, int, int, int]], width: int, height: int) -> FocusRegion:
    largest = faces[0][2]
    kept = [f for f in faces if f[2] >= largest * KEEP_FACE_SHARE]
    left = min(x - w * FACE_MARGIN for x, _y, w, _h in kept)
    top = min(y - h * FACE_MARGIN for _x, y, _w, h in kept)
    right = max(x + w * (1 + FACE_MARGIN) for x, _y, w, _h in kept)
    bottom = max(y + h * (1 + FACE_MARGIN) for _x, y, _w, h in kept)
    box = (
        max(0.0, left / width),
        max(0.0, top / height),
        min(1.0, right / width),
        min(1.0, bottom / height),
    )
    return FocusRegion(box, "faces", len(kept))


def salient_region(rgb: NDArray[np.uint8]) -> FocusRegion | None:
    """The eye-catching part of an RGB array: edges plus colour contrast, or None
    when the picture is flat."""
    import numpy as np

    pixels = rgb.astype(np.float32)
    grey = pixels @ np.array([0.299, 0.587, 0.114], dtype=np.float32)
    gy, gx = np.gradient(grey)
    edges = np.hypot(gx, gy)
    contrast = np.linalg.norm(pixels - pixels.reshape(-1, 3).mean(axis=0), axis=2)
    energy = _normalised(edges) + _normalised(contrast)
    energy = _box_blur(energy, max(1, min(energy.shape) // 40))
    # only the strongest part counts, so a busy but uniform background weighs less
    energy = np.maximum(energy - np.quantile(energy, 0.6), 0.0)
    total = float(energy.sum())
    if total <= 1e-6:
        return None
    height, width = energy.shape
    cols, rows = energy.sum(axis=0) / total, energy.sum(axis=1) / total
    left, right = _central_span(cols)
    top, bottom = _central_span(rows)
    return FocusRegion((left / width, top / height, right / width, bottom / height), "salient")


def _normalised(values: NDArray[np.float32]) -> NDArray[np.float32]:
    top = float(values.max())
    return values / top if top > 0 else values


def _box_blur(values: NDArray[np.float32], radius: int) -> NDArray[np.float32]:
    """A separable box blur of ``radius`` (summed-area, edges clamped)."""
    import numpy as np

    out = values
    for axis in (0, 1):
        padded = np.pad(out, [(radius, radius) if a == axis else (0, 0) for a in (0, 1)], "edge")
        summed = np.cumsum(padded, axis=axis, dtype=np.float64)
        zero = np.zeros_like(np.take(summed, [0], axis=axis))
        summed = np.concatenate([zero, summed], axis=axis)
        n = out.shape[axis]
        upper = np.take(summed, np.arange(2 * radius + 1, 2 * radius + 1 + n), axis=axis)
        lower = np.take(summed, np.arange(0, n), axis=axis)
        out = ((upper - lower) / (2 * radius + 1)).astype(np.float32)
    return out


def _central_span(weights: NDArray[Any]) -> tuple[float, float]:
    """The span (in index units) holding :data:`SALIENT_MASS` of ``weights`` around the
    weighted median."""
    import numpy as np

    cumulative = np.cumsum(weights)
    low = (1 - SALIENT_MASS) / 2
    start = int(np.searchsorted(cumulative, low))
    end = int(np.searchsorted(cumulative, 1 - low)) + 1
    return float(start), float(min(len(weights), max(end, start + 1)))
