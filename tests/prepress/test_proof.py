"""proof.pdf: one page a shop sends its customer to sign off, in the deck's language."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pikepdf
import pypdfium2
from pypdf import PdfReader

from deckgen.prepress.presets import load_preset
from deckgen.prepress.printout import PrintOptions, make_print_outputs
from print_synthetic import deck_labels, make_deck_pdfs


def test_meinspiel_proof_shows_every_card_the_count_and_the_checks(ms_build: Path) -> None:
    proof = ms_build / "proof.pdf"
    with pikepdf.open(proof) as pdf:
        assert len(pdf.pages) == 1
        page = pdf.pages[0]
        assert [round(float(v)) for v in page.obj.MediaBox] == [0, 0, 842, 595]
        names = set(page.obj.Resources.XObject.keys())
        assert {f"/Card{i}" for i in range(38)} | {"/Back"} <= names
    text = PdfReader(proof).pages[0].extract_text()
    assert "Proof for approval: Picture Domino" in text
    assert "38 cards in the deck; 37 printed cards" in text
    assert "imprint is printed on the back of the cover" in text
    assert "MeinSpiel (meinspiel)" in text
    assert "59 x 91 mm, 3 mm bleed, 4 mm safe margin, 5 mm corners" in text
    assert "total ink: passed" in text
    assert "signature" in text
    done = subprocess.run(
        ["gs", "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=nullpage", str(proof)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert not done.stdout.strip()
    assert not done.stderr.strip()
    # the cards are drawn: the grid area is not white, and the trim lines are red
    image = pypdfium2.PdfDocument(str(proof))[0].render(scale=1).to_pil().convert("RGB")
    grid = image.crop((30, 130, 560, 560))
    colours = grid.getcolors(1 << 20) or []
    assert len(colours) > 200, "the card grid looks empty"
    reds = sum(n for n, (r, g, b) in colours if r > 180 and g < 90 and b < 90)
    assert reds > 500, "no trim lines"


def test_german_proof_with_blanks(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    labels = deck_labels(6)  # 30 cards: 29 printed by MeinSpiel, 8 blank
    make_deck_pdfs(src, labels, card_mm=(59.0, 91.0))
    for name in ("cards.pdf", "back.pdf"):
        shutil.copy(src / name, tmp_path / name)
    options = PrintOptions(preset=load_preset("meinspiel"), force=True, language="de")
    result = make_print_outputs(tmp_path, labels, options)
    assert any(f.path == "proof.pdf" and f.kind == "proof" for f in result.files)
    text = PdfReader(tmp_path / "proof.pdf").pages[0].extract_text()
    assert "Andruck zur Freigabe" in text
    assert "30 Karten im Spiel; 37 gedruckte Karten, davon 8 leer" in text
    assert text.count("leer") >= 8 + 1
    assert "Prüfungen" in text
