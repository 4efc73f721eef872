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
    assert r.fits
    assert r.size == 12
    assert len(r.lines) == 1


def test_long_text_shrinks_and_wraps_within_width(fonts) -> None:  # type: ignore[no-untyped-def]
    from reportlab.pdfbase.pdfmetrics import stringWidth

    text = "The quick brown fox jumps over the lazy dog. " * 6
    r = fit_text(
        text, width_pt=120, height_pt=80, regular=fonts.regular, bold=fonts.bold, max_size=14
    )
    assert r.fits
    assert 6 <= r.size < 14
    for line in r.lines:
        assert line is not None
        assert sum(stringWidth(t, fonts.regular, r.size) for t, _ in line) <= 120 + 0.01


def test_overlong_word_is_broken(fonts) -> None:  # type: ignore[no-untyped-def]
    r = fit_text(
        "x" * 200, width_pt=60, height_pt=500, regular=fonts.regular, bold=fonts.bold, max_size=10
    )
    assert r.fits
    assert len(r.lines) > 3


def test_too_long_reports_minimum_size(fonts) -> None:  # type: ignore[no-untyped-def]
    r = fit_text(
        "word " * 2000,
        width_pt=100,
        height_pt=100,
        regular=fonts.regular,
        bold=fonts.bold,
        max_size=9,
    )
    assert not r.fits
    assert r.size == 6
    with pytest.raises(SpecError, match="does not fit at the minimum readable size 6 pt"):
        require_fit(r, what="the rules", where="booklet", min_size=6)
    kept = clip_to_height(r, 100)
    assert kept
    assert kept[-1] is not None
    assert kept[-1][-1][0].endswith("…")


def _texts(result) -> list[str]:  # type: ignore[no-untyped-def]
    return ["".join(t for t, _ in line) for line in result.lines if line is not None]


def test_title_breaks_at_its_own_hyphen_not_mid_word(fonts) -> None:  # type: ignore[no-untyped-def]
    """The cover title of issue 13: once broke as "Müller-Lüdensche / idt"."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    text = "**Müller-Lüdenscheidt Familienspiel**"
    width = stringWidth("Müller-Lüdensch", fonts.bold, 20)  # the whole name never fits at 20
    r = fit_text(
        text,
        width_pt=width,
        height_pt=200,
        regular=fonts.regular,
        bold=fonts.bold,
        max_size=20,
        language="de",
    )
    assert r.fits
    assert not r.split_words
    lines = _texts(r)
    assert lines[0] == "Müller-", lines
    assert lines[1].startswith("Lüdenscheidt"), lines
    assert all(w in {"Müller-", "Lüdenscheidt", "Familienspiel"} for w in lines)


def test_shrinks_before_hyphenating_and_hyphenates_before_cutting(fonts) -> None:  # type: ignore[no-untyped-def]
    from reportlab.pdfbase.pdfmetrics import stringWidth

    word = "Familienspiel"
    # fits whole at 14 pt: shrink rather than split
    width = stringWidth(word, fonts.bold, 14) + 0.5
    r = fit_text(
        f"**{word}**",
        width_pt=width,
        height_pt=100,
        regular=fonts.regular,
        bold=fonts.bold,
        max_size=24,
        min_size=8,
        language="de",
    )
    assert r.fits
    assert _texts(r) == [word]
    assert r.size <= 14
    assert not r.hyphenated
    # does not fit whole even at the minimum size: hyphenated by the German rules
    narrow = stringWidth("Familien-", fonts.bold, 8) + 0.5
    r = fit_text(
        f"**{word}**",
        width_pt=narrow,
        height_pt=100,
        regular=fonts.regular,
        bold=fonts.bold,
        max_size=24,
        min_size=8,
        language="de",
    )
    assert r.fits
    assert r.hyphenated
    assert not r.split_words
    assert _texts(r)[0].endswith("-")
    assert "".join(_texts(r)).replace("-", "") == word
    # no dictionary and no room: cut, and the result says which word (never silently)
    r = fit_text(
        f"**{word}**",
        width_pt=narrow / 2,
        height_pt=100,
        regular=fonts.regular,
        bold=fonts.bold,
        max_size=24,
        min_size=8,
    )
    assert r.split_words == (word,)
