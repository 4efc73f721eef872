"""Fonts for card text: the bundled DejaVu Sans, or a TTF/OTF file from the deck file.

Takes optional font paths; gives a :class:`FontPair` of reportlab font names (regular,
bold) registered for drawing. A user font is untrusted: size-limited, and a file that
is not a font, or an OTF with PostScript (CFF) outlines that reportlab cannot embed,
is a clear :class:`~deckgen.errors.ResourceError`. Font names derive from the file's
content, so registering the same file twice is harmless and output stays identical.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from pathlib import Path

from deckgen.deck.fontcheck import check_font_tables
from deckgen.errors import ResourceError, first_line
from deckgen.paths import read_limited
from deckgen.resources import fonts_dir

MAX_FONT_BYTES = 30_000_000
BUNDLED_REGULAR = "DejaVuSans.ttf"
BUNDLED_BOLD = "DejaVuSans-Bold.ttf"


@dataclass(frozen=True)
class FontPair:
    """Registered reportlab font names for running text and for bold text."""

    regular: str
    bold: str


_registered: dict[str, str] = {}


def register_font(path: Path, *, where: str) -> str:
    """Register a TTF/OTF file with reportlab; return its font name."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    data = read_limited(path, max_bytes=MAX_FONT_BYTES, what="font file", where=where)
    digest = hashlib.sha256(data).hexdigest()[:12]
    if digest in _registered:
        return _registered[digest]
    # Before any font library reads it: counts and ranges that would make one loop or
    # allocate gigabytes are refused here (deck/fontcheck.py).
    check_font_tables(data, name=path.name, where=where)
    if data[:4] == b"OTTO":
        data = cff_to_truetype(data, name=path.name, where=where)
    name = f"Deckgen-{digest}"
    try:
        font = TTFont(name, io.BytesIO(data))
    except (TTFError, Exception, MemoryError, RecursionError) as exc:
        raise ResourceError(
            f"'{path.name}' is not a font deckgen can use ({first_line(exc)})",
            where=where,
            fix="give a TrueType .ttf (or TrueType-flavoured .otf) file, or remove the key to "
            "use the bundled font",
        ) from None
    pdfmetrics.registerFont(font)
    _registered[digest] = name
    return name


def cff_to_truetype(data: bytes, *, name: str, where: str) -> bytes:
    """An OpenType font with PostScript (CFF) outlines, converted to TrueType outlines.

    reportlab embeds TrueType outlines only; fontTools (a WeasyPrint dependency)
    turns the cubic curves into quadratic ones within a tenth of a font unit per 100.
    """
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont as FTFont
    from fontTools.ttLib import newTable

    try:
        font = FTFont(io.BytesIO(data))
        if "CFF " not in font:
            raise ValueError("no CFF table")
        order = font.getGlyphOrder()
        glyph_set = font.getGlyphSet()
        glyphs = {}
        for gname in order:
            pen = TTGlyphPen(glyph_set)
            glyph_set[gname].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
            glyphs[gname] = pen.glyph()
        font["loca"] = newTable("loca")
        glyf = font["glyf"] = newTable("glyf")
        glyf.glyphOrder = order
        glyf.glyphs = glyphs
        del font["CFF "]
        if "VORG" in font:
            del font["VORG"]
        glyf.compile(font)
        hmtx = font["hmtx"]
        for gname, glyph in glyf.glyphs.items():
            if hasattr(glyph, "xMin"):
                hmtx[gname] = (hmtx[gname][0], glyph.xMin)
        maxp = font["maxp"] = newTable("maxp")
        maxp.tableVersion = 0x00010000
        for field in (
            "maxZones",
            "maxTwilightPoints",
            "maxStorage",
            "maxFunctionDefs",
            "maxInstructionDefs",
            "maxStackElements",
            "maxSizeOfInstructions",
            "maxComponentElements",
        ):
            setattr(maxp, field, 1 if field == "maxZones" else 0)
        maxp.compile(font)
        post = font["post"]
        post.formatType = 2.0
        post.extraNames = []
        post.mapping = {}
        post.glyphOrder = order
        font.sfntVersion = "\x00\x01\x00\x00"
        out = io.BytesIO()
        font.save(out)
        return out.getvalue()
    except (Exception, MemoryError, RecursionError) as exc:
        raise ResourceError(
            f"the OpenType font '{name}' could not be read ({first_line(exc)})",
            where=where,
            fix="use a TrueType (.ttf) version of the font",
        ) from None


def load_fonts(
    regular: Path | None = None, bold: Path | None = None, *, where: str = ""
) -> FontPair:
    """The deck's fonts: user files where given, the bundled DejaVu Sans otherwise.

    A user regular font without a bold one is used for both.
    """
    bundled = fonts_dir()
    if regular is not None:
        reg = register_font(regular, where=f"{where}, key fonts.regular" if where else "fonts")
    else:
        reg = register_font(bundled / BUNDLED_REGULAR, where="bundled font")
    if bold is not None:
        bld = register_font(bold, where=f"{where}, key fonts.bold" if where else "fonts")
    elif regular is not None:
        bld = reg
    else:
        bld = register_font(bundled / BUNDLED_BOLD, where="bundled font")
    return FontPair(regular=reg, bold=bld)
