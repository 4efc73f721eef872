"""Preflight: low-dpi pictures, safe margin, fonts, RGB in a CMYK job, total ink."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from deckgen.prepress.cmyk import convert_pdf
from deckgen.prepress.preflight import PreflightRules, card_labels, preflight_build, preflight_pdf
from print_synthetic import deck_labels, make_deck_pdfs


@pytest.fixture(scope="module")
def checked_deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("preflight")
    small = Image.new("RGB", (100, 100), (30, 120, 200))  # 100 px over 35.28 mm: 72 dpi
    good = Image.new("RGB", (600, 600), (200, 120, 30))  # 600 px over 40 mm: 381 dpi
    make_deck_pdfs(
        folder,
        deck_labels(2),
        pictures={3: (small, 25.4 * 100 / 72), 1: (good, 40.0), 4: (good, 40.0)},
        text_in_margin={5},
    )
    return folder


def test_finds_72_dpi_picture_and_names_card(checked_deck: Path) -> None:
    report = preflight_build(checked_deck, PreflightRules())
    low = report.by_kind("low-dpi")
    assert len(low) == 1
    finding = low[0]
    assert finding.card == "tile 0-2"
    assert finding.file == "cards.pdf"
    assert finding.page == 4
    assert finding.value == pytest.approx(72, abs=0.5)
    assert "72 dpi" in finding.text()
    assert "tile 0-2" in finding.text()
    dpis = sorted((p.card, round(p.dpi)) for p in report.pictures)
    assert dpis == [("tile 0-0", 381), ("tile 0-2", 72), ("tile 1-1", 381)]


def test_safe_margin_and_fonts(checked_deck: Path) -> None:
    report = preflight_build(checked_deck, PreflightRules(safe_mm=4.0))
    margin = report.by_kind("safe-margin")
    assert [(f.card, f.page) for f in margin] == [("tile 1-2", 6)]
    assert "text reaches" in margin[0].message
    fonts = report.by_kind("font-not-embedded")
    assert {f.card for f in fonts} == set(card_labels(_manifest(checked_deck)))
    assert "Helvetica-Bold" in fonts[0].message
    assert report.pages_checked == 9
    data = json.loads(report.to_json())
    assert data["ok"] is False
    assert len(data["pictures"]) == 3


def _manifest(folder: Path) -> dict[str, Any]:
    manifest = json.loads((folder / "manifest.json").read_text())
    assert isinstance(manifest, dict)
    return manifest


def test_rgb_in_cmyk_job_and_ink(checked_deck: Path, tmp_path: Path) -> None:
    rgb = preflight_pdf(checked_deck / "cards.pdf", ["c"] * 8, PreflightRules(cmyk=True))
    assert len(rgb.by_kind("rgb-in-cmyk")) == 8
    assert "pictures" in rgb.by_kind("rgb-in-cmyk")[1].message  # the card with a picture
    assert not preflight_pdf(
        checked_deck / "cards.pdf", ["c"] * 8, PreflightRules(cmyk=False)
    ).by_kind("rgb-in-cmyk")

    dark = Image.new("RGB", (200, 200), (10, 10, 20))
    cards, _ = make_deck_pdfs(tmp_path / "dark", ["a", "b"], pictures={1: (dark, 30.0)})
    convert_pdf(cards, tmp_path / "cmyk.pdf")
    strict = preflight_pdf(
        tmp_path / "cmyk.pdf", ["a", "b"], PreflightRules(cmyk=True, max_ink_percent=240)
    )
    assert not strict.by_kind("rgb-in-cmyk")
    ink = strict.by_kind("ink-over-limit")
    assert [f.card for f in ink] == ["b"]
    assert ink[0].value is not None
    assert ink[0].value > 240
    relaxed = preflight_pdf(
        tmp_path / "cmyk.pdf", ["a", "b"], PreflightRules(cmyk=True, max_ink_percent=400)
    )
    assert not relaxed.by_kind("ink-over-limit")


def test_ink_limit_applied_when_converting(tmp_path: Path) -> None:
    dark = Image.new("RGB", (200, 200), (10, 10, 20))
    cards, _ = make_deck_pdfs(tmp_path / "dark", ["a", "b"], pictures={1: (dark, 30.0)})
    convert_pdf(cards, tmp_path / "cmyk240.pdf", max_ink_percent=240)
    report = preflight_pdf(
        tmp_path / "cmyk240.pdf", ["a", "b"], PreflightRules(cmyk=True, max_ink_percent=240)
    )
    assert not report.by_kind("ink-over-limit")
