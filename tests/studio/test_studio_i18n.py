"""The studio's two catalogs hold every string of the page, and the doctests hold."""

from __future__ import annotations

import doctest
import re

import pytest
from babel.messages.pofile import read_po

from deckgen.studio import i18n, tomltext
from deckgen.studio.app import PACKAGE

PYTHON_STRINGS = {"Cover", "Imprint", "Back"}


def page_strings() -> set[str]:
    text = (PACKAGE / "templates" / "page.html.j2").read_text(encoding="utf-8")
    return {m.group(2) for m in re.finditer(r"""_\((["'])(.+?)\1""", text)} | PYTHON_STRINGS


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_string_is_in_the_catalog(lang: i18n.Language) -> None:
    with i18n.po_path(lang).open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    translated = {m.id: m.string for m in catalog if m.id}
    missing = sorted(s for s in page_strings() if not translated.get(s))
    assert not missing, f"add to {i18n.po_path(lang)}: {missing}"
    if lang == "de":
        same = sorted(s for s in page_strings() if translated[s] == s and s not in {"Logo", "Zoom"})
        assert not same, f"untranslated in German: {same}"


@pytest.mark.parametrize("module", [i18n, tomltext])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0
