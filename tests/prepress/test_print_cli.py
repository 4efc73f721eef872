"""deckgen deck presets / build --sheets --png --preset --cmyk / check / calibrate."""

from __future__ import annotations

import json
from pathlib import Path

import pikepdf
from PIL import Image
from pypdf import PdfReader
from typer.testing import CliRunner

from deckgen.cli import app
from starterkit import finish_samples


def _new_deck(runner: CliRunner, folder: Path, *extra: str) -> Path:
    deck = folder / "deck.toml"
    result = runner.invoke(app, ["deck", "new", str(deck), "--set", "double-3", "-q", *extra])
    assert result.exit_code == 0, result.output
    # a vendor build refuses the starter's sample content: replace it, as a customer does
    deck.write_text(finish_samples(deck.read_text("utf-8"), folder), encoding="utf-8")
    return deck


def test_presets_listing(runner: CliRunner) -> None:
    result = runner.invoke(app, ["deck", "presets", "--json"])
    assert result.exit_code == 0, result.output
    names = [p["name"] for p in json.loads(result.stdout)["presets"]]
    assert {"meinspiel", "drivethrucards", "thegamecrafter", "home-a4", "home-letter"} <= set(names)
    table = runner.invoke(app, ["deck", "presets"], env={"COLUMNS": "200"})
    assert table.exit_code == 0
    assert "meinspiel" in table.stdout
    # a home preset keeps the deck's own card size: the table says so
    (home,) = [line for line in table.stdout.splitlines() if "home-a4" in line]
    assert "63 x 88 (or the deck's own)" in home


def test_build_sheets_png_listed_in_manifest(runner: CliRunner, tmp_path: Path) -> None:
    deck = _new_deck(runner, tmp_path)
    out = tmp_path / "out"
    args = ["deck", "build", str(deck), "--out", str(out), "--sheets", "Letter"]
    args += [
        "--duplex",
        "short",
        "--marks",
        "cut",
        "--png",
        "--back-offset",
        "1,-0.5",
        "--json",
        "-q",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    manifest = json.loads(result.stdout)["manifest"]
    kinds = {f["kind"] for f in manifest["files"]}
    assert {"cards", "back", "sheets", "calibration", "card-png", "preflight"} <= kinds
    assert len(PdfReader(out / "sheets.pdf").pages) % 2 == 0
    assert Image.open(out / "png" / "002-0-0.png").size == (768, 1146)  # 65 x 97 mm at 300 dpi


def test_build_cmyk_and_preset(runner: CliRunner, tmp_path: Path) -> None:
    deck = _new_deck(runner, tmp_path, "--preset", "meinspiel")
    out = tmp_path / "out"
    result = runner.invoke(app, ["deck", "build", str(deck), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert not (out / "cards").exists(), "MeinSpiel takes one PDF of fronts, one of backs"
    for name in ("fronts.pdf", "backs.pdf"):
        assert len(PdfReader(out / name).pages) == 37, name
    with pikepdf.open(out / "fronts.pdf") as pdf:
        assert str(pdf.Root.OutputIntents[0].OutputConditionIdentifier) == "FOGRA39"
    rgb = runner.invoke(
        app, ["deck", "build", str(deck), "--out", str(tmp_path / "rgb"), "--rgb", "-q"]
    )
    assert rgb.exit_code == 0, rgb.output
    with pikepdf.open(tmp_path / "rgb" / "cards.pdf") as pdf:
        assert "/OutputIntents" not in pdf.Root


def test_check_names_low_dpi_card(runner: CliRunner, tmp_path: Path) -> None:
    deck = _new_deck(runner, tmp_path)
    Image.new("RGB", (50, 50), (220, 30, 30)).save(tmp_path / "tiny.png")
    text = deck.read_text()
    text = text.replace('style = "pips"', 'style = "pictures"', 1)
    text = text.replace('"own-value-01.png"', '"tiny.png"', 1)
    deck.write_text(text)
    result = runner.invoke(app, ["deck", "check", str(deck), "--json"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    low = [f for f in report["findings"] if f["kind"] == "low-dpi"]
    # one finding for the picture file (not one per card), naming every card showing it
    assert len(low) == 1
    assert low[0]["file"] == "tiny.png"
    assert low[0]["card"] == "tile 0-1, tile 1-1, tile 1-2, tile 1-3"
    plain = runner.invoke(app, ["deck", "check", str(deck)])
    assert plain.exit_code == 1
    assert "low-dpi: tile 0-1, tile 1-1" in plain.stdout
    assert "tiny.png" in plain.stdout
    assert "50 x 50 px" in plain.stdout


def test_calibrate_and_bad_options(runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "cal.pdf"
    result = runner.invoke(app, ["deck", "calibrate", "--out", str(target), "--paper", "A3", "-q"])
    assert result.exit_code == 0, result.output
    assert len(PdfReader(target).pages) == 2
    deck = _new_deck(runner, tmp_path)
    out = tmp_path / "never"
    for bad in (["--sheets", "A5"], ["--back-offset", "x"], ["--preset", "meinspeil"]):
        result = runner.invoke(app, ["deck", "build", str(deck), "--out", str(out), *bad])
        assert result.exit_code == 2, (bad, result.output)
        assert "error:" in result.stderr
        assert "Traceback" not in result.output
        assert not out.exists()


def test_back_offset_needs_sheets_and_a_measurable_value(runner: CliRunner, tmp_path: Path) -> None:
    deck = _new_deck(runner, tmp_path)
    out = tmp_path / "out"
    base = ["deck", "build", str(deck), "--out", str(out), "--no-preview", "-q"]
    alone = runner.invoke(app, [*base, "--back-offset", "1,1"])
    assert alone.exit_code == 2, alone.output
    assert "--sheets" in alone.output, alone.output
    far = runner.invoke(app, [*base, "--sheets", "A4", "--back-offset", "8,0"])
    assert far.exit_code == 2, far.output
    assert "calibration.pdf measures" in far.output, far.output
    fine = runner.invoke(app, [*base, "--sheets", "A4", "--back-offset", "1.5,-2"])
    assert fine.exit_code == 0, fine.output


def test_every_pdf_of_a_build_asks_not_to_be_scaled(runner: CliRunner, tmp_path: Path) -> None:
    deck = _new_deck(runner, tmp_path, "--preset", "meinspiel")
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["deck", "build", str(deck), "--out", str(out), "--sheets", "A4", "-q"]
    )
    assert result.exit_code == 0, result.output
    pdfs = sorted(out.rglob("*.pdf"))
    assert len(pdfs) >= 6
    for path in pdfs:
        with pikepdf.open(path) as pdf:
            prefs = pdf.Root.get("/ViewerPreferences")
            assert prefs is not None, path.name
            assert prefs.get("/PrintScaling") == "/None", path.name
