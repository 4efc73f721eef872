"""Checking a user font file's tables before any font library reads it.

Takes the bytes of a TrueType/OpenType file; gives nothing, or raises a
:class:`~deckgen.errors.ResourceError` naming what is wrong. Font libraries trust the
counts and ranges a file states: reportlab builds one dict entry per code point of
every ``cmap`` range, so a range edited to U+0000..U+FFFFFFFF costs gigabytes within
seconds, and fontTools expands ranges the same way. This module reads the table
directory, ``maxp`` and every ``cmap`` subtable with :mod:`struct` only, in time and
memory proportional to the file's size (which is limited), and refuses a file whose
tables leave the file, whose ranges overlap, run backwards or map more characters
than :data:`MAX_MAPPED_CHARS`, or that names glyphs the font does not have.
"""

from __future__ import annotations

import struct

from deckgen.errors import ResourceError

MAX_TABLES = 100
MAX_CMAP_SUBTABLES = 64
MAX_MAPPED_CHARS = 200_000
"""Characters a font may map (the largest real fonts map about 65,000)."""
UNICODE_MAX = 0x10FFFF
_SFNT_VERSIONS = (b"\x00\x01\x00\x00", b"true", b"OTTO")


class _Broken(Exception):
    """What is wrong with the font, in words."""


def _u16(data: bytes, at: int) -> int:
    if at < 0 or at + 2 > len(data):
        raise _Broken("a table is cut short")
    return int.from_bytes(data[at : at + 2], "big")


def _u32(data: bytes, at: int) -> int:
    if at < 0 or at + 4 > len(data):
        raise _Broken("a table is cut short")
    return int.from_bytes(data[at : at + 4], "big")


def _tables(data: bytes) -> dict[bytes, bytes]:
    if data[:4] == b"ttcf":
        raise _Broken("it is a font collection (.ttc); give one font of it as .ttf")
    if data[:4] not in _SFNT_VERSIONS:
        raise _Broken("it does not start like a TrueType or OpenType font")
    count = _u16(data, 4)
    if not 1 <= count <= MAX_TABLES:
        raise _Broken(f"it claims {count} tables")
    tables: dict[bytes, bytes] = {}
    for i in range(count):
        rec = 12 + 16 * i
        tag = data[rec : rec + 4]
        offset, length = _u32(data, rec + 8), _u32(data, rec + 12)
        if offset + length > len(data):
            raise _Broken(f"its table '{tag.decode('latin-1')!s}' lies outside the file")
        tables[tag] = data[offset : offset + length]
    for tag in (b"cmap", b"maxp", b"head", b"hhea", b"hmtx"):
        if tag not in tables:
            raise _Broken(f"it has no '{tag.decode()}' table")
    return tables


def _ranges_ok(ranges: list[tuple[int, int]], limit: int, what: str) -> int:
    """Ascending, non-overlapping, within ``limit``; gives the number of characters."""
    total = 0
    last = -1
    for start, end in ranges:
        if end == 0xFFFF and start == 0xFFFF and limit == 0xFFFF:
            continue  # the format 4 end marker
        if start > end or end > limit:
            raise _Broken(f"a {what} range U+{start:04X}..U+{end:04X} is not a valid range")
        if start <= last:
            raise _Broken(f"its {what} ranges overlap or are out of order at U+{start:04X}")
        last = end
        total += end - start + 1
        if total > MAX_MAPPED_CHARS:
            raise _Broken(
                f"its {what} maps more than {MAX_MAPPED_CHARS:,} characters "
                f"(a range reaches U+{end:04X})"
            )
    return total


def _subtable(cmap: bytes, at: int, glyphs: int) -> None:
    fmt = _u16(cmap, at)
    length = _u32(cmap, at + 4) if fmt in (8, 10, 12, 13) else _u16(cmap, at + 2)
    if at + length > len(cmap) or length < 4:
        raise _Broken(f"its cmap format {fmt} subtable lies outside the cmap table")
    if fmt == 4:
        seg = _u16(cmap, at + 6) // 2
        if 16 + 8 * seg > length:
            raise _Broken("its cmap format 4 subtable claims more segments than it holds")
        ends = [_u16(cmap, at + 14 + 2 * i) for i in range(seg)]
        starts = [_u16(cmap, at + 16 + 2 * seg + 2 * i) for i in range(seg)]
        _ranges_ok(list(zip(starts, ends, strict=True)), 0xFFFF, "cmap format 4")
    elif fmt in (12, 13):
        groups = _u32(cmap, at + 12)
        if 16 + 12 * groups > length:
            raise _Broken(f"its cmap format {fmt} subtable claims more groups than it holds")
        ranges = []
        for i in range(groups):
            g = at + 16 + 12 * i
            start, end, gid = _u32(cmap, g), _u32(cmap, g + 4), _u32(cmap, g + 8)
            last_gid = gid if fmt == 13 else gid + (end - start)
            if last_gid >= glyphs and end >= start:
                raise _Broken(f"its cmap names glyph {last_gid}, but the font has {glyphs}")
            ranges.append((start, end))
        _ranges_ok(ranges, UNICODE_MAX, f"cmap format {fmt}")
    elif fmt in (6, 10):
        count = _u16(cmap, at + 8) if fmt == 6 else _u32(cmap, at + 16)
        head = 10 if fmt == 6 else 20
        if head + 2 * count > length or count > MAX_MAPPED_CHARS:
            raise _Broken(f"its cmap format {fmt} subtable claims {count:,} characters")
    elif fmt in (0, 2, 14):
        if fmt == 0 and length < 262:
            raise _Broken("its cmap format 0 subtable is cut short")
    else:
        raise _Broken(f"its cmap has a subtable of unknown format {fmt}")


def check_font_tables(data: bytes, *, name: str, where: str) -> None:
    """Refuse a font whose tables would make a font library loop or allocate without bound."""
    try:
        tables = _tables(data)
        glyphs = _u16(tables[b"maxp"], 4)
        if glyphs < 1:
            raise _Broken("it has no glyphs")
        if _u16(tables[b"hhea"], 34) > glyphs:
            raise _Broken("its hhea table claims more metrics than glyphs")
        cmap = tables[b"cmap"]
        subtables = _u16(cmap, 2)
        if subtables > MAX_CMAP_SUBTABLES:
            raise _Broken(f"its cmap claims {subtables} subtables")
        for i in range(subtables):
            _subtable(cmap, _u32(cmap, 4 + 8 * i + 4), glyphs)
    except (_Broken, struct.error, IndexError, ValueError) as exc:
        raise ResourceError(
            f"'{name}' is not a font deckgen can use: it could not be read ({exc})",
            where=where,
            fix="use an unmodified TrueType (.ttf) or OpenType (.otf) font file, or remove "
            "the key to use the bundled font",
        ) from None
