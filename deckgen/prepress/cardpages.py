"""Reading the deck build's card PDFs: page geometry and each page as a placeable form.

Takes ``cards.pdf`` (one page per card: the card plus bleed, TrimBox = the card) and
``back.pdf`` (one page, same geometry); gives :class:`CardGeometry` (trim size and
bleed in mm, checked to be the same on every page) and, for imposition, each page as
a form XObject copied into a target PDF so that a card drawn many times is stored
once. :func:`open_card_pdfs` opens both once as :class:`CardPdfs`: the print step
hands that one open pair to every stage below it (CMYK conversion, PDF/X, the
vendor's files, the proof, the preflight), so a build parses each file once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from deckgen.errors import InputError
from deckgen.units import PT_PER_MM

if TYPE_CHECKING:
    import pikepdf

TOLERANCE_PT = 0.05


def mm(pt: float) -> float:
    return pt / PT_PER_MM


def pt(mm_value: float) -> float:
    return mm_value * PT_PER_MM


@dataclass(frozen=True, slots=True)
class CardGeometry:
    """Size of a card page: trim size and the bleed around it (all in mm)."""

    card_w_mm: float
    card_h_mm: float
    bleed_mm: float

    @property
    def page_w_mm(self) -> float:
        return self.card_w_mm + 2 * self.bleed_mm

    @property
    def page_h_mm(self) -> float:
        return self.card_h_mm + 2 * self.bleed_mm


def box(page: pikepdf.Page, name: str) -> tuple[float, float, float, float]:
    """A page box as floats (x0, y0, x1, y1) in pt; TrimBox falls back to MediaBox."""
    obj = page.obj
    value = obj.get(f"/{name}") or obj.get("/MediaBox")
    x0, y0, x1, y1 = (float(v) for v in value)  # type: ignore[union-attr]
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def page_geometry(page: pikepdf.Page, *, where: str) -> CardGeometry:
    """Trim size and bleed of one card page; the bleed must be equal on all sides."""
    mx0, my0, mx1, my1 = box(page, "MediaBox")
    tx0, ty0, tx1, ty1 = box(page, "TrimBox")
    bleeds = (tx0 - mx0, ty0 - my0, mx1 - tx1, my1 - ty1)
    if min(bleeds) < -TOLERANCE_PT or max(bleeds) - min(bleeds) > TOLERANCE_PT:
        raise InputError(
            "the card page's TrimBox is not centred in its MediaBox",
            where=where,
            fix="rebuild the deck with `deckgen deck build`",
        )
    return CardGeometry(round(mm(tx1 - tx0), 3), round(mm(ty1 - ty0), 3), round(mm(min(bleeds)), 3))


def open_card_pdf(path: Path, *, what: str, in_memory: bool = False) -> pikepdf.Pdf:
    """Open a card PDF, turning a missing or broken file into an InputError.

    ``in_memory``: read the whole file first (the file may then be replaced, even by
    this document saved again, while it is open)."""
    import pikepdf

    try:
        return pikepdf.open(path, allow_overwriting_input=in_memory)
    except FileNotFoundError:
        raise InputError(
            f"{what} '{path}' does not exist", fix="run `deckgen deck build` first"
        ) from None
    except pikepdf.PdfError as exc:
        raise InputError(
            f"{what} '{path}' is not a readable PDF ({exc})", fix="rebuild the deck"
        ) from None


def deck_geometry(cards: pikepdf.Pdf, back: pikepdf.Pdf, *, cards_name: str) -> CardGeometry:
    """The geometry shared by every card page and the back page; refuses a mixture."""
    if len(cards.pages) == 0 or len(back.pages) == 0:
        raise InputError("a card PDF has no pages", where=cards_name, fix="rebuild the deck")
    first = page_geometry(cards.pages[0], where=f"{cards_name} page 1")
    for number, page in enumerate(cards.pages, start=1):
        geo = page_geometry(page, where=f"{cards_name} page {number}")
        if geo != first:
            raise InputError(
                f"page {number} is {geo.card_w_mm} x {geo.card_h_mm} mm, page 1 is "
                f"{first.card_w_mm} x {first.card_h_mm} mm",
                where=cards_name,
                fix="all cards of a deck must have the same size",
            )
    back_geo = page_geometry(back.pages[0], where="back.pdf page 1")
    if (back_geo.card_w_mm, back_geo.card_h_mm) != (first.card_w_mm, first.card_h_mm):
        raise InputError(
            "the back is not the same size as the cards", where="back.pdf", fix="rebuild"
        )
    return first


@dataclass(frozen=True)
class CardPdfs:
    """``cards.pdf`` and ``back.pdf`` open in pikepdf, with the geometry they share.

    One parse of each file for every stage that reads them; a stage that changes the
    documents (the CMYK conversion) changes them here, and the stages after it read
    the changed documents (and the files: a stage that saves them saves these).
    Stages that copy pages from them save their own files before the pair is closed.
    """

    cards: pikepdf.Pdf
    back: pikepdf.Pdf
    geometry: CardGeometry
    cards_path: Path
    back_path: Path

    def close(self) -> None:
        self.cards.close()
        self.back.close()

    def __enter__(self) -> CardPdfs:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def open_card_pdfs(cards_pdf: Path, back_pdf: Path) -> CardPdfs:
    """Open both card PDFs once (read into memory, so that the files may be replaced
    while they are open) and check their geometry."""
    cards = open_card_pdf(cards_pdf, what="card PDF", in_memory=True)
    try:
        back = open_card_pdf(back_pdf, what="back PDF", in_memory=True)
    except BaseException:
        cards.close()
        raise
    try:
        geometry = deck_geometry(cards, back, cards_name=cards_pdf.name)
    except BaseException:
        cards.close()
        back.close()
        raise
    return CardPdfs(cards, back, geometry, cards_pdf, back_pdf)
