"""MeinSpiel's upload form: one PDF of fronts and one of backs, as many pages as the
product has cards (36 cards + cover for the domino), white pages for cards not needed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pikepdf
import pytest
from pypdf import PdfReader

from deckgen.prepress.presets import load_preset
from deckgen.prepress.printout import PrintOptions, make_print_outputs
from print_synthetic import deck_labels, make_deck_pdfs

PT = 72 / 25.4


def _content(page: pikepdf.Page) -> bytes:
    contents = page.obj.get("/Contents")
    if contents is None:
        return b""
    if isinstance(contents, pikepdf.Array):
        return b"".join(bytes(c.read_bytes()) for c in contents)
    return bytes(contents.read_bytes())


def test_demo_deck_gives_two_pdfs_of_37_pages(ms_build: Path) -> None:
    """Double-7: 36 tiles and the cover are MeinSpiel's 37 cards; the imprint is the
    cover's back, every other back is the deck's back (stored once)."""
    assert not (ms_build / "cards").exists(), "per-card files are no longer the default"
    with (
        pikepdf.open(ms_build / "fronts.pdf") as fronts,
        pikepdf.open(ms_build / "backs.pdf") as backs,
    ):
        assert len(fronts.pages) == 37
        assert len(backs.pages) == 37
        for pdf in (fronts, backs):
            for page in pdf.pages:
                media = [round(float(v) / PT, 2) for v in page.obj.MediaBox]
                trim = [round(float(v) / PT, 2) for v in page.obj.TrimBox]
                assert media == [0, 0, 65.0, 97.0]
                assert trim == [3.0, 3.0, 62.0, 94.0]
        commons = {page.obj.Contents.objgen for page in backs.pages[1:]}
        assert len(commons) == 1, "the common back is stored once"
        assert backs.pages[0].obj.Contents.objgen not in commons, "page 1 is the imprint"
    fronts_text = PdfReader(ms_build / "fronts.pdf")
    backs_text = PdfReader(ms_build / "backs.pdf")
    assert "36 tiles" in fronts_text.pages[0].extract_text()  # the cover
    assert "7|7" in fronts_text.pages[36].extract_text()  # the last tile
    assert "deckgen" in backs_text.pages[0].extract_text()  # the imprint text


@pytest.fixture(scope="module")
def double6(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("d6")
    make_deck_pdfs(folder, deck_labels(6), card_mm=(59.0, 91.0))
    return folder


def test_smaller_set_is_padded_with_white_pages(double6: Path, tmp_path: Path) -> None:
    for name in ("cards.pdf", "back.pdf"):
        shutil.copy(double6 / name, tmp_path / name)
    labels = deck_labels(6)  # cover, 28 tiles, imprint
    result = make_print_outputs(
        tmp_path, labels, PrintOptions(preset=load_preset("meinspiel"), force=True)
    )
    assert result.upload_count == 37
    assert result.upload_blanks == 37 - 29
    kinds = {f.path: (f.kind, f.pages) for f in result.files}
    assert kinds["fronts.pdf"] == ("fronts-pdf", 37)
    assert kinds["backs.pdf"] == ("backs-pdf", 37)
    with (
        pikepdf.open(tmp_path / "fronts.pdf") as fronts,
        pikepdf.open(tmp_path / "backs.pdf") as backs,
    ):
        assert len(fronts.pages) == len(backs.pages) == 37
        for pdf in (fronts, backs):
            for page in pdf.pages[29:]:
                assert _content(page).strip() in (b"", b"q Q"), "a card not needed is white"
            for page in pdf.pages[:29]:
                assert _content(page).strip() != b""


def test_larger_set_keeps_its_count_and_says_what_to_ask(tmp_path: Path) -> None:
    """No count is published for a double-9 deck: the files hold its 56 cards, no blank
    is guessed, and the build says what to ask the shop (a warning, not a refusal)."""
    from deckgen.progress import CollectingReporter

    labels = deck_labels(9)  # cover, 55 tiles, imprint: MeinSpiel's count is not known
    make_deck_pdfs(tmp_path, labels, card_mm=(59.0, 91.0))
    reporter = CollectingReporter()
    make_print_outputs(
        tmp_path,
        labels,
        PrintOptions(preset=load_preset("meinspiel"), force=True),
        reporter=reporter,
    )  # forced: the synthetic cards have no fonts to embed
    text = " ".join(reporter.warnings)
    assert "56 cards" in text, text
    assert "36 cards + cover" in text, text
    assert "ask the shop" in text, text
    for name in ("fronts.pdf", "backs.pdf"):
        assert len(pikepdf.open(tmp_path / name).pages) == 56


def test_per_card_pdfs_stay_available_on_request(tmp_path: Path) -> None:
    """``--card-pdfs`` adds one PDF per card (and the back) to MeinSpiel's two files."""
    from typer.testing import CliRunner

    from deckgen.cli import app
    from deckgen.deck.starter import StarterCard, starter_toml

    deck = tmp_path / "deck.toml"
    text = starter_toml("Few", "double-2", 2, StarterCard(), samples=False)
    deck.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    args = ["deck", "build", str(deck), "--preset", "meinspiel", "--out", str(out), "-q"]
    result = CliRunner().invoke(app, [*args, "--card-pdfs"])
    assert result.exit_code == 0, result.output
    assert (out / "fronts.pdf").is_file()
    per_card = sorted(p.name for p in (out / "cards").glob("*.pdf"))
    assert len(per_card) == 6 + 2 + 1  # 6 tiles, cover, imprint, the back
    assert per_card[0] == "001-cover.pdf"
    assert per_card[-1] == "back.pdf"
