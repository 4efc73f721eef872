"""The PNGs a shop gets say their colours are sRGB: an iCCP chunk with the sRGB profile."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from PIL import Image, ImageCms

from deckgen.prepress.iccprofile import srgb_profile_path
from deckgen.prepress.presets import load_preset
from deckgen.prepress.printout import PrintOptions, make_print_outputs
from print_synthetic import deck_labels, make_deck_pdfs


@pytest.fixture(scope="module")
def poker(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("poker")
    make_deck_pdfs(folder, deck_labels(2), card_mm=(63.5, 88.9), bleed_mm=3.175)
    return folder


@pytest.mark.parametrize("preset", ["thegamecrafter", "makeplayingcards"])
def test_every_png_carries_the_srgb_profile(poker: Path, tmp_path: Path, preset: str) -> None:
    for name in ("cards.pdf", "back.pdf"):
        shutil.copy(poker / name, tmp_path / name)
    options = PrintOptions(preset=load_preset(preset), force=True)
    make_print_outputs(tmp_path, deck_labels(2), options)
    pngs = sorted((tmp_path / "png").glob("*.png"))
    assert len(pngs) >= len(deck_labels(2)) + 1
    if preset == "makeplayingcards":
        assert any("blank" in p.name for p in pngs), "MPC's 18-card deck is filled up"
    shipped = srgb_profile_path().read_bytes()
    for path in pngs:
        with Image.open(path) as image:
            assert image.mode == "RGB"
            profile = image.info.get("icc_profile")
            assert profile == shipped, f"{path.name} has no sRGB profile"
            parsed = ImageCms.ImageCmsProfile(io.BytesIO(profile))
            assert parsed.profile.xcolor_space.strip() == "RGB"
            assert "sRGB" in str(parsed.profile.profile_description)
