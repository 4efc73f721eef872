"""``deckgen rules booklet``: files written, JSON listing, user errors as one paragraph."""

from __future__ import annotations

import json
from pathlib import Path

import pypdf
import pytest
import typer
from typer.testing import CliRunner

from deckgen.cli.booklet import booklet_command


@pytest.fixture
def app() -> typer.Typer:
    """The real ``deckgen`` app, where ``rules booklet`` is registered."""
    from deckgen.cli import app as deckgen_app

    return deckgen_app


def test_registered_command_is_ours() -> None:
    from deckgen.cli.rules import app as rules_app

    commands = {c.name: c.callback for c in rules_app.registered_commands}
    assert commands["booklet"] is booklet_command


def test_console_script_user_error(tmp_path: Path) -> None:
    import subprocess
    import sys

    deckgen = Path(sys.executable).parent / "deckgen"
    proc = subprocess.run(
        [str(deckgen), "rules", "booklet", "card-domino", "--lang", "fr"],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert proc.returncode == 2
    assert "fr" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "output").exists()


def test_booklet_a6_imposed(app: typer.Typer, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "rules",
            "booklet",
            "two-player",
            "--lang",
            "en",
            "--format",
            "a6",
            "--impose",
            "--style",
            "numerals",
            "--age",
            "8",
            "--out",
            str(tmp_path),
            "--json",
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    written = [Path(p).name for p in json.loads(result.stdout)["written"]]
    # imposed sheets are for a press: --impose implies the print edition
    assert written == ["booklet-en.pdf", "booklet-en-press.pdf", "booklet-en-print.pdf"]
    booklet = pypdf.PdfReader(tmp_path / "booklet-en.pdf")
    box = booklet.pages[0].mediabox
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == (105, 148)
    assert "Ages 8 and up" in booklet.pages[0].extract_text()
    last = booklet.pages[-1].extract_text()
    assert "Quick reference" in last
    assert "End of the game" in last
    assert "Quick reference" not in booklet.pages[-2].extract_text().split("\n")[0]
    press = pypdf.PdfReader(tmp_path / "booklet-en-press.pdf")
    assert len(press.pages) % 4 == 0
    assert len(press.pages) == -(-len(booklet.pages) // 4) * 4
    imposed = pypdf.PdfReader(tmp_path / "booklet-en-print.pdf")
    assert len(imposed.pages) == len(press.pages) // 2  # two sides per sheet
    trim = imposed.pages[0].trimbox
    bleed = imposed.pages[0].bleedbox
    assert float(bleed.width) - float(trim.width) == pytest.approx(6 / 25.4 * 72, abs=0.1)
    assert b"/DeviceCMYK" in (tmp_path / "booklet-en-print.pdf").read_bytes() or (
        b"/OutputIntents" in (tmp_path / "booklet-en-print.pdf").read_bytes()
    )
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["no-such-rules"], "no-such-rules"),
        (["card-domino", "--deck", "missing.toml"], "missing.toml"),
        (["card-domino", "--check", "missing.json"], "missing.json"),
    ],
)
def test_user_errors(app: typer.Typer, tmp_path: Path, args: list[str], needle: str) -> None:
    result = CliRunner().invoke(app, ["rules", "booklet", *args, "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ")
    assert needle in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "o").exists() or not list((tmp_path / "o").iterdir())


def test_bad_check_report(app: typer.Typer, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    report.write_text("{not json")
    result = CliRunner().invoke(
        app, ["rules", "booklet", "card-domino", "--check", str(report), "--out", str(tmp_path)]
    )
    assert result.exit_code == 2
    assert "not JSON" in result.stderr


def test_unknown_format_is_refused(app: typer.Typer, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["rules", "booklet", "card-domino", "--format", "a4"])
    assert result.exit_code == 2


def test_deck_pictures_outside_its_folder(app: typer.Typer, tmp_path: Path) -> None:
    from deckgen.resources import images_dir

    folder = tmp_path / "customer"
    folder.mkdir()
    text = (images_dir() / "demo-deck.toml").read_text()
    outside = f'"{images_dir()}/value-0'
    (folder / "deck.toml").write_text(
        text.replace('"value-0', outside)
        .replace('logo = "logo.png"', 'logo = "demo:logo.png"')
        .replace('file = "cover.jpg"', 'file = "demo:cover.jpg"')
    )
    args = ["rules", "booklet", "card-domino", "--lang", "en", "--deck", str(folder / "deck.toml")]
    refused = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "a")])
    assert refused.exit_code == 2
    assert "--allow-outside" in refused.stderr
    assert not (tmp_path / "a").exists()
    allowed = CliRunner().invoke(app, [*args, "--allow-outside", "--out", str(tmp_path / "b")])
    assert allowed.exit_code == 0, allowed.output
    assert (tmp_path / "b" / "booklet-en.pdf").is_file()
