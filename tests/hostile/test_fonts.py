"""Fonts from a deck file are checked before any font library reads them.

A ``cmap`` range edited to U+0000..U+FFFFFFFF made reportlab build a table with
billions of entries. The property: any byte change in a real font's ``cmap`` (or
anywhere) gives a registered font or one ResourceError, within 300 MB and 60 s.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckgen.deck.fontcheck import MAX_MAPPED_CHARS
from deckgen.deck.fonts import register_font
from deckgen.errors import ResourceError
from deckgen.resources import fonts_dir
from tests.hostile.contract import assert_clean_error, examples, run_bounded

FONT = fonts_dir() / "DejaVuSans.ttf"


def _table(data: bytes, tag: bytes) -> tuple[int, int]:
    count = struct.unpack(">H", data[4:6])[0]
    for i in range(count):
        rec = 12 + 16 * i
        if data[rec : rec + 4] == tag:
            offset, length = struct.unpack(">II", data[rec + 8 : rec + 16])
            return offset, length
    raise KeyError(tag)


def _subtables(data: bytes) -> list[tuple[int, int]]:
    """(absolute offset, format) of every cmap subtable."""
    cmap, _ = _table(data, b"cmap")
    count = struct.unpack(">H", data[cmap + 2 : cmap + 4])[0]
    out = []
    for i in range(count):
        sub = cmap + struct.unpack(">I", data[cmap + 8 + 8 * i : cmap + 12 + 8 * i])[0]
        out.append((sub, struct.unpack(">H", data[sub : sub + 2])[0]))
    return out


def _register(data: bytes, tmp: Path) -> str:
    path = tmp / "user.ttf"
    path.write_bytes(data)
    try:
        name = register_font(path, where="deck.toml, key fonts.regular")
    except ResourceError as exc:
        return "refused: " + str(exc)
    from reportlab.pdfbase import pdfmetrics

    face = pdfmetrics.getFont(name).face
    assert len(face.charToGlyph) <= MAX_MAPPED_CHARS + 65_536
    return "ok"


def _bomb_format4(data: bytes) -> bytes:
    """Every format 4 segment made to cover U+0000..U+FFFE (a 2-billion-entry loop)."""
    out = bytearray(data)
    for sub, fmt in _subtables(data):
        if fmt == 4:
            seg = struct.unpack(">H", out[sub + 6 : sub + 8])[0] // 2
            for i in range(seg - 1):
                out[sub + 14 + 2 * i : sub + 16 + 2 * i] = b"\xff\xfe"
                out[sub + 16 + 2 * seg + 2 * i : sub + 18 + 2 * seg + 2 * i] = b"\x00\x00"
    return bytes(out)


def _bomb_format12(data: bytes) -> bytes:
    """A font whose cmap is one format 12 group U+0000..U+FFFFFFFF."""
    cmap, _ = _table(data, b"cmap")
    out = bytearray(data)
    sub = cmap + 4 + 8
    group = struct.pack(">HHIII", 12, 0, 28, 0, 1) + struct.pack(">III", 0, 0xFFFFFFFF, 0)
    # Point the only subtable (3, 10) at the new format 12 table, written over the old.
    out[cmap : cmap + 4] = struct.pack(">HH", 0, 1)
    out[cmap + 4 : cmap + 12] = struct.pack(">HHI", 3, 10, 12)
    out[sub : sub + len(group)] = group
    return bytes(out)


@pytest.mark.parametrize("bomb", [_bomb_format4, _bomb_format12])
def test_cmap_bombs_are_refused_quickly(bomb: object, tmp_path: Path) -> None:
    data = bomb(FONT.read_bytes())  # type: ignore[operator]
    result = run_bounded(lambda: _register(data, tmp_path), extra_mb=300, seconds=30)
    assert result.startswith("refused: "), result
    assert "cmap" in result
    assert_clean_error(result.removeprefix("refused: "))


@settings(
    max_examples=examples(12, 300),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    where=st.integers(min_value=0, max_value=400),
    value=st.binary(min_size=1, max_size=4),
)
def test_changed_cmap_bytes_give_a_font_or_one_error(
    where: int, value: bytes, tmp_path: Path
) -> None:
    data = bytearray(FONT.read_bytes())
    cmap, length = _table(bytes(data), b"cmap")
    at = cmap + where % max(1, length - 4)
    data[at : at + len(value)] = value
    result = run_bounded(lambda: _register(bytes(data), tmp_path), extra_mb=300, seconds=60)
    if result != "ok":
        assert_clean_error(result.removeprefix("refused: "))


def test_memory_error_in_the_font_library_stays_a_clean_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``str(MemoryError())`` is empty; the message must not fail with an IndexError."""
    import reportlab.pdfbase.ttfonts as ttfonts

    def boom(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(ttfonts.TTFont, "__init__", boom)
    path = tmp_path / "other.ttf"
    data = bytearray(FONT.read_bytes())
    data[-1] ^= 1  # a different digest than the bundled font
    path.write_bytes(bytes(data))
    with pytest.raises(ResourceError) as err:
        register_font(path, where="deck.toml")
    assert "MemoryError" in str(err.value)
