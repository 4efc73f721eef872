"""Large pictures that are allowed are decoded reduced: peak memory near one decode.

Before: a 40-megapixel RGBA PNG peaked at about twice its decoded size on top of the
interpreter (conversions and copies at full size), 16-bit grey at five times. The
pictures are reduced strip by strip right after decoding, so every copy is small.
Measured in a fresh interpreter (its VmHWM), never as a time.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

WIDTH, HEIGHT = 8000, 5000  # 40 MP: big enough to see, quick to make

MEASURE = """
import sys
from pathlib import Path


def peak_mb():  # VmHWM: this process's own peak (ru_maxrss keeps the forking parent's)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) // 1024


from deckgen.deck.pictures import PictureUse, open_picture, prepare_picture
use = PictureUse(57.0, 40.0, "cover")
decoded = open_picture(Path(sys.argv[1]), where="test", needs=[use])
prepared = prepare_picture(decoded, use)
im = prepared.image if prepared.image is not None else None
if im is None:
    import io
    from PIL import Image
    im = Image.open(io.BytesIO(prepared.data))
    im.load()
left = im.convert("RGB").getpixel((2, im.height // 2))
right = im.convert("RGB").getpixel((im.width - 3, im.height // 2))
print(peak_mb(), left[0], right[0])
"""


def _gradient_rgba(path: Path) -> None:
    x = (np.arange(WIDTH, dtype=np.uint32) * 255 // WIDTH).astype(np.uint8)
    a = np.empty((HEIGHT, WIDTH, 4), np.uint8)
    a[..., 0] = x
    a[..., 1] = 100
    a[..., 2] = 255 - x
    a[..., 3] = 200
    Image.fromarray(a, "RGBA").save(path, compress_level=1)


def _gradient_grey16(path: Path) -> None:
    x = (np.arange(WIDTH, dtype=np.uint32) * 65535 // WIDTH).astype(np.uint16)
    Image.fromarray(np.broadcast_to(x, (HEIGHT, WIDTH)).copy()).save(path, compress_level=1)


def _baseline_mb() -> int:
    out = subprocess.run(
        [sys.executable, "-c", MEASURE.split("use =")[0] + "print(peak_mb())"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return int(out.stdout.split()[0])


@pytest.mark.parametrize(
    ("make", "bytes_per_px"), [(_gradient_rgba, 4), (_gradient_grey16, 2)], ids=["rgba", "grey16"]
)
def test_large_allowed_picture_peaks_near_one_decode(
    make: object, bytes_per_px: int, tmp_path: Path
) -> None:
    path = tmp_path / "big.png"
    make(path)  # type: ignore[operator]
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path)], capture_output=True, text=True, check=True
    )
    peak_mb, left, right = (int(v) for v in out.stdout.split())
    decode_mb = WIDTH * HEIGHT * bytes_per_px // 2**20
    extra = peak_mb - _baseline_mb()
    # One decoded copy plus small strips; the old path needed two to five copies.
    assert extra < decode_mb + 80, (peak_mb, extra, decode_mb)
    assert left < 40
    assert right > 215
