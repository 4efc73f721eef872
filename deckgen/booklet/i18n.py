"""Interface strings of the booklet in German and English, through gettext catalogs.

The catalogs are Babel ``.po`` files in ``deckgen/locale/<lang>/LC_MESSAGES/booklet.po``
(committed, edited by translators); they are compiled in memory when first used, so no
build step is needed. Rule text does not come from here: it comes from the rules file.

>>> t = translations("de")
>>> t.gettext("Contents")
'Inhalt'
>>> t.ngettext("%(n)d card", "%(n)d cards", 36) % {"n": 36}
'36 Karten'
"""

from __future__ import annotations

import functools
import gettext
import io
from pathlib import Path

from deckgen.errors import InputError

LANGUAGES = ("de", "en")
DOMAIN = "booklet"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def decimal(value: float, lang: str, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals: ``2.5`` in English, ``2,5`` in German."""
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if lang == "de" else text


def check_language(lang: str, *, where: str = "option --lang") -> str:
    """``lang`` if the booklet speaks it, else an InputError listing the languages."""
    if lang not in LANGUAGES:
        raise InputError(
            f"there is no booklet language '{lang}'",
            where=where,
            fix=f"use one of {', '.join(LANGUAGES)}",
        )
    return lang


def po_path(lang: str) -> Path:
    """The ``.po`` source catalog of ``lang``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def translations(lang: str) -> gettext.GNUTranslations:
    """The compiled catalog of ``lang`` (compiled from its ``.po`` once per process)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    check_language(lang)
    with po_path(lang).open("rb") as fh:
        catalog = read_po(fh, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return gettext.GNUTranslations(buf)
