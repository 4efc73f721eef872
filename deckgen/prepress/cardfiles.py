"""Per-card PDF files and the back/front interleaved PDF that print-on-demand shops want.

Takes the deck build's ``cards.pdf`` and ``back.pdf`` as the caller opened them
(:class:`~deckgen.prepress.cardpages.CardPdfs`, geometry checked); gives

- :func:`split_cards`: one PDF per card (and one for the back), each page the card
  plus bleed with MediaBox = BleedBox = the page and TrimBox = the card (MeinSpiel),
  optionally with crop marks on a larger page around it;
- :func:`interleave_back_front`: one PDF whose pages are back, front, back, front ...
  in deck order (DriveThruCards), the back stored once however often it appears;
- :func:`fronts_and_backs`: one PDF of every front and one of every back, a card a
  page in deck order, padded with white pages to the vendor's card count (MeinSpiel's
  upload form); the common back is stored once however often it appears.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from deckgen.prepress.cardpages import CardPdfs, box, pt
from deckgen.prepress.marks import crop_marks_ops, registration_resources
from deckgen.prepress.pdfout import save_pdf
from deckgen.prepress.sheetlayout import SheetLayout
from deckgen.progress import Reporter
from deckgen.units import MM_PER_PT

if TYPE_CHECKING:
    import pikepdf

SLUG_MM = 8.5
"""Extra paper around the bleed of a per-card file that carries crop marks: room for
full marks (3 mm from the trim or 0.5 mm beyond the bleed, 5 mm long, 3 mm inside the
paper edge) around a 3 mm bleed."""


def _set_boxes(page: pikepdf.Page) -> None:
    """MediaBox = CropBox = BleedBox = the page; TrimBox kept (or the page if missing)."""
    import pikepdf

    media = pikepdf.Array([float(v) for v in box(page, "MediaBox")])
    trim = pikepdf.Array([float(v) for v in box(page, "TrimBox")])
    page.obj.MediaBox = media
    page.obj.CropBox = media
    page.obj.BleedBox = media
    page.obj.TrimBox = trim


def _single(src: pikepdf.Pdf, index: int, *, marks: bool, cmyk: bool) -> pikepdf.Pdf:
    import pikepdf

    out = pikepdf.new()
    if not marks:
        out.pages.append(src.pages[index])
        _set_boxes(out.pages[0])
        return out
    page = src.pages[index]
    mx0, my0, mx1, my1 = box(page, "MediaBox")
    tx0, ty0, tx1, ty1 = box(page, "TrimBox")
    form = page.as_form_xobject()
    form.BBox = page.obj.MediaBox
    form_ref = out.copy_foreign(src.make_indirect(form))
    slug = pt(SLUG_MM)
    width, height = (mx1 - mx0) + 2 * slug, (my1 - my0) + 2 * slug
    to_mm = MM_PER_PT
    layout = SheetLayout(
        paper_w_mm=width * to_mm,
        paper_h_mm=height * to_mm,
        card_w_mm=(tx1 - tx0) * to_mm,
        card_h_mm=(ty1 - ty0) * to_mm,
        bleed_mm=(tx0 - mx0) * to_mm,
        gutter_mm=0.0,
        cols=1,
        rows=1,
    )
    content = f"q 1 0 0 1 {slug - mx0:.4f} {slug - my0:.4f} cm /Card Do Q\n" + crop_marks_ops(
        layout, "cmyk" if cmyk else "rgb"
    )
    bleed_box = [slug, slug, slug + (mx1 - mx0), slug + (my1 - my0)]
    trim_box = [slug + (tx0 - mx0), slug + (ty0 - my0), slug + (tx1 - mx0), slug + (ty1 - my0)]
    media = [0, 0, width, height]
    new_page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=media,
        CropBox=media,
        BleedBox=bleed_box,
        TrimBox=trim_box,
        Resources=pikepdf.Dictionary(
            XObject=pikepdf.Dictionary(Card=form_ref), ColorSpace=registration_resources(out)
        ),
        Contents=out.make_stream(content.encode("ascii")),
    )
    out.pages.append(pikepdf.Page(new_page))
    return out


def split_cards(
    pdfs: CardPdfs,
    targets: Sequence[Path],
    back_target: Path,
    *,
    crop_marks: bool = False,
    colour_space: Literal["rgb", "cmyk"] = "rgb",
    finish: Callable[[pikepdf.Pdf, Path], None] | None = None,
    reporter: Reporter | None = None,
) -> list[Path]:
    """Write page i of ``pdfs.cards`` to ``targets[i]`` and the back to ``back_target``.

    ``finish(pdf, target)`` is called on each single-card document before it is saved
    (to add an output intent and its own metadata, for example).
    """
    cards, back = pdfs.cards, pdfs.back
    if len(targets) != len(cards.pages):
        raise ValueError(f"{len(targets)} file names for {len(cards.pages)} cards")
    cmyk = colour_space == "cmyk"
    if reporter:
        reporter.start("writing one PDF per card", len(targets) + 1)
    written = []
    jobs = [(cards, index, target) for index, target in enumerate(targets)]
    jobs.append((back, 0, back_target))
    for src, index, target in jobs:
        single = _single(src, index, marks=crop_marks, cmyk=cmyk)
        if finish is not None:
            finish(single, target)
        written.append(save_pdf(single, target))
        if reporter:
            reporter.advance()
    if reporter:
        reporter.finish()
    return written


def _blank_page(pdf: pikepdf.Pdf, like: pikepdf.Page) -> pikepdf.Page:
    """A white page with the boxes of ``like`` (a card not needed: nothing printed)."""
    import pikepdf

    media = pikepdf.Array([float(v) for v in box(like, "MediaBox")])
    trim = pikepdf.Array([float(v) for v in box(like, "TrimBox")])
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=media,
        CropBox=media,
        BleedBox=media,
        TrimBox=trim,
        Resources=pikepdf.Dictionary(),
        Contents=pdf.make_stream(b"q Q\n"),  # nothing printed (an empty stream would
        # be saved as an empty Flate stream, which Ghostscript cannot read)
    )
    return pikepdf.Page(pdf.make_indirect(page))


def _repeat(out: pikepdf.Pdf, page: pikepdf.Page) -> None:
    """Append another page that shares ``page``'s content (stored once)."""
    import pikepdf

    again = pikepdf.Dictionary({k: page.obj[k] for k in page.obj.keys()})  # noqa: SIM118
    out.pages.append(pikepdf.Page(out.make_indirect(again)))


def fronts_and_backs(
    pdfs: CardPdfs,
    fronts: Sequence[int],
    backs: Sequence[int | None],
    count: int,
    fronts_target: Path,
    backs_target: Path,
    *,
    finish: Callable[[pikepdf.Pdf, Path], None] | None = None,
) -> tuple[Path, Path]:
    """Two PDFs of ``count`` pages each: the fronts (page ``fronts[i]`` of ``pdfs.cards``)
    and the backs (page ``backs[i]`` of ``pdfs.cards``, or the common back for ``None``),
    then white pages on both up to ``count``. ``finish(pdf, target)`` is called on each
    before it is saved."""
    import pikepdf

    if len(fronts) != len(backs):
        raise ValueError(f"{len(fronts)} fronts but {len(backs)} backs")
    if count < len(fronts):
        raise ValueError(f"{len(fronts)} cards do not fit in {count}")
    cards, back = pdfs.cards, pdfs.back
    written = []
    for pages, target in ((list(fronts), fronts_target), (list(backs), backs_target)):
        out = pikepdf.new()
        common: pikepdf.Page | None = None
        for index in pages:
            if index is None and common is not None:
                _repeat(out, common)
                continue
            out.pages.append(back.pages[0] if index is None else cards.pages[index])
            _set_boxes(out.pages[-1])
            if index is None:
                common = out.pages[-1]
        while len(out.pages) < count:
            out.pages.append(_blank_page(out, out.pages[0]))
        if finish is not None:
            finish(out, target)
        written.append(save_pdf(out, target))
    return written[0], written[1]


def interleave_back_front(
    pdfs: CardPdfs,
    target: Path,
    *,
    finish: Callable[[pikepdf.Pdf, Path], None] | None = None,
) -> Path:
    """One PDF with pages back, front, back, front ... in deck order."""
    import pikepdf

    cards, back = pdfs.cards, pdfs.back
    out = pikepdf.new()
    out.pages.append(back.pages[0])
    first_back = out.pages[0]
    _set_boxes(first_back)
    for index in range(len(cards.pages)):
        if index > 0:
            again = pikepdf.Dictionary({k: first_back.obj[k] for k in first_back.obj.keys()})  # noqa: SIM118
            out.pages.append(pikepdf.Page(out.make_indirect(again)))
        out.pages.append(cards.pages[index])
        _set_boxes(out.pages[-1])
    if finish is not None:
        finish(out, target)
    return save_pdf(out, target)
