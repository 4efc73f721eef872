"""A finished RGB PDF made into the file a print shop is sent: CMYK, K-only text, PDF/X.

Takes the bytes of a finished PDF (WeasyPrint's booklet pages, or the sheets imposed
from them) and gives the bytes of the same document after the prepress steps, in
order: :func:`deckgen.prepress.cmyk.convert_document` (sRGB to CMYK through the shipped
FOGRA39 profile; black and grey text and lines as a tint of black ink alone),
:func:`deckgen.prepress.pdfx.make_pdfx` (PDF/X-4 by default) and
:func:`deckgen.prepress.pdfout.pdf_bytes` (the file version the flavour allows,
``/PrintScaling /None``). The title kept is the document's own (WeasyPrint's
``<title>``); ``title`` is used only when the document has none. ``created`` (a PDF
date, :func:`deckgen.prepress.sourcedate.pdf_date`) is the file's creation and
modification date: WeasyPrint's output has none, and without it PDF/X's required dates
fall back to :data:`deckgen.prepress.pdfx.DEFAULT_DATE`.

This is the finishing step of the booklet's print edition
(:class:`deckgen.booklet.printedition.PrintOptions`).
"""

from __future__ import annotations

import io

from deckgen.errors import InputError
from deckgen.prepress.pdfx import Flavour


def press_pdf(
    pdf: bytes, *, flavour: Flavour = "x4", title: str = "deckgen", created: str | None = None
) -> bytes:
    """``pdf`` converted to CMYK with K-only text and made a PDF/X file of ``flavour``.

    Raises :class:`~deckgen.errors.InputError` when something stays in RGB (a colour
    the converter does not know): a file that claims to be CMYK must be CMYK.
    """
    import pikepdf

    from deckgen.prepress.cmyk import convert_document
    from deckgen.prepress.pdfout import pdf_bytes
    from deckgen.prepress.pdfx import make_pdfx

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        result = convert_document(doc)
        if result.left_rgb:
            raise InputError(
                "the print edition would keep RGB colours: " + "; ".join(result.left_rgb[:3]),
                where=f"PDF '{title}'",
                fix="write the print edition in RGB (--rgb) and let the print shop convert it",
            )
        make_pdfx(doc, flavour, title=title, created=created)
        return pdf_bytes(doc)


def press_pdf_of_cmyk(
    pdf: bytes, *, flavour: Flavour = "x4", title: str = "deckgen", created: str | None = None
) -> bytes:
    """``pdf``, whose colours are CMYK already, made a PDF/X file of ``flavour``: the
    last step of :func:`press_pdf` without converting a second time.

    For sheets imposed from pages that :func:`press_pdf` made: the pages come in as they
    are, and what the imposition adds (crop and fold marks) is in registration colour
    (:mod:`deckgen.prepress.marks`), so there is nothing left to convert (a second
    conversion took 0.2 s per booklet language and changed no pixel)."""
    import pikepdf

    from deckgen.prepress.pdfout import pdf_bytes
    from deckgen.prepress.pdfx import make_pdfx

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        make_pdfx(doc, flavour, title=title, created=created)
        return pdf_bytes(doc)
