"""Every word deckgen itself prints on a card, in German and English: one catalog.

The deck file's ``language`` (``en`` or ``de``) chooses. The customer's own words
(name, title, subtitle, imprint text) are printed as they are; what deckgen adds (the
set line on the cover, the imprint card's footer and its "Short rules" heading) and
the texts a new deck starts with (its sample name, subtitle and imprint) come from here.

>>> set_name("de", 7)
'Doppel-7'
>>> cover_set_line("de", 7, 36)
'Domino · Doppel-7 · 36 Steine'
>>> imprint_footer("en", 6, 28)
'double-6 · 28 tiles · 30 cards in all'
>>> imprint_footer("en", 6, 28, on_cover_back=True)
'double-6 · 28 tiles · 29 cards in all'
>>> word("de", "short_rules")
'Kurzregeln'
"""

from __future__ import annotations

from typing import Literal

CardLanguage = Literal["en", "de"]
CARD_LANGUAGES: tuple[CardLanguage, ...] = ("en", "de")

WORDS: dict[str, dict[str, str]] = {
    "set_name": {"en": "double-{n}", "de": "Doppel-{n}"},
    "cover_set_line": {
        "en": "Domino · {set} · {tiles} tiles",
        "de": "Domino · {set} · {tiles} Steine",
    },
    "imprint_footer": {
        "en": "{set} · {tiles} tiles · {cards} cards in all",
        "de": "{set} · {tiles} Steine · {cards} Karten insgesamt",
    },
    "short_rules": {"en": "Short rules", "de": "Kurzregeln"},
    # what a new deck starts with (sample texts the customer replaces)
    "sample_name": {"en": "Our Domino", "de": "Unser Domino"},
    "sample_subtitle": {"en": "Our family domino", "de": "Das Domino unserer Familie"},
    "sample_imprint": {
        "en": "**Made by** the Example family, Example Street 1, 12345 Example Town\n\n"
        "Printed 2026. Blank lines start paragraphs; **double stars** make bold.",
        "de": "**Gemacht von** Familie Muster, Musterweg 1, 12345 Musterstadt\n\n"
        "Gedruckt 2026. Leerzeilen beginnen Absätze; **doppelte Sterne** machen fett.",
    },
}
"""Each word by id, in every card language (a test checks that none is missing)."""


def card_language(lang: str | None) -> CardLanguage:
    """``lang`` if deckgen prints in it, else English."""
    return "de" if lang == "de" else "en"


def word(lang: str, word_id: str) -> str:
    """The word ``word_id`` in ``lang`` (English for a language deckgen does not print)."""
    return WORDS[word_id][card_language(lang)]


def set_name(lang: str, max_pip: int) -> str:
    return word(lang, "set_name").format(n=max_pip)


def cover_set_line(lang: str, max_pip: int, tiles: int) -> str:
    """The line at the foot of the cover card."""
    return word(lang, "cover_set_line").format(set=set_name(lang, max_pip), tiles=tiles)


def imprint_footer(lang: str, max_pip: int, tiles: int, *, on_cover_back: bool = False) -> str:
    """The line at the foot of the imprint card: the cards of the product as printed,
    the tiles plus the cover and the imprint, or plus the cover alone when the printer
    prints the imprint on the cover's back (``on_cover_back``)."""
    cards = tiles + (1 if on_cover_back else 2)
    return word(lang, "imprint_footer").format(
        set=set_name(lang, max_pip), tiles=tiles, cards=cards
    )
