"""Benchmark: do card crops keep the face? Centre crop (before) against the detected focus.

The photo set is made here from photos shipped inside installed packages (nothing is
downloaded): scikit-image's ``astronaut`` (a head-and-shoulders portrait; its face box,
forehead to chin and ear to ear, measured by hand) and the 100 faces of its
``lfw_subset`` (Labeled Faces in the Wild crops, each 25 x 25 px and all face), each
placed at a different position and size on a wide landscape canvas (2:1 to 3:1, the
shape that loses faces) over one of scikit-image's photo textures. Each photo then
goes through the same ``cover`` crop the cards use (:func:`deckgen.deck.pictures.
cover_crop`), for the box shapes of a poker card deck: a card picture (tile half) and
the cover picture. A card "keeps the face" when the whole known face box is inside
the crop.

Goal (issue 22, item 1): at least 95 % of the cards keep the face with the detected
focus. Time: face finding per photo (from the file, cold cache) as a ratio of one
plain Pillow decode of the same file (the anchor, measured in the same run).
Run: ``.venv/bin/python -m bench bench_faces`` (or ``make bench``).
"""

from __future__ import annotations

import functools
import os
import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image as PILImage

ASTRONAUT_CROP = (40, 0, 420, 380)
"""The head-and-shoulders part of skimage's astronaut (512 x 512) that is pasted."""
ASTRONAUT_FACE = (172, 62, 278, 168)
"""Her face (forehead to chin, ear to ear) in the full astronaut picture, by hand."""
CANVAS_RATIOS = (2.0, 16 / 9 * 1.2, 2.5, 3.0)
TEXTURES = ("grass", "gravel", "brick", "coffee", "rocket")
COVER_RATIO = 69.0 / 55.8
"""Width / height of a poker card's cover picture (63 x 88 mm, 3 mm bleed)."""
HALF_RATIO = 1.0
"""A tile half on an upright card is square."""
BOX_RATIOS = {"card picture": HALF_RATIO, "cover picture": COVER_RATIO}


@dataclass(frozen=True)
class FacePhoto:
    """A landscape photo with the one face it shows, boxed (pixels: l, t, r, b)."""

    name: str
    image: PILImage.Image
    face: tuple[int, int, int, int]


def astronaut_pixels() -> Any:
    import skimage.data

    return skimage.data.astronaut()  # type: ignore[no-untyped-call]


@functools.lru_cache(maxsize=8)
def _texture_source(name: str) -> PILImage.Image:
    import skimage.data
    from PIL import Image

    return Image.fromarray(getattr(skimage.data, name)()).convert("RGB")


def _texture(name: str, size: tuple[int, int]) -> PILImage.Image:
    from PIL import Image

    return _texture_source(name).resize(size, Image.Resampling.BILINEAR)


def face_photos(
    count: int = 120, *, seed: int = 22, heights: tuple[int, ...] = (600, 800, 1000)
) -> list[FacePhoto]:
    """``count`` landscape photos, each with one face at a random place and size."""
    import numpy as np
    import skimage.data
    from PIL import Image

    rng = random.Random(seed)
    astronaut = Image.fromarray(astronaut_pixels()).crop(ASTRONAUT_CROP)
    # the first 100 are faces
    lfw = skimage.data.lfw_subset()[:100]  # type: ignore[no-untyped-call]
    photos = []
    for k in range(count):
        ratio = CANVAS_RATIOS[k % len(CANVAS_RATIOS)]
        height = rng.choice(heights)
        width = round(height * ratio)
        canvas = _texture(TEXTURES[k % len(TEXTURES)], (width, height))
        if k % 3 == 0:
            side = round(height * rng.uniform(0.45, 0.9))
            person = astronaut.resize((side, side), Image.Resampling.LANCZOS)
            scale = side / (ASTRONAUT_CROP[2] - ASTRONAUT_CROP[0])
            fl, ft, fr, fb = (
                (ASTRONAUT_FACE[0] - ASTRONAUT_CROP[0]) * scale,
                (ASTRONAUT_FACE[1] - ASTRONAUT_CROP[1]) * scale,
                (ASTRONAUT_FACE[2] - ASTRONAUT_CROP[0]) * scale,
                (ASTRONAUT_FACE[3] - ASTRONAUT_CROP[1]) * scale,
            )
            x = rng.randint(0, width - side)
            y = rng.randint(0, height - side)
            canvas.paste(person, (x, y))
            face = (round(x + fl), round(y + ft), round(x + fr), round(y + fb))
            name = f"astronaut-{k}"
        else:
            grey = (lfw[(k * 7) % 100] * 255).astype(np.uint8)
            side = round(height * rng.uniform(0.15, 0.4))
            tile = Image.fromarray(grey).resize((side, side), Image.Resampling.BICUBIC)
            tint = rng.choice(((255, 225, 200), (240, 200, 170), (200, 160, 130)))
            person = Image.merge("RGB", [tile.point(lambda v, t=t: v * t // 255) for t in tint])
            x = rng.randint(0, width - side)
            y = rng.randint(0, height - side)
            canvas.paste(person, (x, y))
            face = (x, y, x + side, y + side)
            name = f"lfw-{(k * 7) % 100}-{k}"
        photos.append(FacePhoto(name, canvas, face))
    return photos


def keeps_face(photo: FacePhoto, box_ratio: float, focus: tuple[float, float]) -> bool:
    """Whether the cover crop around ``focus`` holds the whole face box."""
    from deckgen.deck.pictures import cover_crop

    left, top, width, height = cover_crop(photo.image.size, box_ratio, focus)
    fl, ft, fr, fb = photo.face
    slack = 0.5
    return (
        fl >= left - slack
        and ft >= top - slack
        and fr <= left + width + slack
        and fb <= top + height + slack
    )


@dataclass
class Tally:
    cards: int = 0
    centre_kept: int = 0
    focus_kept: int = 0
    missed: list[str] | None = None
    detect_s: float = 0.0
    decode_s: float = 0.0


def measure(photos: list[FacePhoto], folder: Path) -> tuple[Tally, float, float]:
    """Crops with the centre and with the detected focus; seconds detecting, decoding."""
    from deckgen.deck.faces import clear_cache

    tally = Tally(missed=[])
    clear_cache()
    before = os.environ.get("DECKGEN_CACHE_DIR")
    os.environ["DECKGEN_CACHE_DIR"] = str(folder / "cache")  # detected now, not recalled
    try:
        _measure_into(tally, photos, folder)
    finally:
        if before is None:
            os.environ.pop("DECKGEN_CACHE_DIR", None)
        else:
            os.environ["DECKGEN_CACHE_DIR"] = before
    return tally, tally.detect_s, tally.decode_s


def _measure_into(tally: Tally, photos: list[FacePhoto], folder: Path) -> None:
    from PIL import Image

    from deckgen.deck.faces import focus_region_of_file

    detect_s = decode_s = 0.0
    for photo in photos:
        path = folder / f"{photo.name}.jpg"
        photo.image.save(path, quality=90)
        start = time.perf_counter()
        with Image.open(path) as im:
            im.load()
        decode_s += time.perf_counter() - start
        start = time.perf_counter()
        region = focus_region_of_file(path)
        detect_s += time.perf_counter() - start
        focus = region.centre if region is not None else (0.5, 0.5)
        for slot, ratio in BOX_RATIOS.items():
            tally.cards += 1
            tally.centre_kept += keeps_face(photo, ratio, (0.5, 0.5))
            kept = keeps_face(photo, ratio, focus)
            tally.focus_kept += kept
            if not kept:
                assert tally.missed is not None
                tally.missed.append(f"{photo.name} ({slot})")
    tally.detect_s, tally.decode_s = detect_s, decode_s


def main() -> None:
    photos = face_photos()
    with tempfile.TemporaryDirectory() as tmp:
        tally, detect_s, decode_s = measure(photos, Path(tmp))
    print(f"{len(photos)} photos, {tally.cards} cards (card picture and cover picture each)")
    print(
        f"face kept, centre crop:    {tally.centre_kept:4d} / {tally.cards} "
        f"= {100 * tally.centre_kept / tally.cards:.1f} %"
    )
    print(
        f"face kept, detected focus: {tally.focus_kept:4d} / {tally.cards} "
        f"= {100 * tally.focus_kept / tally.cards:.1f} %  (goal >= 95 %)"
    )
    if tally.missed:
        print("missed: " + ", ".join(tally.missed[:10]))
    print(
        f"finding faces: {1000 * detect_s / len(photos):.1f} ms a photo = "
        f"{detect_s / decode_s:.2f} x one full Pillow decode (anchor "
        f"{1000 * decode_s / len(photos):.1f} ms)"
    )


if __name__ == "__main__":
    main()
