"""Saddle-stitch imposition: page order checked by reading each half of each sheet."""

from __future__ import annotations

from collections.abc import Callable

import pypdfium2 as pdfium
import pytest

from deckgen.booklet.imposition import impose_saddle_stitch, padded_sequence, sheet_sides


def _halves(pdf: bytes) -> list[tuple[str, str]]:
    """The text on the left and right half of every sheet side."""
    doc = pdfium.PdfDocument(pdf)
    out = []
    for page in doc:
        w, h = page.get_size()
        text = page.get_textpage()
        left = text.get_text_bounded(0, 0, w / 2, h).strip()
        right = text.get_text_bounded(w / 2, 0, w, h).strip()
        out.append((left, right))
    return out


@pytest.mark.parametrize(
    ("pages", "expected"),
    [
        (
            8,
            [("P8", "P1"), ("P2", "P7"), ("P6", "P3"), ("P4", "P5")],
        ),
        # 6 pages: padded with 2 blanks before the last page (the quick reference)
        (6, [("P6", "P1"), ("P2", ""), ("", "P3"), ("P4", "P5")]),
        (1, [("", "P1"), ("", "")]),
    ],
)
def test_page_order_by_footer(
    make_labelled_pdf: Callable[[int], bytes], pages: int, expected: list[tuple[str, str]]
) -> None:
    imposed = impose_saddle_stitch(make_labelled_pdf(pages))
    assert _halves(imposed) == expected


def test_sheet_is_two_pages_wide(make_labelled_pdf: Callable[[int], bytes]) -> None:
    import io

    import pypdf

    reader = pypdf.PdfReader(io.BytesIO(impose_saddle_stitch(make_labelled_pdf(12))))
    assert len(reader.pages) == 6
    box = reader.pages[0].mediabox
    assert float(box.width) == pytest.approx(841.89, abs=0.01)  # A4 landscape, 297 mm
    assert float(box.height) == pytest.approx(595.28, abs=0.01)  # (was 296 mm: no paper)


def test_every_page_once_and_folds_in_order() -> None:
    for n in range(1, 41):
        seq = padded_sequence(n)
        assert len(seq) % 4 == 0
        assert sorted(p for p in seq if p) == list(range(1, n + 1))
        assert seq[0] == 1
        assert seq[-1] == n or n == 1
        sides = sheet_sides(len(seq))
        positions = [p for side in sides for p in side]
        assert sorted(positions) == list(range(1, len(seq) + 1))
        for left, right in sides:  # facing pages of a folded sheet add up to n + 1
            assert left + right == len(seq) + 1


def test_sheet_sides_needs_multiple_of_four() -> None:
    with pytest.raises(ValueError, match="multiple of 4"):
        sheet_sides(6)
