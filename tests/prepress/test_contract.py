"""A vendor profile is a contract: the deck is made to it or the build stops naming the rule.

Shows: ``--preset thegamecrafter`` on a double-9 deck whose file names another card size
writes The Game Crafter's 825 x 1125 px images; a broken rule (a picture below the
vendor's 300 dpi, text below its minimum size) is exit code 2 naming the rule with
nothing written, and ``--force`` makes the files with a warning; MakePlayingCards'
deck sizes are filled with blank fronts; the built-in demo deck meets every rule of
every shipped vendor and print-and-play profile (the home sheets are
tested in test_print_sheets.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.deck.starter import StarterCard, starter_toml
from deckgen.prepress.preflight import PreflightRules, preflight_pdf
from deckgen.prepress.presets import preset_names
from deckgen.resources import images_dir
from starterkit import finish_samples

runner = CliRunner()


def _deck(folder: Path, set_name: str, max_pip: int, *, tiny_picture: bool = False) -> Path:
    text = starter_toml("Contract", set_name, max_pip, StarterCard())  # 59 x 91 mm cards
    if tiny_picture:
        Image.new("RGB", (40, 40), (200, 60, 60)).save(folder / "tiny.png")
        text = text.replace('"demo:value-01.png"', '"tiny.png"', 1)
        text = text.replace('style = "pips"', 'style = "pictures"', 1)
        assert "tiny.png" in text
        assert 'style = "pictures"' in text
    path = folder / "deck.toml"
    path.write_text(finish_samples(text, folder), encoding="utf-8")  # no sample content left
    return path


def test_thegamecrafter_double9_gets_the_vendors_pixel_size(tmp_path: Path) -> None:
    deck = _deck(tmp_path, "double-9", 9)
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["deck", "build", str(deck), "--preset", "thegamecrafter", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    pngs = sorted((out / "png").glob("*.png"))
    assert len(pngs) == 55 + 2 + 1  # 55 tiles, cover, imprint, back
    sizes = {Image.open(p).size for p in pngs}
    assert sizes == {(825, 1125)}
    assert "63.5 x 88.9 mm" in result.output  # says that it made the vendor's size


def test_broken_rule_is_exit_2_naming_it_and_force_overrides(tmp_path: Path) -> None:
    deck = _deck(tmp_path, "double-3", 3, tiny_picture=True)
    out = tmp_path / "out"
    args = ["deck", "build", str(deck), "--preset", "meinspiel", "--out", str(out), "-q"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "dpi" in result.output
    assert "meinspiel" in result.output
    assert "Traceback" not in result.output
    assert not [p for p in out.rglob("*") if p.is_file()], "nothing may be written"
    forced = runner.invoke(app, [*args, "--force"])
    assert forced.exit_code == 0, forced.output
    assert "--force" in forced.output
    assert "dpi" in forced.output
    assert (out / "backs.pdf").is_file()


def test_makeplayingcards_fills_the_deck_with_blanks(tmp_path: Path) -> None:
    deck = _deck(tmp_path, "double-6", 6)  # 28 tiles + cover + imprint = 30 cards
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["deck", "build", str(deck), "--preset", "makeplayingcards", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    fronts = sorted(p.name for p in (out / "png").glob("0*.png"))
    assert len(fronts) == 36
    assert fronts[-6:] == [f"{n:03d}-blank.png" for n in range(31, 37)]
    assert {Image.open(out / "png" / n).size for n in fronts} == {(822, 1122)}
    blank = Image.open(out / "png" / fronts[-1]).convert("L")
    assert blank.getextrema() == (255, 255)


def test_preflight_measures_text_sizes_and_line_widths(tmp_path: Path) -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    from deckgen.resources import fonts_dir

    font = next(fonts_dir().glob("*.ttf"))
    pdfmetrics.registerFont(TTFont("ContractFont", str(font)))
    path = tmp_path / "sizes.pdf"
    c = canvas.Canvas(str(path), pagesize=(200, 200), initialFontName="ContractFont")
    c.setFont("ContractFont", 6)
    c.drawString(10, 180, "six point text passes")
    c.setFont("ContractFont", 5)
    c.drawString(10, 160, "five point text does not")
    c.setFillColorRGB(0.1, 0.1, 0.3)
    c.rect(0, 0, 200, 100, fill=1, stroke=0)
    c.setFillColorRGB(1, 1, 1)
    c.setFont("ContractFont", 6.5)
    c.drawString(10, 50, "light 6.5 pt on dark")
    c.setLineWidth(0.1)
    c.line(10, 120, 190, 120)
    c.save()
    rules = PreflightRules(
        check_safe_margin=False, min_text_pt=6, min_reversed_text_pt=7, min_line_pt=0.25
    )
    report = preflight_pdf(path, ["a card"], rules)
    found = {f.kind: f.value for f in report.findings if f.kind != "boxes-missing"}
    assert found == {
        "text-too-small": 5.0,
        "reversed-text-too-small": 6.5,
        "line-too-thin": 0.1,
    }, report.to_json()


def test_demo_deck_meets_every_rule_of_meinspiel_and_drivethrucards(
    ms_build: Path, dtc_build: Path
) -> None:
    """The shared builds (also read by the PDF/X and black-ink tests) broke no rule."""
    for out in (ms_build, dtc_build):
        warnings = (out.parent / "warnings.txt").read_text(encoding="utf-8")
        assert "preflight:" not in warnings, warnings
        assert "rule broken" not in warnings, warnings
        assert (out / "ink-map.png").is_file()
        assert (out / "preflight.json").is_file()


@pytest.mark.slow
@pytest.mark.parametrize(
    "preset",
    [
        n
        for n in preset_names()
        if not n.startswith("home-") and n not in ("meinspiel", "drivethrucards")
    ],
)
def test_demo_deck_meets_every_rule_of_every_profile(tmp_path: Path, preset: str) -> None:
    out = tmp_path / "out"
    result = runner.invoke(
        app,
        [
            "deck",
            "build",
            str(images_dir() / "demo-deck.toml"),
            "--preset",
            preset,
            "--out",
            str(out),
            "--no-preview",
            "-q",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "rule broken" not in result.output
    assert "preflight:" not in result.output


def test_quiet_still_says_the_cards_were_remade_at_the_vendors_size(tmp_path: Path) -> None:
    """The note that the cards were re-made (size, corners) is information a shop needs:
    ``--quiet`` hides progress, not it."""
    deck = _deck(tmp_path, "double-3", 3)  # 59 x 91 mm in the deck file
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["deck", "build", str(deck), "--preset", "thegamecrafter", "--out", str(out), "-q"]
    )
    assert result.exit_code == 0, result.output
    assert "re-made for thegamecrafter" in result.output, result.output
    assert "63.5 x 88.9 mm instead of the deck file's 59 x 91 mm" in result.output
