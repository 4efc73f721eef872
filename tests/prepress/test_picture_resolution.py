"""One resolution rule with one set of numbers (issue 22, item 6).

A 200 x 200 px logo on the back builds for home printing (the home presets accept
150 ppi) and breaks MeinSpiel's 300 dpi; an 8 x 6 px photo stops a build even without
a preset; each message names the slot a customer sees and the pixels it needs, the
same numbers wherever they are said.
"""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image
from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.deck.geometry import card_geometry
from deckgen.deck.layoutboxes import cover_art_box, imprint_picture_box
from deckgen.deck.pictures import PictureUse, warn_low_dpi
from deckgen.deck.resolution import DEFAULT_MIN_PPI, needed_px, slot_name
from deckgen.deck.spec import load_deck
from deckgen.prepress.printstep import check_deck
from deckgen.progress import CollectingReporter
from deckgen.units import pt_to_mm

runner = CliRunner()


def _deck(folder: Path, body: str) -> Path:
    path = folder / "deck.toml"
    path.write_text(f'name = "Resolution"\nset = "double-2"\n{body}\n', encoding="utf-8")
    return path


def _low(report: object) -> list[object]:
    return list(report.by_kind("low-dpi"))  # type: ignore[attr-defined]


def test_a_200px_logo_builds_for_home_printing_but_not_for_a_vendor(tmp_path: Path) -> None:
    Image.new("RGB", (200, 200), (20, 90, 160)).save(tmp_path / "logo.png")
    deck = _deck(tmp_path, '[back]\nlogo = "logo.png"')
    for home in ("home-a4", "home-letter", "print-and-play"):
        report = check_deck(deck, preset=home, reporter=CollectingReporter())
        assert _low(report) == [], (home, report.to_json())
    report = check_deck(deck, preset="meinspiel", reporter=CollectingReporter())
    (finding,) = _low(report)
    assert "logo on the back" in finding.message  # type: ignore[attr-defined]
    out = tmp_path / "out"
    built = runner.invoke(
        app, ["deck", "build", str(deck), "--preset", "home-a4", "--out", str(out)]
    )
    assert built.exit_code == 0, built.output
    stopped = runner.invoke(
        app, ["deck", "build", str(deck), "--preset", "meinspiel", "--out", str(tmp_path / "m")]
    )
    assert stopped.exit_code == 2, stopped.output
    assert "logo on the back" in stopped.output


def test_a_useless_photo_stops_a_build_without_a_preset(tmp_path: Path) -> None:
    Image.new("RGB", (8, 6), (200, 40, 40)).save(tmp_path / "tiny.png")
    deck = _deck(tmp_path, '[cover]\npicture = "tiny.png"')
    out = tmp_path / "out"
    result = runner.invoke(app, ["deck", "build", str(deck), "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert "error:" in result.output
    assert "tiny.png (cover picture) is 8 x 6 px" in result.output
    assert "Traceback" not in result.output
    assert not out.exists(), "nothing may be written"
    # --force builds it anyway, with the warning
    forced = runner.invoke(app, ["deck", "build", str(deck), "--out", str(out), "--force"])
    assert forced.exit_code == 0, forced.output
    assert "tiny.png (cover picture)" in forced.output


def test_a_soft_photo_only_warns_without_a_preset(tmp_path: Path) -> None:
    Image.new("RGB", (300, 200), (200, 40, 40)).save(tmp_path / "soft.png")
    deck = _deck(tmp_path, '[cover]\npicture = "soft.png"')
    out = tmp_path / "out"
    result = runner.invoke(app, ["deck", "build", str(deck), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "soft.png (cover picture)" in result.output


def test_every_message_gives_the_same_pixels_for_the_same_slot(tmp_path: Path) -> None:
    """The preflight's finding and the drawing code's warning ask for the same size,
    computed once from the placed box (no 352 x 352 here and 470 x 352 there)."""
    Image.new("RGB", (300, 200), (200, 40, 40)).save(tmp_path / "soft.png")
    deck_file = _deck(tmp_path, '[cover]\npicture = "soft.png"')
    report = check_deck(deck_file, reporter=CollectingReporter())
    (finding,) = _low(report)
    message = finding.message  # type: ignore[attr-defined]
    deck = load_deck(deck_file)
    box = cover_art_box(card_geometry(deck))
    want = needed_px(pt_to_mm(box.w), pt_to_mm(box.h), DEFAULT_MIN_PPI)
    assert f"at least {want[0]} x {want[1]} px" in message, (message, want)
    reporter = CollectingReporter()
    use = PictureUse(pt_to_mm(box.w), pt_to_mm(box.h), "cover")
    drawn = (40.0, use.width_mm, use.height_mm)
    warn_low_dpi(reporter, tmp_path / "soft.png", "deck.toml, key cover.picture", drawn, 300)
    (warning,) = reporter.warnings
    assert f"at least {want[0]} x {want[1]} px" in warning, warning
    assert "(cover picture)" in warning


def test_the_same_file_in_two_slots_is_named_by_each_slot(tmp_path: Path) -> None:
    Image.new("RGB", (120, 80), (30, 140, 60)).save(tmp_path / "photo.png")
    deck_file = _deck(tmp_path, '[cover]\npicture = "photo.png"\n[imprint]\npicture = "photo.png"')
    report = check_deck(deck_file, reporter=CollectingReporter())
    found = {f.card: f.message for f in _low(report)}  # type: ignore[attr-defined]
    assert set(found) == {"the cover card", "the imprint card"}, found
    assert "(cover picture)" in found["the cover card"]
    assert "(imprint picture)" in found["the imprint card"]
    assert "cover" not in found["the imprint card"]
    # the imprint picture is contained: it needs the fitted size (the photo's shape)
    deck = load_deck(deck_file)
    box = imprint_picture_box(card_geometry(deck))
    scale = min(pt_to_mm(box.w) / 120, pt_to_mm(box.h) / 80)
    want = needed_px(120 * scale, 80 * scale, DEFAULT_MIN_PPI)
    assert f"at least {want[0]} x {want[1]} px" in found["the imprint card"]


def test_needed_pixels_round_up_once() -> None:
    assert needed_px(25.4, 25.4, 300) == (300, 300)  # exact: no extra pixel
    assert needed_px(30.0, 30.1, 300) == (355, 356)
    numbers = re.findall(r"\d+", slot_name("faces.pictures[11]"))
    assert numbers == ["12"]
    assert slot_name("faces.zero_picture") == "picture for 0"
    assert slot_name("imprint.picture", "de") == "Bild im Impressum"
