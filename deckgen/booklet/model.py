"""What a booklet says, as plain data: sections of blocks, a title page, a quick reference.

Built by :mod:`deckgen.booklet.content` from a rules file and rendered to HTML by
:mod:`deckgen.booklet.html`. Text fields are plain text (the template escapes them);
only ``Figure.svg`` is markup, and it is made by our own diagram functions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

Format = Literal["a5", "a6"]
FORMATS: tuple[str, ...] = ("a5", "a6")


@dataclass(frozen=True)
class Para:
    """A paragraph; ``lead`` is a bold run-in heading such as ``Drawing.``."""

    text: str
    lead: str = ""
    clause: str = ""
    """The id of the rules file's clause this paragraph states (empty: not a clause)."""
    kind: ClassVar[str] = "para"


@dataclass(frozen=True)
class Bullets:
    items: tuple[str, ...]
    numbered: bool = False
    kind: ClassVar[str] = "bullets"


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""
    shows: tuple[str, ...] = ()
    flows: bool = False
    """A long table that may continue on the next page (its header repeated there),
    so that it fills the page instead of leaving a gap before it."""
    prose: bool = False
    """Its last column holds sentences: set flush left, as text is read, not centred."""
    kind: ClassVar[str] = "table"


@dataclass(frozen=True)
class Figure:
    """A diagram (SVG made by :mod:`deckgen.booklet.diagram`) with its caption."""

    svg: str
    caption: str = ""
    shows: tuple[str, ...] = ()
    """The clauses (ids) this diagram shows at work on a real position."""
    kind: ClassVar[str] = "figure"


@dataclass(frozen=True)
class CardPicture:
    """A picture of a printed card, served to WeasyPrint under ``url``."""

    url: str
    alt: str
    label: str = ""


@dataclass(frozen=True)
class CardRow:
    cards: tuple[CardPicture, ...]
    caption: str = ""
    width_mm: float = 22.0
    kind: ClassVar[str] = "cards"


@dataclass(frozen=True)
class Sum:
    """Arithmetic spelled out: one line per term, then the total."""

    lines: tuple[tuple[str, str], ...]
    total: tuple[str, str] | None = None
    title: str = ""
    kind: ClassVar[str] = "sum"


@dataclass(frozen=True)
class Box:
    """A tinted box (an example, a hint) holding other blocks."""

    title: str
    blocks: tuple[Block, ...]
    shows: tuple[str, ...] = ()
    """The clauses (ids) this example shows at work (a real round's scoring)."""
    flows: bool = False
    """A tall box may go on over a page break between its blocks (each kept whole), so
    that it does not leave the page before it mostly empty."""
    kind: ClassVar[str] = "box"


Block = Para | Bullets | Table | Figure | CardRow | Sum | Box


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    blocks: tuple[Block, ...]
    new_page: bool = False


@dataclass(frozen=True)
class TitlePage:
    name: str
    subtitle: str = ""
    facts: tuple[str, ...] = ()
    footnote: str = ""
    art_svg: str = ""
    publisher: str = ""
    kicker: str = ""
    """The line above the name (``Rules of the game``; the designer's edition says so)."""


@dataclass(frozen=True)
class QuickReference:
    """Headings (set-up, a turn, ...) with the short lines under each, and at most one
    line about playing time."""

    title: str
    groups: tuple[tuple[str, tuple[str, ...]], ...]
    note: str = ""
    hands: str = ""
    """How many tiles each player gets (first under the first heading, the set-up),
    when the deal's first sentence does not say."""


@dataclass(frozen=True)
class Booklet:
    lang: str
    title: TitlePage
    sections: tuple[Section, ...]
    quickref: QuickReference | None = None
    running_title: str = ""
    keywords: tuple[str, ...] = field(default_factory=tuple)
    edition: str = "player"

    def blocks(self) -> list[Block]:
        """Every block of every section, boxes opened, in reading order."""
        out: list[Block] = []
        stack: list[Block] = [b for s in self.sections for b in s.blocks][::-1]
        while stack:
            b = stack.pop()
            out.append(b)
            if isinstance(b, Box):
                stack.extend(b.blocks[::-1])
        return out
