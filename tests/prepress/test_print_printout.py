"""make_print_outputs: each preset writes the files it promises, all listed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pikepdf
import pytest
from PIL import Image
from pypdf import PdfReader

from deckgen.prepress.presets import load_preset
from deckgen.prepress.printout import PrintOptions, make_print_outputs, planned_outputs
from deckgen.progress import CollectingReporter
from print_synthetic import deck_labels, make_deck_pdfs


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("src")
    picture = Image.new("RGB", (500, 500), (40, 160, 90))
    make_deck_pdfs(
        folder, deck_labels(3), card_mm=(63.5, 88.9), bleed_mm=3.175, pictures={2: (picture, 40.0)}
    )
    return folder


def _fresh(source: Path, tmp_path: Path) -> Path:
    for name in ("cards.pdf", "back.pdf", "manifest.json"):
        shutil.copy(source / name, tmp_path / name)
    return tmp_path


LABELS = ["cover"] + [f"{a}-{b}" for a in range(4) for b in range(a, 4)] + ["imprint"]


def test_thegamecrafter(source: Path, tmp_path: Path) -> None:
    folder = _fresh(source, tmp_path)
    reporter = CollectingReporter()
    result = make_print_outputs(
        folder,
        LABELS,
        # synthetic cards name Helvetica: the file layout is tested here, not the contract
        PrintOptions(preset=load_preset("thegamecrafter"), force=True),
        reporter=reporter,
    )
    pngs = sorted(p.name for p in (folder / "png").iterdir())
    assert pngs[0] == "001-cover.png"
    assert pngs[-1] == "back.png"
    assert len(pngs) == 13
    assert Image.open(folder / "png" / "003-0-1.png").size == (825, 1125)
    listed = {f.path for f in result.files}
    assert {f"png/{n}" for n in pngs} <= listed
    assert "preflight.json" in listed
    assert not result.cmyk
    assert json.loads((folder / "preflight.json").read_text())["pages_checked"] == 13
    assert any("Helvetica" in w for w in reporter.warnings)  # synthetic cards use a base font


def test_drivethrucards_is_cmyk_and_interleaved(source: Path, tmp_path: Path) -> None:
    folder = _fresh(source, tmp_path)
    result = make_print_outputs(
        folder, LABELS, PrintOptions(preset=load_preset("drivethrucards"), force=True)
    )
    assert result.cmyk
    target = folder / "deck-back-front.pdf"
    assert len(PdfReader(target).pages) == 24
    for path in (target, folder / "cards.pdf", folder / "back.pdf"):
        with pikepdf.open(path) as pdf:
            assert "/OutputIntents" in pdf.Root
    assert result.preflight is not None
    assert not result.preflight.by_kind("rgb-in-cmyk")
    assert not result.preflight.by_kind("card-size")


def test_meinspiel_size_mismatch_is_reported(source: Path, tmp_path: Path) -> None:
    folder = _fresh(source, tmp_path)
    from deckgen.prepress.contract import ContractError

    with pytest.raises(ContractError, match="card size"):
        make_print_outputs(folder, LABELS, PrintOptions(preset=load_preset("meinspiel")))
    (tmp_path / "forced").mkdir()
    folder = _fresh(source, tmp_path / "forced")
    options = PrintOptions(preset=load_preset("meinspiel"), force=True, card_pdfs=True)
    result = make_print_outputs(folder, LABELS, options)
    assert len(list((folder / "cards").glob("*.pdf"))) == 13  # per-card files on request
    assert (folder / "fronts.pdf").is_file()
    assert result.preflight is not None
    sizes = result.preflight.by_kind("card-size")
    assert sizes
    assert "59 x 91" in sizes[0].message


def test_sheets_without_preset(source: Path, tmp_path: Path) -> None:
    folder = _fresh(source, tmp_path)
    options = PrintOptions(sheets="A4", duplex="short", marks="cut", png=True, cmyk=False)
    assert planned_outputs(options) == ["card-pngs", "sheets"]
    result = make_print_outputs(folder, LABELS, options)
    assert result.cards_per_sheet == 9  # 1 mm of bleed kept: 9 poker cards instead of 4
    reader = PdfReader(folder / "sheets.pdf")
    assert len(reader.pages) == 4
    with pikepdf.open(folder / "sheets.pdf") as pdf:
        assert str(pdf.Root.ViewerPreferences.Duplex) == "/DuplexFlipShortEdge"
    assert (folder / "calibration.pdf").is_file()
    assert {"sheets.pdf", "calibration.pdf", "png/back.png"} <= {f.path for f in result.files}


def test_parse_back_offset() -> None:
    from deckgen.errors import InputError
    from deckgen.prepress.printout import parse_back_offset

    assert parse_back_offset("1.5,-2") == (1.5, -2.0)
    assert parse_back_offset(" 0 , 0.25 ") == (0.0, 0.25)
    for bad in ("1.5", "a,b", "1,2,3", "50,0", "nan,0"):
        with pytest.raises(InputError):
            parse_back_offset(bad)


def test_sheet_options_without_sheets_warn(source: Path, tmp_path: Path) -> None:
    folder = _fresh(source, tmp_path)
    reporter = CollectingReporter()
    make_print_outputs(folder, LABELS, PrintOptions(marks="cut"), reporter=reporter)
    assert any("apply to sheets only" in w for w in reporter.warnings)
    assert not (folder / "sheets.pdf").exists()
