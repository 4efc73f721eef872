"""The print edition's pages start at (0, 0): WeasyPrint lays bleed out at a negative
origin, which preflight tools flag; ``origin_at_zero`` moves every page, its boxes, its
links and the destinations onto it, and the page prints exactly as before."""

from __future__ import annotations

import io

import numpy as np
import pikepdf
import pypdfium2 as pdfium
import pytest

from deckgen.booklet.printedition import origin_at_zero

BLEED = 3 / 25.4 * 72  # 3 mm in pt

HTML = """<html><head><style>
@page { size: 100mm 80mm; bleed: 3mm; margin: 10mm; background: #2a6; }
h1 { font-size: 14pt; } a { color: #900; }
</style></head><body>
<h1 id="top">First page</h1><p><a href="#two">to the second page</a></p>
<h1 id="two" style="break-before: page">Second page</h1><p><a href="#top">back</a></p>
</body></html>"""


@pytest.fixture(scope="module")
def pdfs() -> tuple[bytes, bytes]:
    import weasyprint

    before = weasyprint.HTML(string=HTML).write_pdf()
    assert isinstance(before, bytes)
    return before, origin_at_zero(before)


def _boxes(pdf: bytes) -> list[dict[str, list[float]]]:
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        return [
            {n: [float(v) for v in p.obj[n]] for n in ("/MediaBox", "/TrimBox", "/BleedBox")}
            for p in doc.pages
        ]


def _dests(pdf: bytes) -> dict[str, tuple[int, float, float]]:
    """Named destinations: page index, left, top."""
    out = {}
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        index = {p.obj.objgen: i for i, p in enumerate(doc.pages)}
        names = pikepdf.NameTree(doc.Root.Names.Dests)
        for key, dest in names.items():
            out[key] = (index[dest[0].objgen], float(dest[2]), float(dest[3]))
    return out


def test_weasyprint_lays_bleed_out_at_a_negative_origin(pdfs: tuple[bytes, bytes]) -> None:
    before, _ = pdfs
    media = _boxes(before)[0]["/MediaBox"]
    assert media[:2] == pytest.approx([-BLEED, -BLEED], abs=0.01)


def test_boxes_start_at_zero_and_keep_their_sizes(pdfs: tuple[bytes, bytes]) -> None:
    before, after = pdfs
    for old, new in zip(_boxes(before), _boxes(after), strict=True):
        assert new["/MediaBox"][:2] == [0.0, 0.0]
        for name in old:
            assert new[name] == pytest.approx([v + BLEED for v in old[name]], abs=0.01)
        assert new["/TrimBox"][:2] == pytest.approx([BLEED, BLEED], abs=0.01)


def test_the_pages_print_exactly_as_before(pdfs: tuple[bytes, bytes]) -> None:
    before, after = pdfs
    a, b = pdfium.PdfDocument(before), pdfium.PdfDocument(after)
    assert len(a) == len(b) == 2
    for i in range(2):
        pa = np.asarray(a[i].render(scale=2).to_pil().convert("RGB"), dtype=np.int16)
        pb = np.asarray(b[i].render(scale=2).to_pil().convert("RGB"), dtype=np.int16)
        assert pa.shape == pb.shape
        assert int(np.abs(pa - pb).max()) <= 2, f"page {i + 1} renders differently"
        assert (pa[:, :, 0] > 100).any()  # the red link text is there at all


def test_links_and_destinations_move_with_the_page(pdfs: tuple[bytes, bytes]) -> None:
    before, after = pdfs
    old, new = _dests(before), _dests(after)
    assert set(old) == set(new) == {"top", "two"}
    for key, (page, left, top) in old.items():
        assert new[key] == pytest.approx((page, left + BLEED, top + BLEED), abs=0.01)
    with pikepdf.open(io.BytesIO(before)) as d0, pikepdf.open(io.BytesIO(after)) as d1:
        for p0, p1 in zip(d0.pages, d1.pages, strict=True):
            r0 = [[float(v) for v in a.Rect] for a in p0.obj.get("/Annots", [])]
            r1 = [[float(v) for v in a.Rect] for a in p1.obj.get("/Annots", [])]
            assert len(r0) == len(r1) >= 1
            for x, y in zip(r0, r1, strict=True):
                assert y == pytest.approx([v + BLEED for v in x], abs=0.01)


def test_a_page_at_the_origin_is_left_alone() -> None:
    import weasyprint

    plain = weasyprint.HTML(string="<p>no bleed</p>").write_pdf()
    assert isinstance(plain, bytes)
    assert _boxes(origin_at_zero(plain)) == _boxes(plain)
