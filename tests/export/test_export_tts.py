"""Tabletop Simulator export: the JSON parses as TTS expects, the sheets hold the cards in order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat
from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.deck.cards import deck_cards
from deckgen.deck.spec import load_deck
from deckgen.export.cardimages import card_images
from deckgen.export.tts import MAX_SHEET_PX, plan_sheets

DECK = """
name = "Tts Test"
set = "double-2"
[faces]
style = "pips"
colours = ["#d00000", "#0030d0"]
[cover]
background = "#208020"
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("tts")
    (folder / "deck.toml").write_text(DECK)
    result = CliRunner().invoke(
        app,
        [
            "deck",
            "build",
            str(folder / "deck.toml"),
            "--out",
            str(folder / "out"),
            "--tts",
            "--no-preview",
            "-q",
        ],
    )
    assert result.exit_code == 0, result.output
    return folder


def _state(folder: Path) -> dict[str, Any]:
    data = json.loads((folder / "out" / "tts" / "tts-test.json").read_text())
    (state,) = data["ObjectStates"]
    return state  # type: ignore[no-any-return]


def test_saved_object_json(built: Path) -> None:
    state = _state(built)
    assert state["Name"] == "DeckCustom"
    assert state["Nickname"] == "Tts Test"
    assert list(state["CustomDeck"]) == ["1"]
    entry = state["CustomDeck"]["1"]
    assert (entry["NumWidth"], entry["NumHeight"]) == (8, 1)
    assert entry["FaceURL"] == (built / "out" / "tts" / "faces-1.jpg").absolute().as_uri()
    assert entry["BackURL"].endswith("/tts/back.jpg")
    names = [c["Nickname"] for c in state["ContainedObjects"]]
    assert names == ["cover", "0|0", "0|1", "0|2", "1|1", "1|2", "2|2", "imprint"]
    ids = [c["CardID"] for c in state["ContainedObjects"]]
    assert ids == state["DeckIDs"] == list(range(100, 108))
    assert all(c["CustomDeck"] == {"1": entry} for c in state["ContainedObjects"])
    manifest = json.loads((built / "out" / "manifest.json").read_text())
    kinds = {f["path"]: f["kind"] for f in manifest["files"]}
    assert kinds["tts/faces-1.jpg"] == "tts"
    assert "upload" in (built / "out" / "tts" / "README.txt").read_text().lower()


def test_sheet_holds_the_real_cards_in_order(built: Path) -> None:
    deck = load_deck(built / "deck.toml")
    sheet = Image.open(built / "out" / "tts" / "faces-1.jpg")
    back = Image.open(built / "out" / "tts" / "back.jpg")
    assert sheet.format == "JPEG"
    assert sheet.mode == "RGB"
    assert back.mode == "RGB"
    from deckgen.prepress.iccprofile import srgb_profile

    for image in (sheet, back):  # the colours say they are sRGB
        assert image.info.get("icc_profile") == srgb_profile()
    (layout,) = plan_sheets(deck, len(deck_cards(deck)))
    assert sheet.size == layout.size_px
    assert back.size == (layout.card_w_px, layout.card_h_px)
    cards = card_images(deck, (built / "out" / "cards.pdf").read_bytes(), layout.card_w_px)
    for position in range(len(cards)):
        slot = sheet.crop(layout.slot(position))
        diffs = [ImageStat.Stat(ImageChops.difference(slot, c)).mean for c in cards]
        scores = [sum(d) for d in diffs]
        assert scores.index(min(scores)) == position, (position, scores)
        assert scores[position] < 6  # JPEG noise only
    green = sheet.crop(layout.slot(0)).resize((1, 1), Image.Resampling.BOX).getpixel((0, 0))
    assert isinstance(green, tuple)
    assert green[1] > green[0] + 40  # the cover is the green card, first


@pytest.mark.parametrize(
    ("count", "sheets", "grids"),
    [
        (38, 1, [(10, 4)]),
        (57, 1, [(10, 6)]),
        (93, 2, [(10, 7), (10, 3)]),
        (192, 3, [(10, 7), (10, 7), (10, 6)]),
        (3, 1, [(3, 1)]),
    ],
)
def test_sheet_plan(tmp_path: Path, count: int, sheets: int, grids: list[tuple[int, int]]) -> None:
    for size in ("meinspiel", "poker", "tarot", "mini"):
        (tmp_path / "d.toml").write_text(f'name = "x"\n[card]\nsize = "{size}"\n')
        deck = load_deck(tmp_path / "d.toml")
        plan = plan_sheets(deck, count)
        assert len(plan) == sheets
        assert [(s.columns, s.rows) for s in plan] == grids
        assert sum(len(s.cards) for s in plan) == count
        assert [i for s in plan for i in s.cards] == list(range(count))
        for s in plan:
            assert len(s.cards) <= 69
            assert max(s.size_px) <= MAX_SHEET_PX
            assert abs(s.card_h_px / s.card_w_px - deck.height_mm / deck.width_mm) < 0.01
        assert plan[0].card_w_px >= 300


def test_batch_tts_points_at_the_final_folder(tmp_path: Path) -> None:
    from deckgen.batch.run import RunOptions, run_batch
    from deckgen.batch.settings import BatchSettings

    (tmp_path / "o.csv").write_text("order,name,set\nsolo,Solo,double-1\n")
    out = tmp_path / "out"
    summary = run_batch(
        tmp_path / "o.csv", BatchSettings(tts=True, preview=False), RunOptions(out_dir=out)
    )
    assert [o.status for o in summary.outcomes] == ["built"]
    data = json.loads((out / "solo" / "tts" / "solo.json").read_text())
    entry = data["ObjectStates"][0]["CustomDeck"]["1"]
    assert entry["FaceURL"] == (out / "solo" / "tts" / "faces-1.jpg").absolute().as_uri()
