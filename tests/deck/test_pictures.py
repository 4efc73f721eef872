"""Pictures with Pillow: orientation, colour modes, draft decoding, dpi warnings, fit, bombs."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from deckgen.deck.pictures import PictureUse, open_picture, prepare_picture
from deckgen.errors import ResourceError
from deckgen.progress import CollectingReporter


def _open(path: Path, needs: list[PictureUse] | None = None) -> Image.Image:
    return open_picture(path, where="test", needs=needs).image


def test_exif_orientation_applied(tmp_path: Path) -> None:
    im = Image.new("RGB", (200, 100), (0, 0, 255))
    im.paste((255, 0, 0), (0, 0, 100, 100))  # left half red
    exif = Image.Exif()
    exif[0x0112] = 6  # shown turned 90 degrees clockwise: left edge goes on top
    im.save(tmp_path / "o.jpg", exif=exif.tobytes(), quality=95)
    out = _open(tmp_path / "o.jpg")
    assert out.size == (100, 200)
    top, bottom = out.getpixel((50, 20)), out.getpixel((50, 180))
    assert isinstance(top, tuple)
    assert isinstance(bottom, tuple)
    assert top[0] > 200
    assert top[2] < 60
    assert bottom[2] > 200
    assert bottom[0] < 60


@pytest.mark.parametrize(
    ("mode", "value", "fmt", "expect"),
    [
        ("CMYK", (0, 255, 255, 0), "JPEG", (255, 0, 0)),
        ("CMYK", (255, 0, 0, 0), "TIFF", (0, 255, 255)),
        ("I;16", 32896, "PNG", (128, 128, 128)),
        ("L", 200, "PNG", (200, 200, 200)),
        ("LA", (90, 255), "PNG", (90, 90, 90)),
        ("RGB", (10, 200, 30), "WEBP", (10, 200, 30)),
    ],
)
def test_colour_modes_convert(
    tmp_path: Path,
    mode: str,
    value: float | tuple[int, ...],
    fmt: str,
    expect: tuple[int, int, int],
) -> None:
    path = tmp_path / f"p.{fmt.lower()}"
    Image.new(mode, (64, 64), value).save(
        path, fmt, **({"quality": 100} if fmt in ("JPEG", "WEBP") else {})
    )
    out = _open(path)
    assert out.mode in ("RGB", "L")
    px = out.convert("RGB").getpixel((32, 32))
    assert isinstance(px, tuple)
    assert sum(abs(a - b) for a, b in zip(px, expect, strict=True)) <= 12, px


def test_palette_with_transparency_keeps_alpha(tmp_path: Path) -> None:
    im = Image.new("P", (40, 40), 1)
    im.putpalette([0, 0, 0, 255, 0, 0] + [0] * 762)
    im.paste(0, (0, 0, 20, 40))
    im.info["transparency"] = 0
    im.save(tmp_path / "p.png", transparency=0)
    out = _open(tmp_path / "p.png")
    assert out.mode == "RGBA"
    corner = out.getpixel((5, 5))
    assert isinstance(corner, tuple)
    assert corner[3] == 0
    assert out.getpixel((30, 5)) == (255, 0, 0, 255)


def test_big_jpeg_is_decoded_in_draft_mode_and_reduced(tmp_path: Path) -> None:
    Image.new("RGB", (2400, 2400), (90, 120, 150)).save(tmp_path / "big.jpg", quality=80)
    use = PictureUse(30.0, 30.0, "cover")
    decoded = open_picture(tmp_path / "big.jpg", where="t", needs=[use])
    assert decoded.image.width < 2400
    assert decoded.image.width >= 354
    prep = prepare_picture(decoded, use)
    assert (prep.width_px, prep.height_px) == (354, 354)
    assert prep.effective_dpi >= 300


def test_low_dpi_warns_and_never_upscales(tmp_path: Path) -> None:
    Image.new("RGB", (120, 120), (1, 2, 3)).save(tmp_path / "small.png")
    reporter = CollectingReporter()
    decoded = open_picture(tmp_path / "small.png", where="deck.toml, key faces.pictures[0]")
    prep = prepare_picture(
        decoded, PictureUse(40.0, 40.0, "cover"), reporter=reporter, card="tile 1-1"
    )
    assert (prep.width_px, prep.height_px) == (120, 120)
    assert len(reporter.warnings) == 1
    warning = reporter.warnings[0]
    assert "small.png" in warning
    assert "76 dpi" in warning
    assert "tile 1-1" in warning


def test_cover_fit_follows_focus_and_contain_keeps_all(tmp_path: Path) -> None:
    im = Image.new("RGB", (400, 200), (0, 0, 255))
    im.paste((255, 0, 0), (0, 0, 200, 200))
    im.save(tmp_path / "wide.png")
    decoded = open_picture(tmp_path / "wide.png", where="t")
    left = prepare_picture(decoded, PictureUse(10.0, 10.0, "cover", (0.0, 0.5)), dpi=100)
    right = prepare_picture(decoded, PictureUse(10.0, 10.0, "cover", (1.0, 0.5)), dpi=100)
    from io import BytesIO

    lpx = Image.open(BytesIO(left.data)).convert("RGB").getpixel((20, 20))
    rpx = Image.open(BytesIO(right.data)).convert("RGB").getpixel((20, 20))
    assert isinstance(lpx, tuple)
    assert isinstance(rpx, tuple)
    assert lpx[0] > 200
    assert rpx[2] > 200
    contain = prepare_picture(decoded, PictureUse(10.0, 10.0, "contain"), dpi=100)
    assert contain.draw_width_mm == pytest.approx(10.0)
    assert contain.draw_height_mm == pytest.approx(5.0)


def _png_header_only(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 64)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def test_decompression_bomb_refused(tmp_path: Path) -> None:
    (tmp_path / "bomb.png").write_bytes(_png_header_only(50_000, 50_000))
    with pytest.raises(ResourceError, match=r"claims 2,500,000,000 pixels.*80 megapixels"):
        _open(tmp_path / "bomb.png")
    (tmp_path / "big.png").write_bytes(_png_header_only(9_500, 9_500))
    with pytest.raises(ResourceError, match="9,500 x 9,500"):
        _open(tmp_path / "big.png")


def test_truncated_jpeg(tmp_path: Path) -> None:
    import random

    rng = random.Random(1)
    im = Image.frombytes("RGB", (300, 300), bytes(rng.getrandbits(8) for _ in range(300 * 300 * 3)))
    im.save(tmp_path / "full.jpg", quality=90)
    data = (tmp_path / "full.jpg").read_bytes()
    (tmp_path / "cut.jpg").write_bytes(data[: len(data) // 2])
    with pytest.raises(ResourceError, match="damaged or cut short"):
        _open(tmp_path / "cut.jpg")


def test_text_named_png(tmp_path: Path) -> None:
    (tmp_path / "notes.png").write_text("hello, I am a text file\n")
    with pytest.raises(ResourceError, match="not a picture"):
        _open(tmp_path / "notes.png")


def test_gif_is_not_accepted(tmp_path: Path) -> None:
    Image.new("RGB", (10, 10)).save(tmp_path / "a.gif")
    with pytest.raises(ResourceError, match="GIF"):
        _open(tmp_path / "a.gif")


def test_truncated_jpeg_even_after_weasyprint_import(tmp_path: Path) -> None:
    from PIL import ImageFile

    test_truncated_jpeg(tmp_path)
    before = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = True  # what `import weasyprint` does
    try:
        with pytest.raises(ResourceError, match="damaged or cut short"):
            _open(tmp_path / "cut.jpg")
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = before
    assert before == ImageFile.LOAD_TRUNCATED_IMAGES
