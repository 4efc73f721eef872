"""The precut booklet fonts cover every character the booklets print."""

from __future__ import annotations

from typing import cast

from babel.messages.pofile import read_po
from fontTools.ttLib import TTFont

from deckgen.booklet.fonts import CHARACTERS, FACES, fonts_dir
from deckgen.booklet.i18n import LANGUAGES, po_path
from deckgen.rulespec import list_rules


def _printed_characters() -> set[str]:
    chars: set[str] = set()
    for rules in list_rules():
        for lang in LANGUAGES:
            chars |= set(rules.name(lang)) | set(rules.summary(lang))
            for section in rules.sections(lang):
                for clause in section.clauses:
                    chars |= set(clause.text)
            for note in rules.notes(lang):
                chars |= set(note.decision) | set(note.reason)
    for lang in LANGUAGES:
        with po_path(lang).open("rb") as fh:
            for message in read_po(fh):
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                for text in strings:
                    chars |= set(cast(str, text))
    return {c for c in chars if not c.isspace() or c == " "}


def test_characters_cover_every_printed_text() -> None:
    missing = sorted(c for c in _printed_characters() if ord(c) not in CHARACTERS)
    assert not missing, f"add to deckgen.booklet.fonts.CHARACTERS and re-cut: {missing}"


def test_every_face_has_every_character() -> None:
    for face in FACES:
        cmap = TTFont(fonts_dir() / f"{face}.ttf").getBestCmap()
        lacking = [hex(c) for c in CHARACTERS if c not in cmap]
        assert not lacking, (face, lacking)
