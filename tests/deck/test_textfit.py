"""Text fitting and markup: shrinking, wrapping, the minimum readable size."""

from __future__ import annotations

import pytest

from deckgen.deck.fonts import load_fonts
from deckgen.deck.textfit import clip_to_height, fit_text, parse_markup, require_fit
from deckgen.errors import SpecError


@pytest.fixture(scope="module")
def fonts():  # type: ignore[no-untyped-def]
    return load_fonts()


def test_markup_paragraphs_breaks_and_bold() -> None:
    assert parse_markup("a **b** c\nd\n\n\ne") == [
        [[("a ", False), ("b", True), (" c", False)], [("d", False)]],
        [[("e", False)]],
    ]
    assert parse_markup("   ") == []
    assert parse_markup("**unclosed") == [[[("**unclosed", False)]]]


def test_short_text_keeps_max_size(fonts) -> None:  # type: ignore[no-untyped-def]
    r = fit_text(
        "Hello", width_pt=100, height_pt=50, regular=fonts.regular, bold=fonts.bold, max_size=12
    )
    assert r.fits and r.size == 12 and len(r.lines) == 1


def test_long_text_shrinks_and_wraps_within_width(fonts) -> None:  # type: ignore[no-untyped-def]
    from reportlab.pdfbase.pdfmetrics import stringWidth

    text = "The quick brown fox jumps over the lazy dog. " * 6
    r = fit_text(
        text, width_pt=120, height_pt=80, regular=fonts.regular, bold=fonts.bold, max_size=14
    )
    assert r.fits and 6 <= r.size < 14
    for line in r.lines:
        assert line is not None
        assert sum(stringWidth(t, fonts.regular, r.size) for t, _ in line) <= 120 + 0.01


def test_overlong_word_is_broken(fonts) -> None:  # type: ignore[no-untyped-def]
    r = fit_text(
        "x" * 200, width_pt=60, height_pt=500, regular=fonts.regular, bold=fonts.bold, max_size=10
    )
    assert r.fits and len(r.lines) > 3


def test_too_long_reports_minimum_size(fonts) -> None:  # type: ignore[no-untyped-def]
    r = fit_text(
        "word " * 2000,
        width_pt=100,
        height_pt=100,
        regular=fonts.regular,
        bold=fonts.bold,
        max_size=9,
    )
    assert not r.fits and r.size == 6
    with pytest.raises(SpecError, match="does not fit at the minimum readable size 6 pt"):
        require_fit(r, what="the rules", where="booklet", min_size=6)
    kept = clip_to_height(r, 100)
    assert kept and kept[-1] is not None and kept[-1][-1][0].endswith("…")
