"""Every shipped preset's build: Ghostscript reads every PDF without a word, PDF/X
files pass the independent checks of tests/helpers/prepress/pdfx_checks.py, PNGs are
sRGB-tagged, and there is a proof."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from PIL import Image

from deckgen.deck.starter import StarterCard, starter_toml
from deckgen.prepress.presets import load_preset, preset_names
from deckgen.prepress.printout import PrintOptions
from deckgen.product import build_printed_deck, load_printed_deck
from deckgen.progress import CollectingReporter
from pdfx_checks import pdfx_problems
from starterkit import finish_samples

PRESS_EXCLUDED = {"proof.pdf", "calibration.pdf"}
"""proof.pdf is for the customer's screen and calibration.pdf for a home printer: not
press files, so not PDF/X."""


def gs_says(path: Path) -> str:
    done = subprocess.run(
        ["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dPDFSTOPONERROR", "-sDEVICE=nullpage", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    words = (done.stdout + done.stderr).strip()
    return f"exit {done.returncode}: {words}" if done.returncode or words else ""


@pytest.fixture(scope="module")
def small_deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("small")
    path = folder / "deck.toml"
    text = starter_toml("Small", "double-3", 3, StarterCard())
    path.write_text(finish_samples(text, folder), encoding="utf-8")  # as a customer would
    return path


SHARED_BUILDS = {"meinspiel": "ms_build", "drivethrucards": "dtc_build"}
"""The CMYK presets: the demo deck built once for the session (conftest.py)."""


@pytest.mark.parametrize("name", preset_names())
def test_preset_output_reads_cleanly_and_conforms(
    name: str, small_deck: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    preset = load_preset(name)
    if name in SHARED_BUILDS:
        out: Path = request.getfixturevalue(SHARED_BUILDS[name])
    else:
        out = tmp_path / "out"
        build_printed_deck(
            load_printed_deck(small_deck),
            out,
            PrintOptions(preset=preset, force=True),
            reporter=CollectingReporter(),
            preview=False,
        )
    pdfs = sorted(out.rglob("*.pdf"))
    assert (out / "proof.pdf") in pdfs
    for path in pdfs:
        assert gs_says(path) == "", f"{name}: Ghostscript on {path.name}: {gs_says(path)}"
    if preset.pdfx != "none":
        for path in pdfs:
            if path.name in PRESS_EXCLUDED:
                continue
            assert pdfx_problems(path, preset.pdfx) == [], (name, path.name)
    for path in sorted(out.rglob("*.png")):
        if path.parent.name != "png":
            continue
        with Image.open(path) as image:
            assert image.info.get("icc_profile"), f"{name}: {path.name} has no colour profile"
