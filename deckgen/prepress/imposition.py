"""Imposing card PDFs onto sheets of paper: fronts n-up with marks, then their backs.

Takes the deck build's ``cards.pdf`` and ``back.pdf`` (paths, or the pair a build has
open: :class:`~deckgen.prepress.cardpages.CardPdfs`) and the sheet options (paper,
duplex flip, marks, back offset); gives a PDF whose pages are: fronts sheet 1, backs
sheet 1, fronts sheet 2, backs sheet 2 ... Every card page is placed by reference as a
form XObject, so each card (and each picture in it) is stored once however often it is
placed; the backs sheet places the one back form in every slot that has a front,
mirrored for the flip so that each back lands behind its front. Crop marks (or cut
lines) are drawn on the fronts only, outside every card. Every page has MediaBox =
CropBox = BleedBox = TrimBox = the paper, and the document asks viewers and printers
not to scale it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from deckgen.errors import InputError, did_you_mean
from deckgen.prepress.cardpages import CardPdfs, box, open_card_pdfs, pt
from deckgen.prepress.marks import crop_marks_ops, cut_lines_ops, registration_resources
from deckgen.prepress.presets import PAPER_SIZES_MM
from deckgen.prepress.sheetlayout import SheetLayout, compute_layout
from deckgen.progress import Reporter

if TYPE_CHECKING:
    import pikepdf

MarkStyle = Literal["crop", "cut", "none"]


@dataclass(frozen=True, slots=True)
class SheetOptions:
    """How to impose: paper name, duplex flip, marks, and the sheet's bleed and spacing."""

    paper: str = "A4"
    duplex: Literal["long", "short"] = "long"
    marks: MarkStyle = "crop"
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    bleed_mm: float | None = None
    gutter_mm: float = 0.0
    margin_mm: float = 3.0
    colour_space: Literal["rgb", "cmyk"] = "rgb"


@dataclass(frozen=True, slots=True)
class ImposedSheets:
    """The imposed document and how it was laid out."""

    pdf: pikepdf.Pdf
    layout: SheetLayout
    sheets: int
    cards: int


def paper_size(name: str) -> tuple[float, float]:
    """Portrait size in mm of a paper name (A4, Letter, A3, SRA3; case-insensitive)."""
    for key, size in PAPER_SIZES_MM.items():
        if key.lower() == name.strip().lower():
            return size
    hint = did_you_mean(name, PAPER_SIZES_MM)
    raise InputError(
        f"unknown paper '{name}'" + (f", {hint}" if hint else ""),
        where="option --sheets",
        fix="use one of " + ", ".join(PAPER_SIZES_MM),
    )


def layout_for(
    card_mm: tuple[float, float], card_bleed_mm: float, options: SheetOptions
) -> SheetLayout:
    """The grid for these cards and options (the sheet bleed never exceeds the card's)."""
    bleed = card_bleed_mm if options.bleed_mm is None else min(options.bleed_mm, card_bleed_mm)
    return compute_layout(
        paper_size(options.paper),
        card_mm,
        bleed_mm=bleed,
        gutter_mm=options.gutter_mm,
        margin_mm=options.margin_mm,
        marks=options.marks != "none",
    )


def impose_sheets(
    cards_pdf: Path,
    back_pdf: Path,
    options: SheetOptions,
    *,
    pages: Sequence[int] | None = None,
    reporter: Reporter | None = None,
) -> ImposedSheets:
    """Impose ``cards_pdf`` (all pages, or the 0-based ``pages``) and ``back_pdf``.

    Gives the document in memory; save it with :func:`deckgen.prepress.pdfout.save_pdf`.
    """
    pdfs = open_card_pdfs(cards_pdf, back_pdf)
    return impose_card_pdfs(pdfs, options, pages=pages, reporter=reporter)


def impose_card_pdfs(
    pdfs: CardPdfs,
    options: SheetOptions,
    *,
    pages: Sequence[int] | None = None,
    reporter: Reporter | None = None,
) -> ImposedSheets:
    """:func:`impose_sheets` of card PDFs the caller has open (a build's one open pair);
    save the result before closing ``pdfs``."""
    import pikepdf

    cards, back, geo = pdfs.cards, pdfs.back, pdfs.geometry
    layout = layout_for((geo.card_w_mm, geo.card_h_mm), geo.bleed_mm, options)
    order = list(range(len(cards.pages))) if pages is None else list(pages)
    for index in order:
        if not 0 <= index < len(cards.pages):
            raise InputError(f"card page {index + 1} does not exist", where=str(pdfs.cards_path))

    out = pikepdf.new()
    forms: dict[int, pikepdf.Object] = {}
    back_form = _import_form(out, back, 0)
    back_trim = box(back.pages[0], "TrimBox")
    per = layout.per_sheet
    groups = [order[i : i + per] for i in range(0, len(order), per)]
    if reporter:
        reporter.start("imposing sheets", len(groups))
    for group in groups:
        front_ops: list[str] = []
        resources: dict[str, pikepdf.Object] = {}
        for slot, index in enumerate(group):
            if index not in forms:
                forms[index] = _import_form(out, cards, index)
            name = f"/C{index}"
            resources[name] = forms[index]
            trim = box(cards.pages[index], "TrimBox")
            front_ops.append(
                _place(
                    name,
                    trim,
                    layout.front_trim(slot),
                    layout.bleed_sides(slot),
                    turn=90 if layout.rotated else 0,
                )
            )
        colours = None
        if options.marks == "crop":
            front_ops.append(
                crop_marks_ops(
                    layout, options.colour_space, len(group), margin_mm=options.margin_mm
                )
            )
        elif options.marks == "cut":
            front_ops.append(
                cut_lines_ops(layout, options.colour_space, len(group), margin_mm=options.margin_mm)
            )
        if options.marks != "none":
            colours = registration_resources(out)
        _add_page(out, layout, "\n".join(front_ops), resources, colours)

        back_ops = [
            _place(
                "/B",
                back_trim,
                layout.back_trim(slot, options.duplex, options.back_offset_mm),
                layout.back_bleed_sides(slot, options.duplex),
                turn=_back_turn(layout, options.duplex),
            )
            for slot in range(len(group))
        ]
        _add_page(out, layout, "\n".join(back_ops), {"/B": back_form})
        if reporter:
            reporter.advance()
    if reporter:
        reporter.finish()
    out.Root.ViewerPreferences = pikepdf.Dictionary(PrintScaling=pikepdf.Name("/None"))
    return ImposedSheets(out, layout, len(groups), len(order))


def _import_form(out: pikepdf.Pdf, src: pikepdf.Pdf, index: int) -> pikepdf.Object:
    """Page ``index`` of ``src`` as a form XObject in ``out`` (shared resources kept once)."""
    page = src.pages[index]
    form = page.as_form_xobject()
    # QPDF bounds the form by the TrimBox; keep the bleed: bound it by the MediaBox.
    form.BBox = page.obj.MediaBox
    return out.copy_foreign(src.make_indirect(form))


def _back_turn(layout: SheetLayout, duplex: str) -> int:
    """How the backs of turned cards are turned: seen after a long-edge flip the card's
    top points the other way (-90 degrees), after a short-edge flip the same way."""
    if not layout.rotated:
        return 0
    return -90 if duplex == "long" else 90


def _place(
    name: str,
    trim_pt: tuple[float, float, float, float],
    target_mm: tuple[float, float, float, float],
    bleed_mm: tuple[float, float, float, float],
    *,
    turn: int = 0,
) -> str:
    """Content that draws form ``name`` with its trim box on ``target_mm`` (turned by
    ``turn`` degrees, 0, 90 or -90), clipped to the target plus the bleed kept on each
    side (left, bottom, right, top, mm)."""
    tx0, ty0 = pt(target_mm[0]), pt(target_mm[1])
    w, h = pt(target_mm[2] - target_mm[0]), pt(target_mm[3] - target_mm[1])
    left, bottom, right, top = (pt(v) for v in bleed_mm)
    clip = (
        f"q {_n(tx0 - left)} {_n(ty0 - bottom)} {_n(w + left + right)} "
        f"{_n(h + bottom + top)} re W n "
    )
    x0, y0, x1, y1 = trim_pt
    if turn == 90:  # (x, y) -> (-y, x) + t: the card's top points left
        matrix = f"0 1 -1 0 {_n(tx0 + y1)} {_n(ty0 - x0)}"
    elif turn == -90:  # (x, y) -> (y, -x) + t: the card's top points right
        matrix = f"0 -1 1 0 {_n(tx0 - y0)} {_n(ty0 + x1)}"
    else:
        matrix = f"1 0 0 1 {_n(tx0 - x0)} {_n(ty0 - y0)}"
    return f"{clip}{matrix} cm {name} Do Q"


def _n(value: float) -> str:
    """A number for a content stream: 4 decimals, no trailing zeros, never ``-0``."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _add_page(
    out: pikepdf.Pdf,
    layout: SheetLayout,
    content: str,
    xobjects: dict[str, pikepdf.Object],
    colour_spaces: pikepdf.Dictionary | None = None,
) -> None:
    import pikepdf

    paper = [0, 0, round(pt(layout.paper_w_mm), 4), round(pt(layout.paper_h_mm), 4)]
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=paper,
        CropBox=paper,
        BleedBox=paper,
        TrimBox=paper,
        Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(xobjects)),
        Contents=out.make_stream(content.encode("ascii")),
    )
    if colour_spaces is not None:
        page.Resources.ColorSpace = colour_spaces
    out.pages.append(pikepdf.Page(page))
