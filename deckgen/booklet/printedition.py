"""The booklet's print edition: pages with bleed and page boxes, and the finishing hook.

Takes the options a user gave (``--print``, ``--paper``) and finished booklet PDFs;
gives what a print shop is sent:

- ``booklet-<lang>-press.pdf``: every page laid out with 3 mm bleed (the cover's colour
  runs into it), TrimBox at the trimmed page and BleedBox around the bleed, and
  ``/PrintScaling /None`` so that nothing is scaled;
- the saddle-stitch sheets (``--impose``) made from those pages, on real paper with crop
  and fold marks (:mod:`deckgen.booklet.imposition`).

Both files are CMYK by default (``colour="cmyk"``): black and grey text and lines in
black ink alone, pictures through the FOGRA39 profile, PDF/X-4
(:func:`deckgen.prepress.pressfile.press_pdf`). ``colour="rgb"`` (``--rgb``) keeps
them in sRGB, for a digital print shop that converts with its own profile. The
finishing step is one function that takes a finished PDF's bytes and returns the
converted PDF; it is applied to the press edition after everything else, so the
converter sees exactly the file that would otherwise be written. The default CMYK step
converts each page once: the sheets are imposed from the converted press edition and
take only the PDF/X step (:func:`press_sheets`). A step of the caller's own
(``PrintOptions.finish``) replaces the default and is applied to the press edition and
to the sheets imposed from the pages as laid out.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from deckgen.booklet.paper import PAPERS
from deckgen.errors import InputError

if TYPE_CHECKING:
    import pikepdf

BLEED_MM = 3.0
"""Bleed of the print edition on every side of every page."""

Finisher = Callable[[bytes], bytes]
"""Turns a finished PDF into the shop's flavour (CMYK, K-only text, PDF/X-4)."""

PressColour = Literal["cmyk", "rgb"]
"""The colours of the print edition: CMYK PDF/X-4 (the default) or sRGB as laid out."""


@dataclass(frozen=True)
class PrintOptions:
    """How the booklet is printed: the print edition, the paper for imposed sheets, and
    the finishing step."""

    edition: bool = False
    """Also write ``booklet-<lang>-press.pdf`` (bleed, boxes); impose from it."""
    paper: str | None = None
    """Paper of the imposed sheets (``a4``, ``sra4``, ...); None: the smallest that fits."""
    bleed_mm: float = BLEED_MM
    colour: PressColour = "cmyk"
    """CMYK with K-only text, PDF/X-4; or ``rgb``: as laid out, for the shop to convert."""
    finish: Finisher | None = None
    """Applied last to the press edition and the imposed sheets instead of the step
    ``colour`` chooses."""
    created: str | None = None
    """The PDF date of the CMYK files for the press (``make_booklets`` sets it from
    :mod:`deckgen.prepress.sourcedate`); None: PDF/X's default date."""

    def finisher(self) -> Finisher | None:
        """The step applied last to the files for the press (None: none)."""
        if self.finish is not None:
            return self.finish
        if self.edition and self.colour == "cmyk":
            import functools

            from deckgen.prepress.pressfile import press_pdf

            return functools.partial(press_pdf, created=self.created)
        return None

    def check(self, *, impose: bool) -> None:
        """A clear error for options that would otherwise be ignored or cannot work."""
        if self.paper is not None and not impose:
            raise InputError(
                "--paper only chooses the paper of the imposed sheets",
                where="option --paper",
                fix="add --impose, or leave --paper out",
            )
        if self.colour == "rgb" and not self.edition:
            raise InputError(
                "--rgb only keeps the print edition in RGB",
                where="option --rgb",
                fix="add --print, or leave --rgb out (the screen booklet is always RGB)",
            )
        if self.paper is not None and self.paper.lower() not in PAPERS:
            raise InputError(
                f"there is no paper '{self.paper}'",
                where="option --paper",
                fix=f"use one of {', '.join(PAPERS)}",
            )
        if not 0 <= self.bleed_mm <= 10:
            raise InputError(
                f"a bleed of {self.bleed_mm:g} mm is out of range",
                where="bleed_mm",
                fix="use 0 to 10 mm (3 mm is usual)",
            )


def no_scaling(pdf: bytes) -> bytes:
    """``pdf`` with ``/ViewerPreferences /PrintScaling /None`` (its tags, fonts and
    metadata untouched): a printer prints it at 100 %."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        prefs = doc.Root.get("/ViewerPreferences")
        if not isinstance(prefs, pikepdf.Dictionary):
            prefs = pikepdf.Dictionary()
        prefs.PrintScaling = pikepdf.Name("/None")
        doc.Root.ViewerPreferences = prefs
        buf = io.BytesIO()
        doc.save(buf, deterministic_id=True)
        return buf.getvalue()


PAGE_BOXES = ("/MediaBox", "/CropBox", "/BleedBox", "/TrimBox", "/ArtBox")


def _shifted(box: pikepdf.Object, dx: float, dy: float) -> pikepdf.Array:
    import pikepdf

    x0, y0, x1, y1 = (float(v) for v in box)
    return pikepdf.Array(
        [round(x0 + dx, 6), round(y0 + dy, 6), round(x1 + dx, 6), round(y1 + dy, 6)]
    )


def origin_at_zero(pdf: bytes) -> bytes:
    """``pdf`` with every page's MediaBox starting at (0, 0).

    WeasyPrint lays bleed out beyond the page's origin, so a page's MediaBox starts at
    (-bleed, -bleed): valid PDF, but preflight tools and some RIPs flag a negative page
    origin. Each such page's content is moved by (+bleed, +bleed) with a ``cm`` around
    its content stream, and its page boxes, link rectangles and link targets with it:
    the page prints exactly as before.
    """
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        moved: dict[tuple[int, int], tuple[float, float]] = {}
        for page in doc.pages:
            x0, y0 = (float(v) for v in list(page.mediabox)[:2])
            if x0 == 0 and y0 == 0:
                continue
            dx, dy = -x0, -y0
            moved[page.obj.objgen] = (dx, dy)
            page.contents_coalesce()
            page.contents_add(f"q 1 0 0 1 {dx:.6f} {dy:.6f} cm\n".encode(), prepend=True)
            page.contents_add(b"\nQ\n", prepend=False)
            for name in PAGE_BOXES:
                if name in page.obj:
                    page.obj[name] = _shifted(page.obj[name], dx, dy)
            for annot in page.obj.get("/Annots", []):
                if "/Rect" in annot:
                    annot.Rect = _shifted(annot.Rect, dx, dy)
                if "/QuadPoints" in annot:
                    q = [float(v) for v in annot.QuadPoints]
                    annot.QuadPoints = pikepdf.Array(
                        [round(v + (dx if i % 2 == 0 else dy), 6) for i, v in enumerate(q)]
                    )
        if moved:
            _shift_destinations(doc, moved)
        buf = io.BytesIO()
        doc.save(buf, deterministic_id=True)
        return buf.getvalue()


def _shift_destinations(
    doc: pikepdf.Pdf, moved: dict[tuple[int, int], tuple[float, float]]
) -> None:
    """Every explicit ``[page /XYZ left top zoom]`` destination onto a moved page (links,
    outline entries, named destinations) is moved with it."""
    import pikepdf

    seen: set[tuple[int, int]] = set()
    stack: list[object] = [doc.Root]
    while stack:
        obj = stack.pop()
        if isinstance(obj, (pikepdf.Dictionary, pikepdf.Array)) and obj.is_indirect:
            if obj.objgen in seen:
                continue
            seen.add(obj.objgen)
        if isinstance(obj, pikepdf.Array):
            if (
                len(obj) >= 4
                and isinstance(obj[0], pikepdf.Dictionary)
                and obj[0].objgen in moved
                and obj[1] == pikepdf.Name.XYZ
            ):
                dx, dy = moved[obj[0].objgen]
                for k, d in ((2, dx), (3, dy)):
                    with contextlib.suppress(TypeError, ValueError):  # null: kept as is
                        obj[k] = round(float(obj[k]) + d, 6)
                continue
            stack.extend(v for v in obj if isinstance(v, (pikepdf.Dictionary, pikepdf.Array)))
        elif isinstance(obj, pikepdf.Dictionary):
            for key, v in obj.items():
                if key in ("/Parent", "/P", "/Pg"):  # back-pointers: reached from above
                    continue
                if isinstance(v, (pikepdf.Dictionary, pikepdf.Array)):
                    stack.append(v)


def finished(pdf: bytes, options: PrintOptions) -> bytes:
    """``pdf`` after the finishing step, when there is one."""
    step = options.finisher()
    return step(pdf) if step is not None else pdf


def press_sheets(pages: bytes, press: bytes, options: PrintOptions) -> bytes:
    """The saddle-stitch sheets for the press, from the print edition's ``pages`` as laid
    out and ``press``, the same pages finished.

    With the default CMYK finishing the sheets are imposed from ``press`` as written:
    its pages are CMYK already, and the marks the imposition adds are in registration
    colour, so the sheets take the PDF/X step alone
    (:func:`~deckgen.prepress.pressfile.press_pdf_of_cmyk`) and every colour is
    converted once. A finishing step of the caller's own (``options.finish``) sees the
    sheets imposed from the pages as laid out, as it sees those pages."""
    from deckgen.booklet.imposition import impose_saddle_stitch

    if options.finish is None and options.edition and options.colour == "cmyk":
        from deckgen.prepress.pressfile import press_pdf_of_cmyk

        sheets = impose_saddle_stitch(press, paper=options.paper, need_marks=True)
        return press_pdf_of_cmyk(sheets, created=options.created)
    sheets = impose_saddle_stitch(pages, paper=options.paper, need_marks=options.edition)
    return finished(sheets, options)


def saddle_stitch_pages(pdf: bytes) -> bytes:
    """``pdf`` padded with blank pages to a multiple of 4 pages, as a saddle-stitched
    booklet needs: the blanks go just before the last page (the quick reference on the
    back cover), where a printer expects them (:func:`~deckgen.booklet.imposition.
    padded_sequence`). Each blank has the page boxes of the last page."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        count = len(doc.pages)
        blanks = -count % 4
        if not blanks or count < 2:
            return pdf
        last = doc.pages[-1]
        for _ in range(blanks):
            page = pikepdf.Dictionary(
                Type=pikepdf.Name.Page,
                Resources=pikepdf.Dictionary(),
                Contents=doc.make_stream(b""),
            )
            for name in PAGE_BOXES:
                if name in last.obj:
                    page[name] = pikepdf.Array(list(last.obj[name]))
            doc.pages.insert(count - 1, pikepdf.Page(page))
        buf = io.BytesIO()
        doc.save(buf, deterministic_id=True)
        return buf.getvalue()
