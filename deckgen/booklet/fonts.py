"""The booklet's precut fonts: DejaVu cut down to the characters booklets use.

Takes the full DejaVu TTF files (of the system or any folder); gives the small files
in ``templates/booklet/fonts/`` that the booklet's CSS loads through its URL fetcher.
A maintainer runs :func:`precut_fonts` when the character set must grow; the files are
committed, so making a booklet never needs it. :data:`CHARACTERS` lists what is kept.
"""

from __future__ import annotations

from pathlib import Path

from deckgen.resources import templates_dir

FACES = (
    "DejaVuSerif",
    "DejaVuSerif-Bold",
    "DejaVuSerif-Italic",
    "DejaVuSans",
    "DejaVuSans-Bold",
    "DejaVuSans-Oblique",
)
CHARACTERS: tuple[int, ...] = (
    *range(0x20, 0x7F),  # Basic Latin
    *range(0xA0, 0x180),  # Latin-1 Supplement, Latin Extended-A
    *range(0x2010, 0x2027),  # dashes, quotes, bullets, ellipsis
    *range(0x2030, 0x203B),  # per mille, primes, guillemets
    0x202F,  # narrow no-break space (German "50 %")
    0x20AC,  # euro
    0x2122,  # trade mark
    *range(0x2190, 0x2194),  # arrows
    0x2212,  # minus sign
    0xFB01,
    0xFB02,  # fi, fl ligatures
)
SOURCE_DIR = Path("/usr/share/fonts/truetype/dejavu")


def fonts_dir() -> Path:
    return templates_dir() / "booklet" / "fonts"


def precut_fonts(source_dir: Path = SOURCE_DIR, out_dir: Path | None = None) -> list[Path]:
    """Cut every face in :data:`FACES` from ``source_dir`` down to :data:`CHARACTERS`."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    out = out_dir or fonts_dir()
    written = []
    for face in FACES:
        options = subset.Options()
        options.layout_features = ["kern", "liga", "mark", "mkmk", "ccmp", "locl"]
        options.name_IDs = ["*"]
        options.name_legacy = True
        options.notdef_outline = True
        options.hinting = False
        font = TTFont(source_dir / f"{face}.ttf")
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=CHARACTERS)
        subsetter.subset(font)
        target = out / f"{face}.ttf"
        font.save(target)
        written.append(target)
    return written
