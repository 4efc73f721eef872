"""CMYK output: images in DeviceCMYK through the profile, vector colours in CMYK, intent."""

from __future__ import annotations

from pathlib import Path

import pikepdf
from PIL import Image

from deckgen.prepress.cmyk import convert_pdf, rgb_image_to_cmyk
from deckgen.prepress.iccprofile import profile_path
from deckgen.prepress.imposition import SheetOptions, impose_sheets
from deckgen.prepress.pdfout import save_pdf
from pixels import channels
from print_synthetic import deck_labels, make_deck_pdfs


def _images(pdf: pikepdf.Pdf) -> list[pikepdf.PdfImage]:
    return [
        pikepdf.PdfImage(o)
        for o in pdf.objects
        if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"
    ]


def test_pure_red_becomes_sensible_cmyk() -> None:
    c, m, y, k = channels(rgb_image_to_cmyk(Image.new("RGB", (2, 2), (255, 0, 0))), (0, 0))
    assert c < 0.05 * 255
    assert k < 0.1 * 255
    assert m > 0.85 * 255
    assert y > 0.85 * 255
    white = rgb_image_to_cmyk(Image.new("RGB", (1, 1), (255, 255, 255))).getpixel((0, 0))
    assert white == (0, 0, 0, 0)


def test_cmyk_pdf(tmp_path: Path) -> None:
    red = Image.new("RGB", (120, 120), (255, 0, 0))
    labels = deck_labels(2)
    cards, _back = make_deck_pdfs(
        tmp_path / "d", labels, pictures=dict.fromkeys(range(1, 4), (red, 20.0))
    )
    result = convert_pdf(cards, tmp_path / "cards-cmyk.pdf")
    assert result.images_converted == 1
    assert result.colours_converted > 10
    assert not result.left_rgb
    with pikepdf.open(tmp_path / "cards-cmyk.pdf") as pdf:
        images = _images(pdf)
        assert len(images) == 1
        assert images[0].colorspace == "/DeviceCMYK"
        assert images[0].mode == "CMYK"
        c, m, y, k = channels(images[0].as_pil_image(), (60, 60))
        assert c < 13
        assert m > 216
        assert y > 216
        assert k < 26
        intents = pdf.Root.OutputIntents
        assert len(intents) == 1
        intent = intents[0]
        assert intent.S == "/GTS_PDFX"
        assert str(intent.OutputConditionIdentifier) == "FOGRA39"
        assert intent.DestOutputProfile.read_bytes() == profile_path().read_bytes()
        assert int(intent.DestOutputProfile.N) == 4
        assert str(pdf.docinfo["/Trapped"]) == "/False"
        assert str(pdf.Root.ViewerPreferences.PrintScaling) == "/None"
        for page in pdf.pages:
            ops = {str(i.operator) for i in pikepdf.parse_content_stream(page)}
            assert "rg" not in ops
            assert "RG" not in ops
            assert "k" in ops
        # text in pure black is K only
        text_page = pikepdf.parse_content_stream(pdf.pages[0])
        blacks = [list(map(float, i.operands)) for i in text_page if str(i.operator) == "k"]
        assert [0.0, 0.0, 0.0, 1.0] in blacks


def test_cmyk_sheets_keep_intent_and_images(tmp_path: Path) -> None:
    red = Image.new("RGB", (120, 120), (255, 0, 0))
    cards, back = make_deck_pdfs(tmp_path / "d", deck_labels(2), pictures={2: (red, 20.0)})
    convert_pdf(cards, tmp_path / "c.pdf")
    convert_pdf(back, tmp_path / "b.pdf")
    result = impose_sheets(
        tmp_path / "c.pdf", tmp_path / "b.pdf", SheetOptions(colour_space="cmyk")
    )
    from deckgen.prepress.iccprofile import add_output_intent

    add_output_intent(result.pdf)
    out = save_pdf(result.pdf, tmp_path / "sheets.pdf")
    with pikepdf.open(out) as pdf:
        assert [i.colorspace for i in _images(pdf)] == ["/DeviceCMYK"]
        assert "/OutputIntents" in pdf.Root
