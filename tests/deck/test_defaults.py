"""deckgen's own design meets the rules of every printer it ships a preset for.

Shows: a deck file with only a name, and ``deck new`` for every set (its sample content
replaced, as a vendor build asks), build against every preset without ``--force``
(a fast representative pair here, the whole matrix marked slow); under MeinSpiel black
text is solid black ink (0/0/0/100, not a tint) and no line deckgen draws is thinner than
MeinSpiel's published 0.5 pt; text that stands out too little from its ground (WCAG 2
contrast) is a preflight finding, and under a preset a broken rule naming the fix.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.prepress.presets import load_preset, preset_names
from starterkit import finished_starter

runner = CliRunner()


def _build(deck: Path, out: Path, *extra: str) -> Any:
    return runner.invoke(
        app, ["deck", "build", str(deck), "--out", str(out), "--no-preview", *extra]
    )


def test_a_deck_with_only_a_name_builds_for_meinspiel(tmp_path: Path) -> None:
    deck = tmp_path / "named.toml"
    deck.write_text('name = "Only A Name"\nset = "double-3"\n', encoding="utf-8")
    result = _build(deck, tmp_path / "out", "--preset", "meinspiel")
    assert result.exit_code == 0, result.output
    assert "error" not in result.output


@pytest.mark.parametrize(("set_name", "preset"), [("double-3", "meinspiel")])
def test_new_deck_builds_for_a_preset(tmp_path: Path, set_name: str, preset: str) -> None:
    """The representative case: the strictest preset (CMYK, solid black, 0.5 pt lines)."""
    deck = finished_starter(tmp_path, set_name, preset=preset)
    result = _build(deck, tmp_path / "out", "--preset", preset)
    assert result.exit_code == 0, result.output


MATRIX = [(s, p) for s in ("double-6",) for p in preset_names()] + [
    (s, "meinspiel") for s in ("double-1", "double-18")
]
"""double-18 draws every pip design of every smaller set."""


@pytest.mark.slow
@pytest.mark.parametrize(("set_name", "preset"), MATRIX)
def test_new_deck_builds_for_every_preset_and_set(
    tmp_path: Path, set_name: str, preset: str
) -> None:
    """Every preset with double-6, and sets up to double-18 (every pip design) for MeinSpiel."""
    deck = finished_starter(tmp_path, set_name, preset=preset)
    result = _build(deck, tmp_path / "out", "--preset", preset)
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def meinspiel_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A picture deck (badges drawn, thin outlines) built for MeinSpiel."""
    folder = tmp_path_factory.mktemp("ms")
    deck = finished_starter(folder, "double-3", preset="meinspiel")
    text = deck.read_text("utf-8").replace('style = "pips"', 'style = "pictures+pips"')
    deck.write_text(text, encoding="utf-8")
    result = _build(deck, folder / "out", "--preset", "meinspiel")
    assert result.exit_code == 0, result.output
    return folder / "out"


def _text_colours(pdf_path: Path) -> list[tuple[float, ...]]:
    """The fill colours (CMYK ``k``) text is set in, over every page and form."""
    import pikepdf

    found: list[tuple[float, ...]] = []

    def walk(stream: Any, resources: Any, depth: int) -> None:
        colour: tuple[float, ...] = ()
        in_text = False
        for instruction in pikepdf.parse_content_stream(stream):
            operands, op = list(instruction.operands), str(instruction.operator)
            if op == "k":
                colour = tuple(float(v) for v in operands)
            elif op == "BT":
                in_text = True
            elif op == "ET":
                in_text = False
            elif op in ("Tj", "TJ", "'", '"') and in_text and colour:
                found.append(colour)
            elif op == "Do" and depth < 4 and resources is not None:
                xobject = resources.get("/XObject", {}).get(str(operands[0]))
                if xobject is not None and xobject.get("/Subtype") == "/Form":
                    walk(xobject, xobject.get("/Resources"), depth + 1)

    with pikepdf.open(pdf_path) as pdf:
        for page in pdf.pages:
            walk(page.obj, page.obj.get("/Resources"), 0)
    return found


def test_black_text_is_solid_black_ink_for_meinspiel(meinspiel_build: Path) -> None:
    colours = _text_colours(meinspiel_build / "cards.pdf")
    assert colours, "no text found"
    tints = sorted({c for c in colours if c[:3] == (0.0, 0.0, 0.0) and 0.75 <= c[3] < 1.0})
    assert not tints, f"black text printed as a tint of black {tints}; MeinSpiel asks for 0/0/0/100"
    assert (0.0, 0.0, 0.0, 1.0) in colours


def test_no_line_is_thinner_than_meinspiels_thinnest(meinspiel_build: Path) -> None:
    from deckgen.prepress.preflight import PreflightRules, preflight_pdf

    assert load_preset("meinspiel").min_line_pt == 0.5, "MeinSpiel publishes 0.5 pt"
    rules = PreflightRules(min_line_pt=0.5, check_safe_margin=False)
    report = preflight_pdf(meinspiel_build / "cards.pdf", [], rules)
    report = preflight_pdf(meinspiel_build / "back.pdf", [], rules, report=report)
    thin = [f.text() for f in report.by_kind("line-too-thin")]
    assert not thin, thin


BLACK_CARD = 'name = "Night"\nset = "double-3"\n[card]\nbackground = "#000000"\n'


def test_text_without_contrast_is_a_finding_and_under_a_preset_a_rule(tmp_path: Path) -> None:
    deck = tmp_path / "night.toml"
    deck.write_text(BLACK_CARD, encoding="utf-8")
    plain = _build(deck, tmp_path / "plain")
    assert plain.exit_code == 0, plain.output
    assert "contrast of" in plain.output, "the preflight names the unreadable corner index"
    ruled = _build(deck, tmp_path / "ms", "--preset", "meinspiel")
    assert ruled.exit_code == 2, ruled.output
    error = next(line for line in ruled.output.splitlines() if line.startswith("error:"))
    assert "contrast" in error
    assert "choose a lighter text colour" in error
