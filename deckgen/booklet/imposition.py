"""Saddle-stitch imposition: booklet pages onto double-size sheets, ready to fold.

Takes a PDF of booklet pages (all the same size); gives a PDF of sheet sides, each
twice as wide as a page (two A5 pages on an A4 side, two A6 pages on an A5 side),
printed duplex (flip on the short edge), stacked, folded and stapled in the middle.

The page count is padded to a multiple of 4 with blank pages. The blanks go just
before the last page, so the last page (the quick reference) stays on the back cover.
Sheet side ``k`` (0-based) shows, for ``n`` padded pages and 1-based page numbers:
front ``n - 2i | 1 + 2i`` and back ``2 + 2i | n - 1 - 2i`` for sheet ``i = k // 2``.

>>> padded_sequence(6)
[1, 2, 3, 4, 5, None, None, 6]
>>> sheet_sides(8)
[(8, 1), (2, 7), (6, 3), (4, 5)]
"""

from __future__ import annotations

import io


def padded_sequence(pages: int, *, keep_last_page_last: bool = True) -> list[int | None]:
    """The booklet's page sequence (1-based page numbers) padded with ``None`` blanks."""
    if pages < 1:
        raise ValueError("a booklet needs at least one page")
    blanks = -pages % 4
    numbers: list[int | None] = list(range(1, pages + 1))
    if keep_last_page_last and pages > 1:
        return numbers[:-1] + [None] * blanks + numbers[-1:]
    return numbers + [None] * blanks


def sheet_sides(padded_pages: int) -> list[tuple[int, int]]:
    """For ``padded_pages`` (a multiple of 4), the (left, right) positions per side.

    Positions are 1-based places in the padded sequence; sides alternate front, back.
    """
    if padded_pages % 4:
        raise ValueError("pad the page count to a multiple of 4 first")
    n = padded_pages
    sides: list[tuple[int, int]] = []
    for i in range(n // 4):
        sides.append((n - 2 * i, 1 + 2 * i))
        sides.append((2 + 2 * i, n - 1 - 2 * i))
    return sides


def impose_saddle_stitch(pdf: bytes, *, keep_last_page_last: bool = True) -> bytes:
    """Impose the pages of ``pdf`` for saddle stitching; return the new PDF's bytes.

    Each booklet page becomes a form XObject named after its page number, so the same
    booklet always gives the same bytes.
    """
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as src, pikepdf.new() as out:
        count = len(src.pages)
        box = src.pages[0].mediabox
        width = float(box[2]) - float(box[0])
        height = float(box[3]) - float(box[1])
        sequence = padded_sequence(count, keep_last_page_last=keep_last_page_last)
        for left, right in sheet_sides(len(sequence)):
            sheet = out.add_blank_page(page_size=(2 * width, height))
            # The folded sheet is trimmed to its own size: boxes equal the sheet.
            sheet.obj.TrimBox = sheet.obj.BleedBox = sheet.obj.MediaBox
            for slot, position in enumerate((left, right)):
                number = sequence[position - 1]
                if number is None:
                    continue
                x0 = slot * width
                form = out.copy_foreign(src.pages[number - 1].as_form_xobject())
                name = pikepdf.Name(f"/Pg{number}")
                sheet.add_resource(form, pikepdf.Name.XObject, name=name)
                sheet.contents_add(
                    sheet.calc_form_xobject_placement(
                        form,
                        name,
                        pikepdf.Rectangle(x0, 0, x0 + width, height),
                        invert_transformations=True,
                        allow_shrink=True,
                        allow_expand=False,
                    )
                )
        out.docinfo["/Title"] = str(src.docinfo.get("/Title", "booklet")) + " (print)"
        buf = io.BytesIO()
        out.save(buf, deterministic_id=True)
        return buf.getvalue()
