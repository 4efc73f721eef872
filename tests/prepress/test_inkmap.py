"""The open preflight: total ink rendered per card with an ink map, one finding per
low-resolution picture file, spot colours, missing boxes, Markdown and JSON reports."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image
from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.deck.starter import starter_toml
from deckgen.prepress.inkmap import ink_map_png, page_ink, render_cmyk_pages
from deckgen.prepress.preflight import PreflightRules, preflight_pdf
from deckgen.prepress.presets import card_from_preset

runner = CliRunner()


def _heavy_pdf(path: Path) -> None:
    """A 200 pt page: a 400 % ink block at the lower left, 100 % K elsewhere on a band."""
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=(200, 200))
    c.setFillColorCMYK(1, 1, 1, 1)
    c.rect(0, 0, 50, 50, fill=1, stroke=0)
    c.setFillColorCMYK(0, 0, 0, 1)
    c.rect(100, 100, 100, 20, fill=1, stroke=0)
    c.save()


def test_ink_is_measured_as_rendered_and_mapped_in_red(tmp_path: Path) -> None:
    pdf = tmp_path / "heavy.pdf"
    _heavy_pdf(pdf)
    pages = render_cmyk_pages(pdf, dpi=72)
    (ink,) = page_ink(pages, 300)
    assert ink.max_percent > 395
    assert abs(ink.over_fraction - (50 * 50) / (200 * 200)) < 0.01
    map_png = tmp_path / "map.png"
    map_png.write_bytes(ink_map_png(pages, 300))
    image = Image.open(map_png).convert("RGB")
    x0 = 6  # the map's margin
    assert image.getpixel((x0 + 20, x0 + 200 - 20)) == (220, 0, 0)  # the block: red
    assert image.getpixel((x0 + 150, x0 + 90)) != (220, 0, 0)  # 100 % K: fine


def test_spot_colour_and_missing_boxes_are_named(tmp_path: Path) -> None:
    import pikepdf

    path = tmp_path / "spot.pdf"
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(100, 100))
    tint = pdf.make_indirect(
        pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0], C1=[0, 0.5, 1, 0], N=1)
    )
    page = pdf.pages[0]
    page.obj.Resources = pikepdf.Dictionary(
        ColorSpace=pikepdf.Dictionary(
            CS0=pikepdf.Array(
                [
                    pikepdf.Name.Separation,
                    pikepdf.Name("/PANTONE 021 C"),
                    pikepdf.Name.DeviceCMYK,
                    tint,
                ]
            )
        )
    )
    page.obj.Contents = pdf.make_stream(b"/CS0 cs 1 scn 10 10 50 50 re f")
    pdf.save(path)
    report = preflight_pdf(path, ["a card"], PreflightRules(cmyk=True, check_safe_margin=False))
    kinds = {f.kind for f in report.findings}
    assert {"spot-colour", "boxes-missing"} <= kinds, report.to_json()
    assert "TrimBox" in report.by_kind("boxes-missing")[0].message


def test_deck_check_writes_the_ink_map_and_names_low_res_pictures_once(tmp_path: Path) -> None:
    Image.new("RGB", (120, 90), (40, 40, 140)).save(tmp_path / "small.png")
    text = starter_toml("Ink", "double-3", 3, card_from_preset("drivethrucards"))
    text = text.replace('"demo:value-02.png"', '"small.png"').replace(
        'style = "pips"', 'style = "pictures"'
    )
    deck = tmp_path / "deck.toml"
    deck.write_text(text, encoding="utf-8")
    ink_map = tmp_path / "ink.png"
    result = runner.invoke(
        app, ["deck", "check", str(deck), "--ink-map", str(ink_map), "--json", "-q"]
    )
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert report["ink_limit_percent"] == 240
    assert len(report["ink"]) == 10 + 2 + 1  # 10 tiles, cover, imprint and the back
    assert max(i["max_percent"] for i in report["ink"]) <= 240.5
    low = [f for f in report["findings"] if f["kind"] == "low-dpi"]
    assert len(low) == 1, low  # one finding for the picture, not one per card (4 cards)
    assert "small.png" in low[0]["message"]
    assert "120 x 90 px" in low[0]["message"]
    assert "tile 0-2" in low[0]["card"]
    assert "tile 2-3" in low[0]["card"]
    with Image.open(ink_map) as image:
        assert image.format == "PNG"
        assert image.width > 1000


def test_markdown_report_for_people() -> None:
    from deckgen.prepress.preflight import CardInk, Finding, PreflightReport

    report = PreflightReport(
        findings=[Finding("low-dpi", "tile 0-2", "small.png", 0, "prints at 77 dpi", 77.0)],
        pages_checked=13,
        ink=[CardInk("the cover card", "cards.pdf", 1, 239.6, 0.0)],
        ink_limit_percent=240,
    )
    md = report.to_markdown()
    assert "**1 problem(s)**" in md
    assert "## low-dpi (1)" in md
    assert "- tile 0-2 (small.png): prints at 77 dpi" in md
    assert "| the cover card | cards.pdf | 240 | 0.00 % |" in md
    assert "Highest total ink: 240 % on the cover card (limit 240 %)" in md
