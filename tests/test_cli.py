from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckgen.cli import app

BIN = Path(sys.executable).parent


def test_sets_json(runner: CliRunner) -> None:
    result = runner.invoke(app, ["sets", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["version"] == 1
    rows = {r["name"]: r for r in data["sets"]}
    assert next(iter(rows)) == "double-6"
    assert list(rows)[-1] == "double-18"
    assert rows["double-6"]["tiles"] == 28
    assert rows["double-6"]["total_pips"] == 168
    assert rows["double-12"]["tiles"] == 91
    assert rows["double-12"]["total_pips"] == 1092
    assert rows["double-7"]["deck_cards"] == 38
    assert rows["double-9"]["each_value_appears"] == 11


def test_sets_table_and_filter(runner: CliRunner) -> None:
    result = runner.invoke(app, ["sets", "double-7"])
    assert result.exit_code == 0
    assert "double-7" in result.stdout
    assert "double-6" not in result.stdout


@pytest.mark.parametrize("name", ["double-99", "triple-6"])
def test_bad_set_name_exit_2(name: str) -> None:
    proc = subprocess.run(
        [str(BIN / "deckgen"), "sets", name], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: ")
    assert "double-6" in proc.stderr
    assert name in proc.stderr
    assert "Traceback" not in proc.stderr


def test_console_script_sets_json() -> None:
    proc = subprocess.run(
        [str(BIN / "deckgen"), "sets", "--json"], capture_output=True, text=True, check=True
    )
    assert json.loads(proc.stdout)["sets"][0]["name"] == "double-6"


def test_python_m_and_version() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "deckgen", "--version"], capture_output=True, text=True, check=True
    )
    assert proc.stdout.startswith("deckgen ")


def test_help_does_not_import_heavy_libraries() -> None:
    code = (
        "import sys, io, contextlib\n"
        "from deckgen.cli import app\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        "        app(['--help'], standalone_mode=False)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = [m for m in ('weasyprint', 'reportlab', 'PIL', 'pypdfium2', 'pikepdf')"
        " if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    heavy = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    assert heavy == "", f"deckgen --help imported {heavy}"


def test_a_command_builds_only_its_own_group() -> None:
    """The deck, rules and batch groups become click groups when first asked for (typer
    builds a pydantic adapter for each option): `deckgen rules ...` builds no deck or
    batch option. Help lists every command in the same order all the same."""
    import typer

    root = typer.main.get_command(app)
    ctx = typer.Context(root)
    assert isinstance(root, typer.core.TyperGroup)
    assert "rules" not in root.commands
    assert "deck" not in root.commands
    rules = root.get_command(ctx, "rules")
    assert isinstance(rules, typer.core.TyperGroup)
    assert "check" in rules.commands
    assert rules.name == "rules"
    assert "rules" in root.commands
    assert "deck" not in root.commands
    assert "batch" not in root.commands
    order = ["sets", "demo", "worker", "studio", "deck", "rules", "batch"]
    assert root.list_commands(ctx) == order
    assert root.get_command(ctx, "nonsense") is None
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "200"})
    listed = re.findall(r"^│ (\w+) ", result.output, flags=re.MULTILINE)
    assert listed == order


def test_a_group_named_with_one_of_its_commands_builds_that_command_alone() -> None:
    """`deckgen rules check ...` builds the rules group with `check` alone (typer builds
    every option of every command of a group). Asked for by name later, the same root
    gives the whole group; help, a typo or no command go the usual way."""
    import typer

    root = typer.main.get_command(app)
    assert isinstance(root, typer.core.TyperGroup)
    ctx = typer.Context(root)
    name, group, rest = root.resolve_command(ctx, ["rules", "check", "two-player"])
    assert (name, rest) == ("rules", ["check", "two-player"])
    assert isinstance(group, typer.core.TyperGroup)
    assert list(group.commands) == ["check"]
    assert group.commands["check"].callback is not None
    whole = root.get_command(ctx, "rules")
    assert isinstance(whole, typer.core.TyperGroup)
    assert list(whole.commands) == ["list", "show", "play", "replay", "booklet", "check", "tune"]
    for words in (["rules", "--help"], ["rules", "chek"], ["deck"]):
        fresh = typer.main.get_command(app)
        assert isinstance(fresh, typer.core.TyperGroup)
        _, got, _ = fresh.resolve_command(typer.Context(fresh), words)
        assert isinstance(got, typer.core.TyperGroup)
        assert len(got.commands) > 1, words


def test_demo_makes_the_whole_product(runner: CliRunner, tmp_path: Path) -> None:
    import pypdf

    out = tmp_path / "demo"
    result = runner.invoke(app, ["demo", "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "sets.json").read_text())["sets"][1]["name"] == "double-7"
    assert "| double-12 | 12 | 91 | 13 | 1092 | 14 | 93 |" in (out / "sets.md").read_text()
    assert not [p for p in out.rglob("*") if p.name.startswith(".")]
    # The deck: cover + 36 tiles + imprint, with the short rules on the imprint card.
    cards = pypdf.PdfReader(out / "deck" / "cards.pdf")
    assert len(cards.pages) == 38
    assert "never more than three cards" in " ".join(cards.pages[-1].extract_text().split())
    assert len(pypdf.PdfReader(out / "deck" / "sheets.pdf").pages) == 10  # 5 fronts + 5 backs
    # The booklets in both languages, fed by the check report that the demo wrote.
    for lang in ("de", "en"):
        assert len(pypdf.PdfReader(out / "booklet" / f"booklet-{lang}.pdf").pages) >= 6
    # The Mexican Train booklets for a double-12 deck (the game such a deck is bought for).
    for lang, name in (("de", "Mexikanischer Zug"), ("en", "Mexican Train")):
        train = pypdf.PdfReader(out / "mexican-train" / f"booklet-{lang}.pdf")
        assert name in train.pages[0].extract_text()
    report = json.loads((out / "checks" / "check-card-domino.json").read_text())
    # card-domino for 3 players: seat 1 starts 2 of 4 rounds, a design warning (issue 12)
    assert report["verdict"] in ("ok", "notice", "warn"), report["reasons"]
    # Mexican Train: random play blocks many 2-player rounds, a design finding (issue 12)
    assert re.search(r"- `mexican-train`: (ok|notice|warn)\n", (out / "README.md").read_text())
    index = (out / "README.md").read_text()
    for name in ("deck/cards.pdf", "booklet/booklet-de.pdf", "checks/check-card-domino.md"):
        assert f"[`{name}`]({name})" in index
    assert f"- `card-domino`: {report['verdict']}" in index
    assert "every clause reached" not in index
    # Print shops reject fonts that are not embedded, used or not; and every page has boxes.
    for pdf_path in sorted(out.rglob("*.pdf")):
        assert _unembedded_fonts(pdf_path) == set(), pdf_path
        for page in pypdf.PdfReader(pdf_path).pages:
            assert "/TrimBox" in page, pdf_path
            assert "/MediaBox" in page, pdf_path


def _unembedded_fonts(path: Path) -> set[str]:
    """BaseFont names of fonts without an embedded font file, forms included."""
    import pikepdf

    missing: set[str] = set()

    def walk(resources, seen: set[int]) -> None:  # type: ignore[no-untyped-def]
        if resources is None or resources.objgen in seen:
            return
        seen.add(resources.objgen)
        for font in (resources.get("/Font") or {}).values():
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font.DescendantFonts[0].get("/FontDescriptor")
            files = ("/FontFile", "/FontFile2", "/FontFile3")
            if font.get("/Subtype") != "/Type3" and (
                descriptor is None or not any(k in descriptor for k in files)
            ):
                missing.add(str(font.get("/BaseFont")))
        for xobject in (resources.get("/XObject") or {}).values():
            if xobject.get("/Subtype") == "/Form":
                walk(xobject.get("/Resources"), seen)

    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            walk(page.obj.get("/Resources"), set())
    return missing


def test_user_error_through_runner(runner: CliRunner) -> None:
    result = runner.invoke(app, ["sets", "double-99"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: unknown domino set 'double-99'")


def test_usage_error_exit_2() -> None:
    proc = subprocess.run(
        [str(BIN / "deckgen"), "sets", "--no-such-option"], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr


def test_leaving_keeps_output_exit_code_and_exit_handlers(tmp_path: Path) -> None:
    """``main`` ends the process without Python's module teardown (``leave``): what was
    printed still arrives whole through a pipe, the exit code is the command's, and the
    exit handlers still run."""
    marker = tmp_path / "handler-ran"
    code = (
        "import atexit, pathlib, sys\n"
        f"atexit.register(pathlib.Path({str(marker)!r}).write_text, 'yes')\n"
        "sys.argv = ['deckgen', *sys.argv[1:]]\n"
        "from deckgen.cli import main\n"
        "main()\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, "rules", "check", "two-player", "--rounds", "300", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode in (0, 5, 6), proc.stderr  # a verdict, not an error
    report = json.loads(proc.stdout)  # the whole report, flushed before the end
    assert report["rules"]["id"] == "two-player"
    assert marker.read_text() == "yes"
    bad = subprocess.run(
        [sys.executable, "-m", "deckgen", "rules", "check", "two-player", "--rounds", "0"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: ")
    assert "Traceback" not in bad.stderr
