"""The booklet PDFs of a real rules file: text, outline, contents, tags, fonts, pixels."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pypdf
import pypdfium2 as pdfium
import pytest

from deckgen.rulespec import load_rules


def _texts(path: Path) -> list[str]:
    doc = pdfium.PdfDocument(str(path))
    return [page.get_textpage().get_text_range() for page in doc]


def _flat(text: str) -> str:
    """Page text with hyphenation undone and whitespace collapsed."""
    text = re.sub(r"[\u2010\u00ad-]\s*[\r\n]+\s*", "", text)
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_rule_numbers_in_text(card_domino_booklets: dict[str, Path], lang: str) -> None:
    rules = load_rules("card-domino")
    reader = pypdf.PdfReader(card_domino_booklets[f"booklet-{lang}.pdf"])  # text as pypdf reads it
    text = _flat(" ".join(page.extract_text() for page in reader.pages))
    for sentence in (
        rules.clause_text("play.draw_limit", lang),
        rules.clause_text("score.bonus", lang),
        rules.clause_text("match.end", lang),
        rules.clause_text("setup.deal", lang),
    ):
        assert _flat(sentence) in text
    hand = {
        "de": "je 7 bei 2 oder 3 Spielern und je 6 bei 4 Spielern",
        "en": "7 each with 2 or 3 players and 6 each with 4 players",
    }[lang]
    assert hand in text
    limit = {"de": "höchstens drei Karten", "en": "never more than three cards"}[lang]
    assert limit in text
    bonus = {"de": "erhält 5 Pluspunkte", "en": "scores 5 plus points"}[lang]
    assert bonus in text


def test_page_footer_and_running_header(card_domino_booklets: dict[str, Path]) -> None:
    for lang, label in (("de", "Seite {} von {}"), ("en", "Page {} of {}")):
        pages = _texts(card_domino_booklets[f"booklet-{lang}.pdf"])
        assert len(pages) >= 6
        for number, text in enumerate(pages[1:], start=2):
            assert label.format(number, len(pages)) in text
        assert label.format(1, len(pages)) not in pages[0]  # the title page has none


def test_outline_and_contents_page_numbers(card_domino_booklets: dict[str, Path]) -> None:
    path = card_domino_booklets["booklet-en.pdf"]
    reader = pypdf.PdfReader(path)
    top = [item for item in reader.outline if not isinstance(item, list)]
    titles = [item.title for item in top]
    assert titles[0] == "Card Domino"
    expected = [
        "Components",
        "Aim of the game",
        "Setting up",
        "Playing",
        "A round, turn by turn",
        "End of a round and scoring",
        "End of the game and ties",
        "Quick reference",
    ]
    assert titles[1:] == expected  # the notes are in the designer's edition
    pages = _texts(path)
    contents = pages[1]
    for item in top[1:]:
        number = reader.get_destination_page_number(item)
        assert number is not None
        assert item.title is not None
        page_no = number + 1
        assert re.search(re.escape(item.title) + r"[ .]*" + str(page_no), _flat(contents))
        assert item.title.upper() in pages[page_no - 1].upper()
    assert "Quick reference" in pages[-1]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_tagged_pdf_ua_with_embedded_fonts(
    card_domino_booklets: dict[str, Path], lang: str
) -> None:
    reader = pypdf.PdfReader(card_domino_booklets[f"booklet-{lang}.pdf"])
    root: Any = reader.trailer["/Root"]
    assert "/StructTreeRoot" in root
    assert root["/MarkInfo"]["/Marked"]
    assert root["/Lang"] == lang
    assert "pdfuaid" in root["/Metadata"].get_object().get_data().decode()
    fonts = 0
    for page in reader.pages:
        resources: Any = page["/Resources"]
        for font in resources.get("/Font", {}).values():
            font = font.get_object()
            for desc in font.get("/DescendantFonts", [font]):
                fd = desc.get_object().get("/FontDescriptor")
                if fd is not None:
                    fonts += 1
                    assert any(
                        k in fd.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3")
                    )
    assert fonts > 0


def test_pictures_are_real_cards_and_small(card_domino_booklets: dict[str, Path]) -> None:
    path = card_domino_booklets["booklet-en.pdf"]
    reader = pypdf.PdfReader(path)
    images = {img.data for page in reader.pages for img in page.images}
    assert len(images) == 5  # the cover card and four tiles, each embedded once
    assert path.stat().st_size < 300_000


def test_title_page_pixels(card_domino_booklets: dict[str, Path]) -> None:
    doc = pdfium.PdfDocument(str(card_domino_booklets["booklet-de.pdf"]))
    im = doc[0].render(scale=72 / 72).to_pil().convert("RGB")
    w, h = im.size
    assert im.getpixel((3, 3)) == pytest.approx((122, 31, 43), abs=3)  # the cover colour
    # the tile art panel: light, with dark pips in its middle
    panel = im.crop((w // 4, int(h * 0.33), 3 * w // 4, int(h * 0.43)))
    colours = panel.getcolors(maxcolors=100000) or []
    dark = sum(n for n, c in colours if sum(c) < 150)
    light = sum(n for n, c in colours if sum(c) > 700)
    assert dark > 50
    assert light > panel.width * panel.height * 0.3


def test_imposed_print_pdf_order(card_domino_booklets: dict[str, Path]) -> None:
    from deckgen.booklet.imposition import padded_sequence, sheet_sides

    single = pypdf.PdfReader(card_domino_booklets["booklet-en.pdf"])
    n = len(single.pages)
    press = pypdf.PdfReader(card_domino_booklets["booklet-en-press.pdf"])
    assert len(press.pages) == len(padded_sequence(n))  # blanks before the back cover
    doc = pdfium.PdfDocument(str(card_domino_booklets["booklet-en-print.pdf"]))
    seq = padded_sequence(n)
    sides = sheet_sides(len(seq))
    assert len(doc) == len(sides)
    for page, (left, right) in zip(doc, sides, strict=True):
        w, h = page.get_size()
        assert w > 2 * 148 / 25.4 * 72 + 40  # the spread, its bleed and the crop marks
        tp = page.get_textpage()
        for position, (x0, x1) in ((left, (0, w / 2)), (right, (w / 2, w))):
            text = tp.get_text_bounded(x0, 0, x1, h)
            number = seq[position - 1]
            if number is None:
                assert text.strip() == ""
            elif number > 1:
                assert f"Page {number} of {n}" in text
            else:
                assert "Card Domino" in text


def test_pdf_is_byte_stable_enough_to_reparse(card_domino_booklets: dict[str, Path]) -> None:
    data = card_domino_booklets["booklet-de.pdf"].read_bytes()
    metadata = pypdf.PdfReader(io.BytesIO(data)).metadata
    assert metadata is not None
    assert metadata.title is not None
    assert metadata.title.startswith("Karten-Domino")


def test_diagram_page_pixels(card_domino_booklets: dict[str, Path]) -> None:
    """The play page shows the later position: a tile outlined in red, blue end marks,
    and light tile faces with dark pips, all inside the text block."""
    path = card_domino_booklets["booklet-en.pdf"]
    texts = _texts(path)
    page_no = next(i for i, t in enumerate(texts) if "The same round a little later" in t)
    doc = pdfium.PdfDocument(str(path))
    im = doc[page_no].render(scale=150 / 72).to_pil().convert("RGB")
    colours = im.getcolors(maxcolors=1_000_000) or []

    def near(target: tuple[int, int, int], tol: int = 40) -> int:
        return sum(
            n for n, c in colours if all(abs(a - b) <= tol for a, b in zip(c, target, strict=True))
        )

    assert near((0xB3, 0x26, 0x1E)) > 40  # the outline of the tile just laid
    assert near((0x1F, 0x5F, 0x8B)) > 20  # the arrows at the open ends
    assert near((0xFF, 0xFD, 0xF7), 3) > 2000  # tile faces
    w, _ = im.size
    for x in (2, w - 3):  # nothing drawn at the paper's edges
        column = [im.getpixel((x, y)) for y in range(0, im.size[1], 7)]
        assert all(sum(c) > 720 for c in column)


def test_same_inputs_give_the_same_bytes(
    card_domino_booklets: dict[str, Path], tmp_path: Path
) -> None:
    from deckgen.booklet.make import make_booklets

    again = make_booklets("card-domino", tmp_path, langs=("en",), impose=True, age=6)
    for path in again:
        assert path.read_bytes() == card_domino_booklets[path.name].read_bytes(), path.name
