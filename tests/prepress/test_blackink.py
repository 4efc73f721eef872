"""Text in black ink only: black and grey text and hairlines print on the K plate alone.

Proved on a real CMYK build (DriveThruCards) with Ghostscript's ``tiffsep`` separations:
wherever small text is printed, the cyan, magenta and yellow plates carry no ink, and
white text on the navy cover knocks out every plate. The preflight names text that
looks black or grey but uses colour inks.
"""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from deckgen.prepress.blackink import (
    colour_uses,
    is_k_only,
    is_neutral,
    k_tint,
    looks_grey,
    text_cmyk,
)
from deckgen.prepress.preflight import PreflightRules, preflight_pdf
from separations import plates

DPI = 300


def _text_boxes(pdf: Path, index: int) -> list[tuple[float, float, float, float, float]]:
    """Bounds (PDF points) and font size of every text object on a page."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(str(pdf))
    try:
        page = doc[index]
        out = []
        for obj in page.get_objects(max_depth=8):
            if obj.type == raw.FPDF_PAGEOBJ_TEXT:
                x0, y0, x1, y1 = (float(v) for v in obj.get_bounds())
                out.append((x0, y0, x1, y1, 0.0))
        return out
    finally:
        doc.close()


def _page_height(pdf: Path, index: int) -> float:
    with pikepdf.open(pdf) as doc:
        return float(doc.pages[index].mediabox[3])


def _crop(image: Image.Image, box: tuple[float, float, float, float], height: float) -> Image.Image:
    scale = DPI / 72
    x0, y0, x1, y1 = box
    return image.crop(
        (
            int(x0 * scale),
            int((height - y1) * scale),
            int(x1 * scale) + 1,
            int((height - y0) * scale) + 1,
        )
    )


def _inks_under_glyphs(
    found: dict[str, Image.Image], box: tuple[float, float, float, float], height: float
) -> tuple[int, int]:
    """(glyph pixels, the most colour ink on any of them) where K shows the letters."""
    k = _crop(found["Black"], box, height).tobytes()
    c, m, y = (_crop(found[n], box, height).tobytes() for n in ("Cyan", "Magenta", "Yellow"))
    glyphs = [i for i, v in enumerate(k) if v >= 100]
    worst = max((max(c[i], m[i], y[i]) for i in glyphs), default=0)
    return len(glyphs), worst


@pytest.mark.parametrize(("page", "what"), [(2, "tile 0-0"), (-1, "the imprint")])
def test_small_text_is_black_ink_only(
    dtc_build: Path, tmp_path: Path, page: int, what: str
) -> None:
    cards = dtc_build / "cards.pdf"
    with pikepdf.open(cards) as pdf:
        count = len(pdf.pages)
    number = page if page > 0 else count
    found = plates(cards, number, tmp_path)
    height = _page_height(cards, number - 1)
    boxes = _text_boxes(cards, number - 1)
    assert boxes, f"{what}: no text found"
    glyph_pixels = 0
    for x0, y0, x1, y1, _ in boxes:
        n, worst = _inks_under_glyphs(found, (x0, y0, x1, y1), height)
        glyph_pixels += n
        assert worst <= 1, (
            f"{what}: text at {x0:.0f},{y0:.0f} pt carries {worst / 2.55:.0f} % colour ink"
        )
    assert glyph_pixels > 200, f"{what}: the text did not show on the black plate"


def test_white_cover_text_knocks_out_every_plate(dtc_build: Path, tmp_path: Path) -> None:
    cards = dtc_build / "cards.pdf"
    found = plates(cards, 1, tmp_path)
    height = _page_height(cards, 0)
    boxes = sorted(_text_boxes(cards, 0), key=lambda b: -(b[2] - b[0]) * (b[3] - b[1]))
    title = boxes[0][:4]
    c, m, y, k = (
        _crop(found[n], title, height).tobytes() for n in ("Cyan", "Magenta", "Yellow", "Black")
    )
    ground = max(c)
    assert ground > 100, "the cover's band should be a strong colour under the title"
    letters = [i for i, v in enumerate(c) if v == 0]
    assert len(letters) > 0.1 * len(c), "the title does not knock out the cyan plate"
    assert max(max(m[i], y[i]) for i in letters) <= 1
    assert max(k[i] for i in letters) <= 13, "white text should carry at most a light K tint"


def test_preflight_clean_on_build_and_names_four_colour_grey_text(
    dtc_build: Path, tmp_path: Path
) -> None:
    rules = PreflightRules(cmyk=True, max_ink_percent=240, check_safe_margin=False)
    report = preflight_pdf(dtc_build / "cards.pdf", [], rules)
    assert not report.by_kind("text-not-k-only")
    assert not report.by_kind("line-not-k-only")

    from reportlab.pdfgen import canvas

    bad = tmp_path / "bad.pdf"
    c = canvas.Canvas(str(bad), pagesize=(200, 200))
    c.setFillColorCMYK(0.6, 0.5, 0.5, 0.9)  # rich black
    c.drawString(20, 100, "rich black text")
    c.setStrokeColorCMYK(0.3, 0.25, 0.25, 0.5)  # four-colour grey hairline
    c.setLineWidth(0.3)
    c.line(20, 50, 180, 50)
    c.setFillColorCMYK(0.0, 0.8, 0.9, 0.0)  # coloured text: a design choice, not reported
    c.drawString(20, 150, "red text")
    c.save()
    report = preflight_pdf(bad, ["a card"], rules)
    kinds = sorted(f.kind for f in report.findings if f.kind.endswith("k-only"))
    assert kinds == ["line-not-k-only", "text-not-k-only"], report.to_json()
    assert "C60 M50 Y50 K90" in report.by_kind("text-not-k-only")[0].message


def test_neutral_and_tint_rules() -> None:
    assert is_neutral((0.133, 0.133, 0.133))
    assert not is_neutral((0.8, 0.1, 0.1))
    tints = [k_tint((g, g, g)) for g in (0.0, 0.25, 0.5, 0.75, 1.0)]
    assert tints == sorted(tints, reverse=True)
    assert tints[0] == 1.0
    assert tints[-1] == 0.0
    assert 0.4 < k_tint((0.5, 0.5, 0.5)) < 0.75
    assert text_cmyk((0.2, 0.2, 0.21)) == (0.0, 0.0, 0.0, k_tint((0.2, 0.2, 0.21)))
    assert text_cmyk((0.1, 0.2, 0.6)) is None
    assert is_k_only((0, 0, 0.003, 0.5))
    assert not is_k_only((0.01, 0, 0, 0.5))
    assert looks_grey((0.3, 0.25, 0.25, 0.5))
    assert not looks_grey((0, 0.8, 0.9, 0))


def test_colour_uses_follow_q_and_painting() -> None:
    stream = (
        b"0.1 0.1 0.1 rg q 0.5 0.5 0.5 rg BT /F1 9 Tf (a) Tj ET Q 0 0 10 10 re f 0.2 0.2 0.2 RG S"
    )
    pdf = pikepdf.new()
    instructions = list(pikepdf.parse_content_stream(pdf.make_stream(stream)))
    uses = colour_uses(instructions)
    ops = [str(instruction.operator) for instruction in instructions]
    first, second = ops.index("rg"), ops.index("rg", 1)
    assert uses[first] == {"fill"}
    assert uses[second] == {"text"}
    assert uses[ops.index("RG")] == {"stroke"}
