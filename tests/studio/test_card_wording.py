"""Every word deckgen prints on a card exists in German and English (deck/wording.py),
and ``deck new --lang de`` makes a deck whose cover and imprint speak German."""

from __future__ import annotations

import doctest
import io
import string
from pathlib import Path

from pypdf import PdfReader
from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.deck import wording
from deckgen.deck.render import render_cards
from deckgen.deck.spec import load_deck


def test_every_word_exists_in_both_languages_with_the_same_fields() -> None:
    for word_id, texts in wording.WORDS.items():
        assert set(texts) == set(wording.CARD_LANGUAGES), word_id
        fields = {
            lang: {f for _, f, _, _ in string.Formatter().parse(text) if f}
            for lang, text in texts.items()
        }
        assert fields["de"] == fields["en"], f"{word_id}: {fields}"
        assert texts["de"] != texts["en"], f"{word_id} is not translated"


def test_doctests() -> None:
    result = doctest.testmod(wording)
    assert result.attempted > 0
    assert result.failed == 0


def _card_text(deck_file: Path, card: str) -> str:
    data = render_cards(load_deck(deck_file), [card], fmt="pdf")
    return PdfReader(io.BytesIO(data)).pages[0].extract_text()


def test_deck_new_lang_de_prints_german_words(tmp_path: Path) -> None:
    deck_file = tmp_path / "familie.toml"
    result = CliRunner().invoke(
        app, ["deck", "new", str(deck_file), "--set", "double-7", "--lang", "de", "--quiet"]
    )
    assert result.exit_code == 0, result.output
    text = deck_file.read_text(encoding="utf-8")
    assert 'language = "de"' in text
    cover = _card_text(deck_file, "cover")
    assert "Doppel-7 · 36 Steine" in cover, cover
    assert "tiles" not in cover
    imprint = _card_text(deck_file, "imprint")
    assert "Karten insgesamt" in imprint, imprint
    assert "Gemacht von" in imprint, imprint
    assert "Made by" not in imprint


def test_deck_new_refuses_a_language_it_cannot_print(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["deck", "new", str(tmp_path / "x.toml"), "--lang", "fr"])
    assert result.exit_code == 2
    assert not (tmp_path / "x.toml").exists()
