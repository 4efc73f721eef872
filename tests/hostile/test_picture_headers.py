"""Pictures are checked from their headers, in one place, before any pixel is decoded.

- A JPEG with hundreds of scans (each scan is one more pass over the whole picture; a
  356 KB one of 8900 x 8900 took 31 s to build) is refused by its marker count.
- Size and orientation are read from the header alone: a PNG of 79 megapixels (or one
  that claims 176) is not decoded to learn its size (Pillow's ``getexif`` on a PNG
  decodes the whole picture), measured as this process's peak memory in a fresh
  interpreter, never as a time.
"""

from __future__ import annotations

import io
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.deck.picturefile import (
    MAX_JPEG_SCANS,
    PictureTooLarge,
    jpeg_scan_count,
    open_untrusted,
    picture_header,
)
from deckgen.deck.pictures import open_picture
from tests.hostile.jpegscans import progressive_jpeg


def _jpeg(**save: object) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (320, 200), (10, 120, 200)).save(buf, "JPEG", **save)
    return buf.getvalue()


def test_ordinary_jpegs_have_few_scans_and_pass() -> None:
    assert jpeg_scan_count(_jpeg()) == 1
    assert jpeg_scan_count(_jpeg(progressive=True)) == 10
    # An EXIF block holding SOS-like bytes (e.g. a thumbnail) is skipped by its length.
    junk = b"Exif\x00\x00" + b"\xff\xda\x00\x08\x01\x01\x00\x00\x3f\x00" * 100
    assert jpeg_scan_count(_jpeg(progressive=True, exif=junk)) == 10


def test_a_jpeg_with_hundreds_of_scans_is_refused_before_decoding(tmp_path: Path) -> None:
    data = progressive_jpeg(640, 480, refinements=3)
    assert jpeg_scan_count(data, stop_after=10_000) == 1 + 63 * 4
    with Image.open(io.BytesIO(data)) as im:  # a real JPEG: any decoder reads it
        im.load()
        assert im.getextrema() == (128, 128)
    path = tmp_path / "holiday.jpg"
    path.write_bytes(data)
    with pytest.raises(PictureTooLarge) as refused:
        open_picture(path, where="faces.pictures[0]")
    text = refused.value.message()
    assert "'holiday.jpg'" in text
    assert f"more than the {MAX_JPEG_SCANS}" in text
    assert "faces.pictures[0]" in text
    # An ordinary progressive JPEG is decoded.
    fine = tmp_path / "fine.jpg"
    fine.write_bytes(_jpeg(progressive=True))
    assert open_picture(fine, where="x").image.size == (320, 200)


def test_junk_between_segments_does_not_hide_the_scans(tmp_path: Path) -> None:
    data = progressive_jpeg(256, 256, refinements=1)
    frame = data.index(b"\xff\xc2")
    hidden = data[:frame] + b"junk" * 10 + data[frame:]
    with Image.open(io.BytesIO(hidden)) as im:  # decoders skip the junk and read on
        im.load()
    assert jpeg_scan_count(hidden, stop_after=10_000) == 1 + 63 * 2
    path = tmp_path / "hidden.jpg"
    path.write_bytes(hidden)
    with pytest.raises(PictureTooLarge):
        open_picture(path, where="x")


def test_deck_build_names_the_picture_with_too_many_scans(
    runner: CliRunner, tmp_path: Path
) -> None:
    names = []
    for value in range(1, 7):
        names.append(f"v{value}.png")
        Image.new("RGB", (64, 64), (40 * value, 90, 60)).save(tmp_path / names[-1])
    names[2] = "scans.jpg"
    (tmp_path / "scans.jpg").write_bytes(progressive_jpeg(256, 256, refinements=1))
    deck = tmp_path / "deck.toml"
    listed = ", ".join(f'"{n}"' for n in names)
    deck.write_text(
        f'name = "Scans"\nset = "double-6"\n[faces]\nstyle = "pictures"\npictures = [{listed}]\n'
    )
    out = tmp_path / "out"
    result = runner.invoke(app, ["deck", "build", str(deck), "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert "error: the picture for 3 ('scans.jpg') is a JPEG stored in" in result.stderr
    assert "key faces.pictures)" in result.stderr
    assert "Traceback" not in result.output


def _png(
    path: Path, width: int, height: int, *, exif_after_idat: bytes = b"", bits: int = 8
) -> None:
    """A grey PNG of ``width`` x ``height`` zeros (small file, large picture)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data)
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    packer = zlib.compressobj(9)
    row = b"\0" * (1 + -(-width * bits // 8))
    parts = [packer.compress(row) for _ in range(height)]
    idat = b"".join(parts) + packer.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, bits, 0, 0, 0, 0)
    exif = chunk(b"eXIf", exif_after_idat) if exif_after_idat else b""
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", idat)
        + exif
        + chunk(b"IEND", b"")
    )


def _exif_orientation(value: int) -> bytes:
    exif = Image.Exif()
    exif[0x0112] = value
    return exif.tobytes()


def test_png_orientation_after_the_pixels_is_found_without_decoding(tmp_path: Path) -> None:
    path = tmp_path / "turned.png"
    _png(path, 300, 100, exif_after_idat=_exif_orientation(6))
    header = picture_header(path, where="x")
    assert (header.width_px, header.height_px, header.orientation) == (300, 100, 6)
    assert header.upright_size == (100, 300)
    # the decoder turns it the same way
    assert open_picture(path, where="x").source_size == (100, 300)
    im, checked = open_untrusted(path, where="x")
    assert checked.upright_size == (100, 300)
    im.close()


MEASURE = """
import sys
from pathlib import Path


def peak_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) // 1024


from deckgen.deck.layoutboxes import _is_portrait
from deckgen.prepress.picturecheck import _real_size
from deckgen.studio.app import _picture_size
path = Path(sys.argv[1])
before = peak_mb()
portrait = _is_portrait(path)
size = _picture_size(path)
real = _real_size(path)
print(peak_mb() - before, portrait, size[0], size[1], real == size)
"""


def test_size_and_orientation_of_a_79_megapixel_png_take_no_decode(tmp_path: Path) -> None:
    path = tmp_path / "big.png"
    _png(path, 7000, 11_200, exif_after_idat=_exif_orientation(1))  # 78.4 MP, 76 KB
    assert path.stat().st_size < 200_000
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path)], capture_output=True, text=True, check=True
    )
    grown_mb, portrait, width, height, same = out.stdout.split()
    # A decode would take 75 MB (one byte per pixel); the header takes nothing.
    assert int(grown_mb) < 20, out.stdout
    assert (portrait, width, height, same) == ("True", "7000", "11200", "True")


def test_a_176_megapixel_png_is_refused_from_its_header(tmp_path: Path) -> None:
    path = tmp_path / "huge.png"
    _png(path, 16_000, 11_000)
    with pytest.raises(PictureTooLarge, match=r"'huge.png' claims 16,000 x 11,000 pixels"):
        picture_header(path, where="faces.pictures[0]")
    with pytest.raises(PictureTooLarge, match="claims 16,000 x 11,000 pixels"):
        open_picture(path, where="faces.pictures[0]")


BUILD = """
import sys

def peak_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) // 1024

import atexit
atexit.register(lambda: print("PEAK", peak_mb()))
from deckgen.cli import main
sys.argv = ["deckgen", "deck", "build", sys.argv[1], "--out", sys.argv[2], "-q"]
main()
"""


def test_deck_build_refuses_a_176_megapixel_png_without_decoding_it(tmp_path: Path) -> None:
    names = []
    for value in range(1, 7):
        names.append(f"v{value}.png")
        Image.new("RGB", (64, 64), (40 * value, 90, 60)).save(tmp_path / names[-1])
    names[0] = "huge.png"
    _png(tmp_path / "huge.png", 16_000, 11_000, bits=1)  # 176 MP in 22 KB
    deck = tmp_path / "deck.toml"
    listed = ", ".join(f'"{n}"' for n in names)
    deck.write_text(
        f'name = "Big"\nset = "double-6"\n[faces]\nstyle = "pictures"\npictures = [{listed}]\n'
    )
    out = subprocess.run(
        [sys.executable, "-c", BUILD, str(deck), str(tmp_path / "out")],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2, out.stderr
    assert "('huge.png') claims 16,000 x 11,000 pixels" in out.stderr
    peak = int(out.stdout.split("PEAK")[1])
    # A decode would take 168 MB (one byte per pixel); before, `deck build` decoded it to
    # find its orientation (Pillow's getexif on a PNG) and only then refused it.
    assert peak < 150, out.stdout
