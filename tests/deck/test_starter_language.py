"""``deckgen deck new --lang de`` writes its comments in German (a German customer got
an English file), with the same keys and values as the English starter."""

from __future__ import annotations

import tomllib

from deckgen.deck.starter import STARTER_COMMENTS, StarterCard, starter_toml


def _commented(text: str) -> set[str]:
    return {line for line in text.splitlines() if line.lstrip().startswith("#") or " # " in line}


def test_the_german_starter_explains_itself_in_german() -> None:
    de = starter_toml("Familie", "double-6", 6, StarterCard(), lang="de")
    en = starter_toml("Familie", "double-6", 6, StarterCard(), lang="en")
    assert "Pfade gelten relativ zu dieser Datei" in de
    assert "Paths are relative" not in de
    # the lines with a comment that both files share hold no words to translate
    assert _commented(de) & _commented(en) == {"# [fonts]", '# bold = "fonts/MyFont-Bold.ttf"'}


def test_both_starters_hold_the_same_keys_and_the_same_settings() -> None:
    de = tomllib.loads(starter_toml("Familie", "double-9", 9, StarterCard(), lang="de"))
    en = tomllib.loads(starter_toml("Familie", "double-9", 9, StarterCard(), lang="en"))
    for data in (de, en):
        data.pop("language")
        data["cover"].pop("subtitle")
        data["imprint"].pop("text")
    assert de == en


def test_every_comment_is_written_in_both_languages() -> None:
    assert set(STARTER_COMMENTS["de"]) == set(STARTER_COMMENTS["en"])


def test_the_starter_names_the_picture_for_zero() -> None:
    for lang, words in (("en", "value 0 stays"), ("de", "Wert 0 bleibt leer")):
        text = starter_toml("F", "double-6", 6, StarterCard(), lang=lang)
        assert words in text
        assert '# zero_picture = "' in text
