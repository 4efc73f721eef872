"""A deck build decides each thing once, in order: preset -> card size -> imprint fit.

Shows: a tarot deck whose imprint carries the short rules of a rules file builds under
``--preset meinspiel`` (the short rules are chosen for MeinSpiel's smaller card, not
the tarot card the file names); a build resolves its preset once, fits the imprint's
text once (choosing the short rules draws nothing) and parses ``cards.pdf`` once for
the preview and the preflight together: pdfium once for both, pikepdf once for every
print stage (geometry, CMYK and PDF/X, the vendor's files, the proof, the preflight),
with and without a print shop; nothing below the plan reads the deck file.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from deckgen.api.decks import build_deck

TAROT = """\
name = "Tarot Domino"
set = "double-7"
[card]
size = "tarot"
[imprint]
text = "Made by the Tester family."
rules = "card-domino"
"""


@pytest.fixture
def tarot(tmp_path: Path) -> Path:
    path = tmp_path / "tarot.toml"
    path.write_text(TAROT, encoding="utf-8")
    return path


def _imprint_text(pdf: Path) -> str:
    from pypdf import PdfReader

    reader = PdfReader(pdf)
    return reader.pages[len(reader.pages) - 1].extract_text()


def _is_cards_pdf(source: Any) -> bool:
    """A path named ``cards.pdf``, or a stream or bytes of the drawn card fronts."""
    import io

    if isinstance(source, str | Path):
        return Path(source).name == "cards.pdf"
    if isinstance(source, io.BytesIO):
        source = source.getvalue()
    if isinstance(source, bytes | bytearray):
        # the title of cards.pdf, not that of the vendor's fronts file ("card fronts for")
        return source.startswith(b"%PDF") and re.search(rb"card fronts(?! for)", source) is not None
    return False


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Counts preset loads, imprint fits, imprint drawings and parses of the card PDFs."""
    import pikepdf
    import pypdfium2 as pdfium

    from deckgen.deck import imprint, textfit
    from deckgen.prepress import presets

    counts: Counter[str] = Counter()
    textfit.fit_in.cache_clear()
    real_measure = textfit.measure_fit

    def measure(text: str, frame: textfit.TextFrame) -> textfit.FitResult:
        if text.startswith("**Tarot Domino**"):
            counts["imprint fitted"] += 1
            counts[f"imprint text {hash(text)}"] += 1
        return real_measure(text, frame)

    real_draw = imprint.draw_imprint

    def draw(ctx: Any) -> None:
        counts["imprint drawn"] += 1
        real_draw(ctx)

    real_load = presets.load_preset

    def load(name: str, *args: Any, **kwargs: Any) -> Any:
        counts["preset loaded"] += 1
        return real_load(name, *args, **kwargs)

    real_doc = pdfium.PdfDocument

    class Document(real_doc):  # type: ignore[misc, valid-type]
        def __init__(self, source: Any, *args: Any, **kwargs: Any) -> None:
            data = source if isinstance(source, bytes) else Path(str(source)).read_bytes()
            if data.startswith(b"%PDF") and b"card fronts" in data:
                counts["cards.pdf parsed (pdfium)"] += 1
            super().__init__(source, *args, **kwargs)

    real_open = pikepdf.Pdf.open  # pikepdf.open is the same function

    def pike_open(source: Any, *args: Any, **kwargs: Any) -> Any:
        if _is_cards_pdf(source):
            counts["cards.pdf opened (pikepdf)"] += 1
        return real_open(source, *args, **kwargs)

    monkeypatch.setattr(textfit, "measure_fit", measure)
    monkeypatch.setattr(imprint, "draw_imprint", draw)
    import sys

    for module in list(sys.modules.values()):  # every module that imported the name
        if getattr(module, "load_preset", None) is real_load:
            monkeypatch.setattr(module, "load_preset", load)
    monkeypatch.setattr(pdfium, "PdfDocument", Document)
    monkeypatch.setattr(pikepdf, "open", pike_open)
    monkeypatch.setattr(pikepdf.Pdf, "open", staticmethod(pike_open))
    yield counts
    textfit.fit_in.cache_clear()


def test_a_build_fits_the_imprint_once_and_parses_cards_pdf_once(
    tarot: Path, tmp_path: Path, counted: Counter[str]
) -> None:
    build_deck(tarot, tmp_path / "out")
    assert counted["imprint drawn"] == 1, "the imprint card is drawn once: in cards.pdf"
    texts = [k for k in counted if k.startswith("imprint text ")]
    chosen = texts[-1]
    assert counted[chosen] == 1, (
        f"the chosen imprint text was fitted {counted[chosen]} times (choosing the short "
        "rules and drawing the card must share one fit)"
    )
    assert counted["cards.pdf parsed (pdfium)"] == 1, (
        f"cards.pdf was parsed {counted['cards.pdf parsed (pdfium)']} times by pdfium: the "
        "preview and the preflight should share one parse"
    )
    assert counted["cards.pdf opened (pikepdf)"] == 1, (
        f"cards.pdf was opened {counted['cards.pdf opened (pikepdf)']} times by pikepdf: "
        "the print step's geometry and the preflight should share one open document"
    )


def test_tarot_deck_builds_for_meinspiel_resolving_the_preset_and_opening_cards_pdf_once(
    tarot: Path, tmp_path: Path, counted: Counter[str]
) -> None:
    built = build_deck(tarot, tmp_path / "ms", profile="meinspiel")
    assert counted["preset loaded"] == 1, (
        f"the preset was loaded {counted['preset loaded']} times; the plan resolves it once"
    )
    opened = counted["cards.pdf opened (pikepdf)"]
    assert opened == 1, (
        f"cards.pdf was opened {opened} times by pikepdf in a MeinSpiel build: its geometry, "
        "CMYK conversion, PDF/X, the fronts and backs files, the proof and the preflight "
        "should all work on one open document"
    )
    for made in ("preview.png", "fronts.pdf", "backs.pdf", "proof.pdf", "preflight.json"):
        assert (tmp_path / "ms" / made).is_file(), f"{made} was not made"
    # the preview draws the cards as drawn (sRGB); the preflight reads the CMYK file
    # that is delivered: two different files, each parsed once
    assert counted["cards.pdf parsed (pdfium)"] == 2, (
        f"cards.pdf was parsed {counted['cards.pdf parsed (pdfium)']} times by pdfium: once "
        "drawn (the preview) and once converted to CMYK (the preflight) expected"
    )
    card = built.manifest["card"]
    assert (card["width_mm"], card["height_mm"]) == (59.0, 91.0), "made to MeinSpiel's card"
    assert built.manifest["preset"] == "meinspiel"
    text = _imprint_text(tmp_path / "ms" / "cards.pdf")
    assert "Short rules" in text, "the short rules are on the imprint card, fitted to 59 x 91"


def test_the_plan_is_what_is_drawn(tarot: Path) -> None:
    """Stages: deck file -> plan -> drawn cards; the plan carries every decision."""
    from deckgen.deck.build import draw_deck
    from deckgen.deck.plan import BuildSettings, PressRules, plan_build
    from deckgen.deck.spec import load_deck

    deck = load_deck(tarot)
    plan = plan_build(deck, BuildSettings(press=PressRules(min_line_pt=0.5), preview=False))
    assert [c.kind for c in plan.cards][:2] == ["cover", "tile"]
    assert len(plan.cards) == 36 + 2
    drawn = draw_deck(plan)
    try:
        assert drawn.fronts.pages == len(plan.cards)
        assert drawn.back.pages == 1
    finally:
        drawn.close()


def test_deck_check_fits_the_short_rules_to_the_presets_card(tarot: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from deckgen.cli import app

    ink_map = tmp_path / "ink.png"
    result = CliRunner().invoke(
        app, ["deck", "check", str(tarot), "--preset", "meinspiel", "--ink-map", str(ink_map)]
    )
    assert result.exit_code == 0, result.output


def test_the_plan_holds_the_pictures_with_their_crop_and_the_fitted_imprint(
    tmp_path: Path,
) -> None:
    from deckgen.deck.plan import plan_build
    from deckgen.deck.spec import load_deck
    from deckgen.resources import images_dir

    plan = plan_build(load_deck(images_dir() / "demo-deck.toml"))
    cover = [p for p in plan.pictures if p.path.name == "cover.jpg"]
    assert len(cover) == 1
    assert cover[0].use.focus == (0.5, 0.4), "the deck file's focus point"
    assert cover[0].use.fit == "cover"
    assert [p.path.name for p in plan.pictures if p.back] == ["logo.png"]
    assert plan.imprint_fit is not None
    assert plan.imprint_fit.fits
