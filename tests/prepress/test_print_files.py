"""Per-card PDFs (MeinSpiel), the back/front PDF (DriveThruCards) and per-card PNGs."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from pypdf import PageObject, PdfReader

from deckgen.prepress.cardfiles import interleave_back_front, split_cards
from deckgen.prepress.cardpages import open_card_pdfs
from deckgen.prepress.presets import load_preset
from deckgen.prepress.rasterize import PngJob, render_pngs
from deckgen.progress import CollectingReporter

PT = 72 / 25.4


def _box_mm(page: PageObject, name: str) -> tuple[float, float]:
    box = [float(v) for v in getattr(page, name)]
    return (round((box[2] - box[0]) / PT, 2), round((box[3] - box[1]) / PT, 2))


def _contents(page: PageObject) -> bytes:
    """The page's decoded content stream (a page without one fails the test)."""
    contents = page.get_contents()
    assert contents is not None, "the page has no content stream"
    return contents.get_data()


def test_meinspiel_per_card_files(meinspiel_deck: tuple[Path, Path], tmp_path: Path) -> None:
    cards, back = meinspiel_deck
    preset = load_preset("meinspiel")
    labels = ["cover"] + [f"{a}-{b}" for a in range(7) for b in range(a, 7)] + ["imprint"]
    targets = [
        tmp_path / preset.card_file_name(i + 1, label, "pdf") for i, label in enumerate(labels)
    ]
    written = split_cards(
        open_card_pdfs(cards, back), targets, tmp_path / preset.back_file_name("pdf")
    )
    assert len(written) == 31
    names = sorted(p.name for p in tmp_path.glob("*.pdf"))
    assert names[:3] == ["001-cover.pdf", "002-0-0.pdf", "003-0-1.pdf"]
    assert names[-2:] == ["030-imprint.pdf", "back.pdf"]
    for path in written:
        reader = PdfReader(path)
        assert len(reader.pages) == 1
        page = reader.pages[0]
        assert _box_mm(page, "mediabox") == (65.0, 97.0)
        assert _box_mm(page, "bleedbox") == (65.0, 97.0)
        assert _box_mm(page, "trimbox") == (59.0, 91.0)
        trim = [float(v) for v in page.trimbox]
        assert trim[0] == pytest.approx(3 * PT, abs=0.01)
    assert "0-0" in PdfReader(tmp_path / "002-0-0.pdf").pages[0].extract_text()


def test_per_card_files_with_crop_marks(meinspiel_deck: tuple[Path, Path], tmp_path: Path) -> None:
    cards, back = meinspiel_deck
    targets = [tmp_path / f"{i:03d}.pdf" for i in range(30)]
    split_cards(open_card_pdfs(cards, back), targets, tmp_path / "back.pdf", crop_marks=True)
    page = PdfReader(targets[0]).pages[0]
    assert _box_mm(page, "mediabox") == (82.0, 114.0)
    assert _box_mm(page, "bleedbox") == (65.0, 97.0)
    assert _box_mm(page, "trimbox") == (59.0, 91.0)


def test_drivethrucards_back_front_order(deck7: tuple[Path, Path], tmp_path: Path) -> None:
    cards, back = deck7
    out = interleave_back_front(open_card_pdfs(cards, back), tmp_path / "deck-back-front.pdf")
    reader = PdfReader(out)
    assert len(reader.pages) == 2 * 38
    labels = ["cover"] + [f"{a}-{b}" for a in range(8) for b in range(a, 8)] + ["imprint"]
    back_contents = _contents(reader.pages[0])
    for i, label in enumerate(labels):
        back_page, front_page = reader.pages[2 * i], reader.pages[2 * i + 1]
        assert back_page.extract_text().strip() == ""
        assert _contents(back_page) == back_contents
        assert front_page.extract_text().strip() == label
        assert _box_mm(front_page, "trimbox") == (63.0, 88.0)
        assert _box_mm(back_page, "trimbox") == (63.0, 88.0)
    # the back is stored once, not 38 times
    assert out.stat().st_size < 3 * cards.stat().st_size


@pytest.mark.parametrize(("bleed", "size"), [(True, (825, 1125)), (False, (750, 1050))])
def test_png_pixel_sizes(tmp_path: Path, bleed: bool, size: tuple[int, int]) -> None:
    from print_synthetic import make_deck_pdfs

    cards, back = make_deck_pdfs(
        tmp_path / "tgc", ["cover", "0-0", "0-1", "imprint"], card_mm=(63.5, 88.9), bleed_mm=3.175
    )
    jobs = [PngJob(cards, i, tmp_path / "png" / f"{i + 1:03d}.png") for i in range(4)]
    jobs.append(PngJob(back, 0, tmp_path / "png" / "back.png"))
    reporter = CollectingReporter()
    written = render_pngs(jobs, dpi=300, bleed=bleed, workers=2, reporter=reporter)
    assert reporter.steps == 5
    assert reporter.tasks[0][1] == 5
    for path in written:
        image = Image.open(path)
        assert image.size == size
        assert image.mode == "RGB"
        assert round(image.info["dpi"][0]) == 300
    front = Image.open(written[1])
    # the black centre marker is in the middle of the picture, the background at the edge
    assert front.getpixel((size[0] // 2, size[1] // 2)) == (0, 0, 0)
    edge = front.getpixel((3, size[1] // 2))
    assert edge != (255, 255, 255)
    assert edge != (0, 0, 0)
    if not bleed:
        assert load_preset("thegamecrafter").png_size_px == (825, 1125)


def test_png_in_process_matches_parallel(tmp_path: Path, deck7: tuple[Path, Path]) -> None:
    cards, _ = deck7
    one = render_pngs([PngJob(cards, 3, tmp_path / "a.png")], dpi=100, bleed=True, workers=1)
    many = render_pngs(
        [PngJob(cards, i, tmp_path / f"b{i}.png") for i in range(6)], dpi=100, bleed=True, workers=2
    )
    assert Image.open(one[0]).tobytes() == Image.open(many[3]).tobytes()


def test_png_writer_round_trip() -> None:
    import io

    from deckgen.prepress.pngwrite import png_bytes

    image = Image.effect_mandelbrot((123, 77), (-2, -1.5, 1, 1.5), 40).convert("RGB")
    data = png_bytes(image, 300)
    back = Image.open(io.BytesIO(data))
    assert back.size == (123, 77)
    assert back.mode == "RGB"
    assert back.tobytes() == image.tobytes()
    assert round(back.info["dpi"][0]) == 300
