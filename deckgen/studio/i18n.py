"""The studio speaks German or English, chosen from the browser's ``Accept-Language``.

Strings come from the gettext catalog ``studio`` next to the booklet's
(``deckgen/locale/<lang>/LC_MESSAGES/studio.po``), compiled in memory on first use.

>>> pick_language("de-DE,de;q=0.9,en;q=0.8")
'de'
>>> pick_language("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7")
'en'
>>> pick_language(None)
'en'
>>> translations("de").gettext("Download print files")
'Druckdateien herunterladen'
"""

from __future__ import annotations

import functools
import gettext
import io
from pathlib import Path
from typing import Literal

Language = Literal["de", "en"]
LANGUAGES: tuple[Language, ...] = ("en", "de")
DOMAIN = "studio"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def pick_language(header: str | None) -> Language:
    """The best of our languages for an ``Accept-Language`` header (English if none)."""
    best: tuple[float, int, Language] | None = None
    for position, part in enumerate((header or "").split(",")):
        fields = part.strip().split(";")
        tag = fields[0].strip().lower().split("-")[0]
        quality = 1.0
        for extra in fields[1:]:
            name, _, value = extra.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag in ("de", "en") and quality > 0:
            lang: Language = "de" if tag == "de" else "en"
            candidate = (-quality, position, lang)
            if best is None or candidate < best:
                best = candidate
    return best[2] if best else "en"


def po_path(lang: Language) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def translations(lang: Language) -> gettext.GNUTranslations:
    """The compiled ``studio`` catalog of ``lang``."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as fh:
        catalog = read_po(fh, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return gettext.GNUTranslations(buf)
