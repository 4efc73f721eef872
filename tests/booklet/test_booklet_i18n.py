"""Every interface string of the booklet is in both catalogs, translated."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest
from babel.messages.extract import extract
from babel.messages.pofile import read_po

from deckgen.booklet.i18n import LANGUAGES, po_path, translations
from deckgen.errors import InputError
from deckgen.resources import PROJECT_ROOT, templates_dir

KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2)}


def _used_messages() -> set[str | tuple[str, ...]]:
    """Messages used in the booklet's Python modules and templates (Babel extraction)."""
    found: set[str | tuple[str, ...]] = set()
    sources: list[tuple[Path, str]] = [
        (p, "python") for p in sorted((PROJECT_ROOT / "deckgen" / "booklet").glob("*.py"))
    ]
    sources += [
        (p, "jinja2.ext:babel_extract") for p in sorted((templates_dir() / "booklet").glob("*.j2"))
    ]
    for path, method in sources:
        with path.open("rb") as fh:
            for _, message, _, _ in extract(
                method, fh, keywords=KEYWORDS, options={"extensions": "jinja2.ext.i18n"}
            ):
                found.add(message)
    return found


def test_extraction_finds_the_strings() -> None:
    used = _used_messages()
    assert "Contents" in used
    assert "Page %(page)s of %(pages)s" in used
    assert len(used) > 30


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_has_every_string_translated(lang: str) -> None:
    with po_path(lang).open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    missing = []
    for message in _used_messages():
        key = message[0] if isinstance(message, tuple) else message
        entry = catalog.get(key)
        if entry is None or not entry.string or entry.fuzzy:
            missing.append(key)
        elif isinstance(message, tuple):
            assert isinstance(entry.string, tuple), key
            assert all(entry.string), key
    assert not missing, f"{lang} lacks: {missing}"


def test_catalogs_hold_the_same_messages() -> None:
    ids = []
    for lang in LANGUAGES:
        with po_path(lang).open("rb") as fh:
            ids.append({m.id if isinstance(m.id, str) else m.id[0] for m in read_po(fh) if m.id})
    assert ids[0] == ids[1]


def test_german_differs_and_placeholders_survive() -> None:
    de, en = translations("de"), translations("en")
    assert de.gettext("Contents") == "Inhalt"
    assert en.gettext("Contents") == "Contents"
    assert de.gettext("Page %(page)s of %(pages)s") % {"page": 3, "pages": 12} == "Seite 3 von 12"
    with po_path("de").open("rb") as fh:
        for m in read_po(fh):
            if not m.id:
                continue
            source = m.id if isinstance(m.id, str) else m.id[0]
            for text in m.string if isinstance(m.string, tuple) else (m.string,):
                for name in ("%(n)d", "%(page)s", "%(pages)s", "%(count)d", "%(value)s"):
                    assert (name in source) == (name in cast(str, text)), (source, text)


def test_unknown_language() -> None:
    with pytest.raises(InputError, match="'fr'"):
        translations("fr")
