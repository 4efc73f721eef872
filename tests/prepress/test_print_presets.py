"""Vendor presets: every shipped file loads, and the numbers are the vendors' own."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckgen.errors import InputError, SpecError
from deckgen.prepress.presets import (
    PAPER_SIZES_MM,
    VendorPreset,
    load_preset,
    load_preset_file,
    preset_names,
)


def test_shipped_presets_load() -> None:
    names = preset_names()
    assert {"meinspiel", "drivethrucards", "thegamecrafter", "home-a4", "home-letter"} <= set(names)
    for name in names:
        preset = load_preset(name)
        assert isinstance(preset, VendorPreset)
        assert preset.name == name
        if "sheets" in preset.outputs:
            assert preset.sheet is not None
            assert preset.sheet.paper in PAPER_SIZES_MM


def test_meinspiel_numbers() -> None:
    p = load_preset("meinspiel")
    assert (p.card_width_mm, p.card_height_mm) == (59.0, 91.0)
    assert p.document_size_mm == (65.0, 97.0)
    assert (p.safe_mm, p.corner_radius_mm, p.crop_marks) == (4.0, 5.0, False)
    assert "fronts-backs-pdf" in p.outputs
    assert "card-pdfs" not in p.outputs
    assert p.deck_sizes == [37]  # 36 cards + cover (seed text 000)
    assert "36 cards + cover" in p.deck_sizes_source
    assert p.card_file_name(1, "cover", "pdf") == "001-cover.pdf"


def test_thegamecrafter_pixels_and_drivethru_order() -> None:
    assert load_preset("thegamecrafter").png_size_px == (825, 1125)
    dtc = load_preset("drivethrucards")
    assert "interleaved-pdf" in dtc.outputs
    assert dtc.max_ink_percent == 240
    assert dtc.colour_space == "cmyk"


def test_unknown_preset_did_you_mean() -> None:
    with pytest.raises(InputError) as info:
        load_preset("meinspeil")
    assert "did you mean 'meinspiel'" in str(info.value)
    with pytest.raises(InputError):
        load_preset("../pyproject")


def test_bad_preset_file(tmp_path: Path) -> None:
    bad = tmp_path / "shop.toml"
    bad.write_text(
        'title = "x"\ncard_width_mm = 63\ncard_height_mm = 88\nbleed_mm = 3\nsafe_mm = 3\n'
        'outputs = ["sheets"]\ncard_file = "../{number}"\ncolour = "cmyk"\n'
    )
    with pytest.raises(SpecError) as info:
        load_preset_file(bad)
    text = str(info.value)
    assert "colour: unknown key (did you mean 'colour_space'?)" in text
    assert "card_file" in text
    assert "plain file name" in text


def test_png_size_checked(tmp_path: Path) -> None:
    bad = tmp_path / "shop.toml"
    bad.write_text(
        'title = "x"\ncard_width_mm = 63.5\ncard_height_mm = 88.9\nbleed_mm = 3.175\n'
        'safe_mm = 3\noutputs = ["card-pngs"]\n[png]\nwidth_px = 800\n'
    )
    with pytest.raises(SpecError, match="825 px"):
        load_preset_file(bad)
