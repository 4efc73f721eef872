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
import re
from dataclasses import dataclass
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


# -- the studio's own messages ------------------------------------------------------------
# What the server says to the customer (errors, checks, the sample checklist, printer
# names) lives here as message ids with a German and an English text, so each message is
# made once, as data, and said in the page's language when it is sent.

FIELD_LABELS: dict[str, dict[Language, str]] = {
    "name": {"en": "Name of the deck", "de": "Name des Spiels"},
    "set": {"en": "Domino set", "de": "Domino-Satz"},
    "language": {"en": "Words on the cards", "de": "Sprache auf den Karten"},
    "preset": {"en": "Printer", "de": "Druckerei"},
    "profile": {"en": "Printer", "de": "Druckerei"},
    "card": {"en": "Card", "de": "Karte"},
    "card.size": {"en": "Card size", "de": "Kartengröße"},
    "card.background_picture": {"en": "Card background", "de": "Kartenhintergrund"},
    "card.orientation": {"en": "Card orientation", "de": "Ausrichtung der Karte"},
    "card.background": {"en": "Card colour", "de": "Kartenfarbe"},
    "card.corner_index": {"en": "Numbers in the corners", "de": "Zahlen in den Ecken"},
    "faces.style": {"en": "How a half shows its number", "de": "Wie eine Hälfte ihre Zahl zeigt"},
    "faces.pip_colours": {"en": "Colours of the pips", "de": "Farben der Augen"},
    "faces.fit": {"en": "How pictures fill their box", "de": "Wie Bilder ihr Feld füllen"},
    "faces.tile_colour": {"en": "Colour of the tiles", "de": "Farbe der Steine"},
    "faces.pictures": {"en": "Pictures for the numbers", "de": "Bilder für die Zahlen"},
    "back.background": {"en": "Colour of the back", "de": "Farbe der Rückseite"},
    "back.pattern": {"en": "Pattern of the back", "de": "Muster der Rückseite"},
    "back.pattern_colour": {"en": "Colour of the pattern", "de": "Farbe des Musters"},
    "back.logo_width": {"en": "Size of the logo", "de": "Größe des Logos"},
    "back.logo": {"en": "Logo", "de": "Logo"},
    "back.picture": {"en": "Picture behind the logo", "de": "Bild hinter dem Logo"},
    "cover.title": {"en": "Title", "de": "Titel"},
    "cover.subtitle": {"en": "Subtitle", "de": "Untertitel"},
    "cover.background": {"en": "Colour of the cover", "de": "Farbe der Titelkarte"},
    "cover.text_colour": {"en": "Colour of the cover text", "de": "Schriftfarbe der Titelkarte"},
    "cover.picture": {"en": "Cover picture", "de": "Titelbild"},
    "imprint.text": {"en": "Who made it", "de": "Wer hat es gemacht"},
    "imprint.rules": {
        "en": "Short rules on the imprint card",
        "de": "Kurzregeln auf der Impressumskarte",
    },
    "imprint.background": {"en": "Colour of the imprint card", "de": "Farbe der Impressumskarte"},
    "imprint.text_colour": {
        "en": "Colour of the imprint text",
        "de": "Schriftfarbe der Impressumskarte",
    },
    "imprint.picture": {"en": "Imprint picture", "de": "Bild im Impressum"},
}
"""Each field path of the deck file, named as the page names the field or slot."""

_NUMBER_SLOT = {"en": "Number {n}", "de": "Zahl {n}"}
_SOME_FIELD = {"en": "This setting", "de": "Diese Einstellung"}

MESSAGES: dict[str, dict[Language, str]] = {
    # a value the deck code refuses (pydantic and the deck's validators), by kind
    "too_long": {
        "en": "{field}: at most {max} characters, please.",
        "de": "{field}: höchstens {max} Zeichen, bitte.",
    },
    "empty": {
        "en": "{field} must not be empty.",
        "de": "{field} darf nicht leer sein.",
    },
    "not_a_colour": {
        "en": "{field}: that is not a colour. Choose one with the colour picker.",
        "de": "{field}: Das ist keine Farbe. Wähle eine mit der Farbauswahl.",
    },
    "not_a_set": {
        "en": "{field}: choose one of the offered domino sets.",
        "de": "{field}: Wähle einen der angebotenen Domino-Sätze.",
    },
    "not_a_size": {
        "en": "{field}: choose one of the offered card sizes.",
        "de": "{field}: Wähle eine der angebotenen Kartengrößen.",
    },
    "choose_one": {
        "en": "{field}: choose one of the offered values.",
        "de": "{field}: Wähle einen der angebotenen Werte.",
    },
    "too_small_value": {
        "en": "{field}: at least {min}, please.",
        "de": "{field}: mindestens {min}, bitte.",
    },
    "too_large_value": {
        "en": "{field}: at most {max}, please.",
        "de": "{field}: höchstens {max}, bitte.",
    },
    "not_a_number": {
        "en": "{field}: a number, please.",
        "de": "{field}: bitte eine Zahl.",
    },
    "invalid": {
        "en": "{field}: this value does not work here; choose another one.",
        "de": "{field}: Dieser Wert geht hier nicht; wähle einen anderen.",
    },
    "unknown_field": {
        "en": "The page asked to change something that cannot be changed here. Reload it.",
        "de": "Die Seite wollte etwas ändern, das hier nicht geht. Lade sie neu.",
    },
    "unknown_printer": {
        "en": "This printer is not on the list. Choose one of the offered printers.",
        "de": "Diese Druckerei steht nicht auf der Liste. Wähle eine der angebotenen.",
    },
    "unknown_slot": {
        "en": "The page asked for a picture place this deck does not have. Reload it.",
        "de": "Die Seite fragte nach einem Bildplatz, den dieses Spiel nicht hat. Lade sie neu.",
    },
    "bad_request": {
        "en": "The page sent something the studio did not understand. Reload it.",
        "de": "Die Seite hat etwas geschickt, das das Studio nicht versteht. Lade sie neu.",
    },
    "nothing_to_crop": {
        "en": "{slot}: there is no picture to crop yet. Drop one first.",
        "de": "{slot}: Hier ist noch kein Bild zum Zuschneiden. Leg zuerst eins ab.",
    },
    # pictures the customer uploads
    "upload_not_picture": {
        "en": "{slot}: '{file}' is not a picture the studio can read{detail}. "
        "Use a JPEG, PNG, WebP or TIFF file.",
        "de": "{slot}: „{file}“ ist kein Bild, das das Studio lesen kann{detail}. "
        "Nimm eine JPEG-, PNG-, WebP- oder TIFF-Datei.",
    },
    "upload_format": {
        "en": " (it is a {format} file)",
        "de": " (es ist eine {format}-Datei)",
    },
    "upload_damaged": {
        "en": "{slot}: the picture '{file}' is damaged or cut short. "
        "Save it again or choose another one.",
        "de": "{slot}: Das Bild „{file}“ ist beschädigt oder unvollständig. "
        "Speichere es neu oder wähle ein anderes.",
    },
    "upload_too_many_pixels": {
        "en": "{slot}: '{file}' has more than {megapixels} megapixels. Use a smaller "
        "picture; a card needs only a few megapixels.",
        "de": "{slot}: „{file}“ hat mehr als {megapixels} Megapixel. Nimm ein "
        "kleineres Bild; eine Karte braucht nur wenige Megapixel.",
    },
    "upload_too_many_passes": {
        "en": "{slot}: '{file}' is a JPEG stored in {scans} or more passes, which takes "
        "minutes to open. Save it again as an ordinary JPEG or as a PNG.",
        "de": "{slot}: „{file}“ ist ein JPEG, das in {scans} oder mehr Durchgängen "
        "gespeichert ist; es zu öffnen dauert Minuten. Speichere es als gewöhnliches "
        "JPEG oder als PNG neu.",
    },
    "upload_too_large": {
        "en": "{slot}: '{file}' is larger than {mb} MB. Use a smaller picture; a card "
        "needs only a few megapixels.",
        "de": "{slot}: „{file}“ ist größer als {mb} MB. Nimm ein kleineres Bild; "
        "eine Karte braucht nur wenige Megapixel.",
    },
    "upload_unusable": {
        "en": "{slot}: the studio cannot use '{file}'. Choose another picture "
        "(JPEG, PNG, WebP or TIFF).",
        "de": "{slot}: Das Studio kann „{file}“ nicht verwenden. Wähle ein anderes "
        "Bild (JPEG, PNG, WebP oder TIFF).",
    },
    "picture_missing": {
        "en": "{slot}: the picture '{file}' is no longer in the deck's folder. Drop it again.",
        "de": "{slot}: Das Bild „{file}“ ist nicht mehr im Ordner des Spiels. "
        "Leg es noch einmal ab.",
    },
    "picture_outside": {
        "en": "{slot}: this picture is outside the deck's folder. Drop it again.",
        "de": "{slot}: Dieses Bild liegt außerhalb des Ordners des Spiels. Leg es noch einmal ab.",
    },
    "browser_stopped": {
        "en": "The browser stopped sending. Try again.",
        "de": "Der Browser hat aufgehört zu senden. Versuch es noch einmal.",
    },
    # the short rules on the imprint card
    "rules_do_not_fit": {
        "en": "The short rules of {game} do not fit on the imprint card, not even in "
        "their shortest form. Choose a larger card, write less under “Who made it”, "
        "or leave the rules off.",
        "de": "Die Kurzregeln von {game} passen nicht auf die Impressumskarte, nicht "
        "einmal in der kürzesten Form. Wähle eine größere Karte, schreib "
        "weniger unter „Wer hat es gemacht“ oder lass die Regeln weg.",
    },
    "rules_wrong_set": {
        "en": "The short rules on the imprint card are those of {game}, which is played "
        "with another domino set. Choose other rules for the imprint card (or none) first.",
        "de": "Die Kurzregeln auf der Impressumskarte sind die von {game}, das mit einem "
        "anderen Domino-Satz gespielt wird. Wähle zuerst andere Regeln für die "
        "Impressumskarte (oder keine).",
    },
    "rules_unknown": {
        "en": "The studio does not know these rules. Choose a game from the list.",
        "de": "Diese Regeln kennt das Studio nicht. Wähle ein Spiel aus der Liste.",
    },
    # the print files
    "print_low_resolution": {
        "en": "{slot}: {file} prints at {ppi} ppi, below the 300 ppi a sharp print "
        "needs. Use a picture of at least {w} × {h} pixels.",
        "de": "{slot}: {file} wird mit {ppi} ppi gedruckt, unter den 300 ppi für einen "
        "scharfen Druck. Nimm ein Bild mit mindestens {w} × {h} Pixeln.",
    },
    "your_picture": {"en": "your picture '{file}'", "de": "dein Bild „{file}“"},
    "the_sample_picture": {"en": "the sample picture", "de": "das Beispielbild"},
    "print_rule_card_size": {
        "en": "The card size is not the one {printer} prints.",
        "de": "Die Kartengröße ist nicht die, die {printer} druckt.",
    },
    "print_rule_bleed": {
        "en": "The cards lack the bleed {printer} asks for (colour beyond the cut line).",
        "de": "Den Karten fehlt der Beschnitt, den {printer} verlangt (Farbe über die "
        "Schnittlinie hinaus).",
    },
    "print_rule_safe_margin": {
        "en": "Something important comes too close to the cut line for {printer}.",
        "de": "Etwas Wichtiges kommt {printer} zu nah an die Schnittlinie.",
    },
    "print_rule_colours": {
        "en": "{printer} prints only in its four process inks; some colours are not.",
        "de": "{printer} druckt nur mit den vier Druckfarben; manche Farben sind es nicht.",
    },
    "print_rule_ink": {
        "en": "Some dark areas need more ink than {printer} puts on paper; choose lighter "
        "colours there.",
        "de": "Manche dunklen Flächen brauchen mehr Farbe, als {printer} aufträgt; wähle "
        "dort hellere Farben.",
    },
    "print_rule_text_size": {
        "en": "Some text is smaller than {printer} prints sharply; write less or choose "
        "a larger card.",
        "de": "Manche Schrift ist kleiner, als {printer} scharf druckt; schreib weniger "
        "oder wähle eine größere Karte.",
    },
    "print_rule_thin_lines": {
        "en": "Some lines are thinner than {printer} prints.",
        "de": "Manche Linien sind dünner, als {printer} druckt.",
    },
    "print_rule_black_ink": {
        "en": "Some thin lines or small text in grey would be printed in several inks, "
        "which {printer} does not accept (they may fringe). Another pattern or colour "
        "on the back often avoids it.",
        "de": "Manche dünnen Linien oder kleine Schrift in Grau würden mit mehreren "
        "Druckfarben gedruckt, was {printer} nicht annimmt (sie können ausfransen). "
        "Ein anderes Muster oder eine andere Farbe auf der Rückseite hilft oft.",
    },
    "print_rule_fonts": {
        "en": "A font cannot be embedded in the files for {printer}.",
        "de": "Eine Schrift lässt sich für {printer} nicht in die Dateien einbetten.",
    },
    "print_rule_broken": {
        "en": "The deck does not meet every requirement of {printer} (colours, text "
        "size or picture sharpness on some cards).",
        "de": "Das Spiel erfüllt nicht alle Anforderungen von {printer} (Farben, "
        "Schriftgröße oder Bildschärfe auf manchen Karten).",
    },
    "print_failed": {
        "en": "The print files could not be made: {reason}",
        "de": "Die Druckdateien konnten nicht erstellt werden: {reason}",
    },
    "something_wrong": {
        "en": "Something went wrong. Try again; if it happens again, restart the studio.",
        "de": "Etwas ist schiefgegangen. Versuch es noch einmal; wenn es wieder "
        "passiert, starte das Studio neu.",
    },
    # what a change did not like, said by the deck code in words we cannot translate
    "deck_refused": {
        "en": "{field}: the deck cannot be made like this. Undo the last change.",
        "de": "{field}: So lässt sich das Spiel nicht machen. Nimm die letzte Änderung zurück.",
    },
    # the sample checklist before the download
    "sample_value_picture": {
        "en": "{slot}: still the sample picture",
        "de": "{slot}: noch das Beispielbild",
    },
    "sample_picture": {
        "en": "{slot}: still the sample picture",
        "de": "{slot}: noch das Beispielbild",
    },
    "sample_text": {
        "en": "{field}: still the sample text",
        "de": "{field}: noch der Beispieltext",
    },
    # what the deck code warns about while it draws a card (the preview's notes)
    "note_text_cut": {
        "en": "{what} does not fit and is cut short. Shorten it.",
        "de": "{what} passt nicht und wird abgeschnitten. Kürze den Text.",
    },
    "note_word_split": {
        "en": "{what} only fits with a word cut between two letters. Shorten it.",
        "de": "{what} passt nur, wenn ein Wort zwischen zwei Buchstaben getrennt wird. "
        "Kürze den Text.",
    },
    "note_low_resolution": {
        "en": "A picture prints at {ppi} ppi on this card, below the 300 ppi a sharp print needs.",
        "de": "Ein Bild wird auf dieser Karte mit {ppi} ppi gedruckt, unter den 300 ppi "
        "für einen scharfen Druck.",
    },
    "note_low_resolution_named": {
        "en": "{slot}: {file} prints at {ppi} ppi on this card, below the 300 ppi a sharp "
        "print needs.",
        "de": "{slot}: {file} wird auf dieser Karte mit {ppi} ppi gedruckt, unter den "
        "300 ppi für einen scharfen Druck.",
    },
    "note_other": {
        "en": "The studio has a remark about this card; look at it closely.",
        "de": "Das Studio hat einen Hinweis zu dieser Karte; sieh sie dir genau an.",
    },
    # words of the page itself that came with the sample checklist and the language
    "page_language_follows": {
        "en": "Follows the language of this page until you choose one.",
        "de": "Folgt der Sprache dieser Seite, bis du eine wählst.",
    },
    "page_samples_title": {
        "en": "Sample content is still in the deck",
        "de": "Im Spiel ist noch Beispielinhalt",
    },
    "page_samples_intro": {
        "en": "These would be printed as they are. Replace or remove each one; "
        "click an item to go to it.",
        "de": "Das würde so gedruckt. Ersetze oder entferne jeden Punkt; ein Klick führt dich hin.",
    },
    "page_samples_blocked": {
        "en": "A print shop does not get sample content: the print files are made once "
        "each item is replaced or removed.",
        "de": "Eine Druckerei bekommt keinen Beispielinhalt: Die Druckdateien entstehen, "
        "sobald jeder Punkt ersetzt oder entfernt ist.",
    },
    "samples_left": {
        "en": "Sample content is still in the deck; replace or remove it first: {items}",
        "de": "Im Spiel ist noch Beispielinhalt; ersetze oder entferne ihn zuerst: {items}",
    },
    "page_samples_back": {"en": "Back to the deck", "de": "Zurück zum Spiel"},
    "page_samples_anyway": {"en": "Print it anyway", "de": "Trotzdem drucken"},
    "page_no_games": {
        "en": "No game for this set yet",
        "de": "Noch kein Spiel für diesen Satz",
    },
    "page_badge_note": {
        "en": "The pips go in the corner farthest from what you chose.",
        "de": "Die Augen kommen in die Ecke, die am weitesten davon entfernt ist.",
    },
    "what_cover_title": {"en": "The title", "de": "Der Titel"},
    "what_cover_subtitle": {"en": "The subtitle", "de": "Der Untertitel"},
    "what_imprint_text": {
        "en": "The text of the imprint card",
        "de": "Der Text der Impressumskarte",
    },
}
"""Every message the studio's server says, in both languages (a test compares fields)."""


def field_label(key: str, lang: Language) -> str:
    """The name the page gives the field or picture slot at ``key`` (a deck file path)."""
    match = re.match(r"^faces\.pictures\[(\d+)\]", key)
    if match:
        return _NUMBER_SLOT[lang].format(n=int(match.group(1)) + 1)
    while key:
        if key in FIELD_LABELS:
            return FIELD_LABELS[key][lang]
        key = key.rpartition(".")[0]
    return _SOME_FIELD[lang]


@dataclass(frozen=True)
class Message:
    """A message id with its values; said in a language by :meth:`text`.

    ``field`` (a deck file path) fills ``{field}`` and ``{slot}`` with the name the page
    gives that field; a value that is itself a :class:`Message` is said too.

    >>> Message("empty", field="name").text("de")
    'Name des Spiels darf nicht leer sein.'
    >>> Message("nothing_to_crop", field="faces.pictures[2]").text("en")
    'Number 3: there is no picture to crop yet. Drop one first.'
    """

    id: str
    field: str = ""
    values: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, msg_id: str, field: str = "", **values: object) -> Message:
        return cls(msg_id, field, tuple(sorted(values.items())))

    def text(self, lang: Language) -> str:
        values = {k: _said(v, lang) for k, v in self.values}
        label = field_label(self.field, lang)
        values.setdefault("field", label)
        values.setdefault("slot", label)
        return MESSAGES[self.id][lang].format(**values)


def _said(value: object, lang: Language) -> object:
    """A value as said in ``lang``: a Message is said, a ``{"en": .., "de": ..}`` picked."""
    if isinstance(value, Message):
        return value.text(lang)
    if isinstance(value, dict) and lang in value:
        return value[lang]
    return value


def say(lang: Language, msg_id: str, field: str = "", **values: object) -> str:
    """The message ``msg_id`` in ``lang``."""
    return Message.of(msg_id, field, **values).text(lang)


def said(errors: dict[str, Message | str], lang: Language) -> dict[str, str]:
    """Each key's message in ``lang`` (plain strings pass as they are)."""
    return {k: (v.text(lang) if isinstance(v, Message) else v) for k, v in errors.items()}


_NOTE_SUBJECTS = (
    ("the cover subtitle", "what_cover_subtitle"),
    ("the cover title", "what_cover_title"),
    ("the imprint card's text", "what_imprint_text"),
)
_NOTE_DPI = re.compile(r"prints at (\d+) dpi")


_NOTE_PICTURE = re.compile(r"^(?P<file>[^(]+?) \(.*?key (?P<key>[A-Za-z_.\[\]0-9]+)\)")


def note_text(warning: str, lang: Language, names: dict[str, Message] | None = None) -> str:
    """A warning the deck code gave while drawing a card, in the customer's words.

    ``names`` gives, for a picture file's name, how to call it (the customer's own file
    name, or the sample picture).

    >>> note_text("the cover title does not fit on the cover card even at 7 pt", "de")
    'Der Titel passt nicht und wird abgeschnitten. Kürze den Text.'
    >>> oma = {"value-3-ab.jpg": Message.of("your_picture", file="Oma.jpg")}
    >>> warning = "value-3-ab.jpg (x.toml, key faces.pictures[2]) prints at 120 dpi"
    >>> note_text(warning, "en", oma)[:46]
    "Number 3: your picture 'Oma.jpg' prints at 120"
    """
    subject = next((m for text, m in _NOTE_SUBJECTS if warning.startswith(text)), None)
    if subject and "cut between two letters" in warning:
        return say(lang, "note_word_split", what=Message.of(subject))
    if subject and "does not fit" in warning:
        return say(lang, "note_text_cut", what=Message.of(subject))
    dpi = _NOTE_DPI.search(warning)
    picture = _NOTE_PICTURE.match(warning)
    if dpi and picture and (names or {}).get(picture.group("file")):
        file = (names or {})[picture.group("file")]
        return say(
            lang, "note_low_resolution_named", picture.group("key"), file=file, ppi=dpi.group(1)
        )
    if dpi:
        return say(lang, "note_low_resolution", ppi=dpi.group(1))
    return say(lang, "note_other")
