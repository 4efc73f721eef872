"""The commented starter deck file that ``deckgen deck new`` writes.

Takes a deck name, a set and optional card settings (from a vendor preset:
:func:`deckgen.prepress.presets.card_from_preset`); gives TOML
text that builds as it is: its pictures point at deckgen's own demo art (``demo:...``).

Everything the starter puts in as a sample is recognisable as such in the deck file,
so that a build never prints it silently: a picture named with ``demo:`` (deckgen's demo
art) and the sample texts of :data:`SAMPLE_IMPRINT_TEXT` and :data:`SAMPLE_SUBTITLE` (in
every language the starter writes). :func:`sample_items` lists what of it a loaded deck
still holds, named as the customer sees it (the slot, in German and English), for the
build's refusal against a vendor preset and for the studio's checklist.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from deckgen.deck.wording import WORDS

if TYPE_CHECKING:
    from deckgen.deck.spec import LoadedDeck, PictureRef

SAMPLE_IMPRINT_TEXT = WORDS["sample_imprint"]
"""The starter's sample imprint text per language (the studio starts from it too; the
words live in :mod:`deckgen.deck.wording`)."""
SAMPLE_SUBTITLE = WORDS["sample_subtitle"]
"""The starter's sample cover subtitle per language."""


@dataclass(frozen=True)
class SampleItem:
    """One piece of sample content still in a deck, named as the customer sees it."""

    key: str
    """Where it is in the deck file (for scripts; never shown to a customer)."""
    slot: dict[str, str]
    """The slot, per language (``en``, ``de``): "the picture for 3" ..."""
    how: dict[str, str]
    """How to replace or remove it, per language."""

    def name(self, language: str = "en") -> str:
        return self.slot.get(language, self.slot["en"])


def _same_text(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


def _picture_item(key: str, en: str, de: str) -> SampleItem:
    return SampleItem(
        key,
        {"en": en, "de": de},
        {
            "en": f"put your own picture in {en}, or take it out",
            "de": f"setzen Sie ein eigenes Bild in {de} ein oder nehmen Sie es heraus",
        },
    )


def sample_items(deck: LoadedDeck) -> list[SampleItem]:
    """The starter's sample content still in ``deck``: pictures of deckgen's demo art
    (named with ``demo:``) and the sample texts, in card order (cover, tiles, back,
    imprint). Empty for a deck whose every picture and text is the customer's own."""
    from deckgen.deck.spec import DEMO_PREFIX

    spec = deck.spec
    items: list[SampleItem] = []

    def demo(ref: PictureRef | None) -> bool:
        return ref is not None and ref.file.startswith(DEMO_PREFIX)

    if demo(spec.cover.picture):
        items.append(_picture_item("cover.picture", "the cover picture", "das Titelbild"))
    subtitle = spec.cover.subtitle or ""
    if any(_same_text(subtitle, t) for t in SAMPLE_SUBTITLE.values()):
        items.append(
            SampleItem(
                "cover.subtitle",
                {"en": "the cover's subtitle", "de": "der Untertitel auf dem Titelblatt"},
                {
                    "en": "write your own subtitle, or leave it empty",
                    "de": "schreiben Sie einen eigenen Untertitel oder lassen Sie ihn leer",
                },
            )
        )
    if demo(spec.card.background_picture):
        items.append(
            _picture_item("card.background_picture", "the card background", "den Kartenhintergrund")
        )
    if deck.uses_pictures:
        for value, ref in enumerate(spec.faces.pictures, start=1):
            if demo(ref):
                items.append(
                    _picture_item(
                        f"faces.pictures[{value - 1}]",
                        f"the picture for {value}",
                        f"das Bild für die {value}",
                    )
                )
    if demo(spec.back.picture):
        items.append(_picture_item("back.picture", "the back picture", "das Rückseitenbild"))
    if demo(spec.back.logo):
        items.append(
            _picture_item("back.logo", "the logo on the back", "das Logo auf der Rückseite")
        )
    if demo(spec.imprint.picture):
        items.append(
            _picture_item(
                "imprint.picture", "the imprint card's picture", "das Bild der Impressumskarte"
            )
        )
    if any(_same_text(spec.imprint.text, t) for t in SAMPLE_IMPRINT_TEXT.values()):
        items.append(
            SampleItem(
                "imprint.text",
                {"en": "the text on the imprint card", "de": "der Text der Impressumskarte"},
                {
                    "en": "write who made the deck there, or leave it empty",
                    "de": "schreiben Sie dort, wer das Spiel gemacht hat, oder lassen Sie ihn leer",
                },
            )
        )
    return items


def _joined(names: list[str], and_word: str) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {and_word} " + names[-1]


def _slots(items: list[SampleItem], language: str) -> list[str]:
    """Slot names, the value pictures grouped ("the pictures for 1, 2 and 3")."""
    values = [
        i.key.removeprefix("faces.pictures[").rstrip("]")
        for i in items
        if i.key.startswith("faces.pictures[")
    ]
    numbers = [str(int(v) + 1) for v in values]
    out: list[str] = []
    for item in items:
        if item.key.startswith("faces.pictures["):
            if numbers:
                if len(numbers) == 1:
                    out.append(item.name(language))
                elif language == "de":
                    out.append(f"die Bilder für {_joined(numbers, 'und')}")
                else:
                    out.append(f"the pictures for {_joined(numbers, 'and')}")
                numbers = []
            continue
        out.append(item.name(language))
    return out


SAMPLE_WORDS = {
    "en": (
        "the deck still holds sample content of the starter deck, which would be printed "
        "as it is: {slots}",
        "replace each with your own (your own photo, your own words) or take it out",
        "and",
    ),
    "de": (
        "Das Spiel enthält noch Beispielinhalt der Vorlage, der so gedruckt würde: {slots}",
        "ersetzen Sie jedes davon durch Ihr Eigenes (ein eigenes Foto, eigene Worte) oder "
        "nehmen Sie es heraus",
        "und",
    ),
}


def samples_message(items: list[SampleItem], language: str = "en") -> tuple[str, str]:
    """What is left (each sample item named as the customer sees it) and what to do."""
    what, fix, and_word = SAMPLE_WORDS.get(language, SAMPLE_WORDS["en"])
    return what.format(slots=_joined(_slots(items, language), and_word)), fix


def samples_paragraph(items: list[SampleItem], language: str = "en") -> str:
    """One paragraph naming each sample item as the customer sees it, and what to do."""
    what, fix = samples_message(items, language)
    return f"{what}. {fix[0].upper()}{fix[1:]}."


@dataclass(frozen=True)
class StarterCard:
    """Card settings for the starter file."""

    size: str = "meinspiel"
    bleed_mm: float = 3.0
    safe_mm: float = 4.0
    corner_radius_mm: float = 3.0
    preset: str | None = None


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def starter_toml(
    name: str,
    set_name: str,
    max_pip: int,
    card: StarterCard,
    *,
    lang: str = "en",
    samples: bool = True,
) -> str:
    """The starter deck file's text; ``lang`` (en or de) is the language of the cards;
    ``samples=False`` leaves out the sample cover picture, logo, subtitle and imprint
    text (the slots stay, commented or empty)."""
    from deckgen.deck.wording import card_language

    lang = card_language(lang)
    c = STARTER_COMMENTS[lang]
    imprint = SAMPLE_IMPRINT_TEXT[lang].replace("\\", "\\\\").replace('"', '\\"')
    pictures = ",\n".join(f'  "demo:value-{v:02d}.png"' for v in range(1, max_pip + 1))
    picture_note = (
        "" if max_pip <= 12 else "# " + c["more_pictures"].format(set=set_name, n=max_pip) + "\n"
    )
    preset_line = f"preset = {_q(card.preset)}\n" if card.preset else ""
    logo_line = (
        f'logo = "demo:logo.png"         # {c["logo"]}'
        if samples
        else f'# logo = "{c["logo_file"]}"       # {c["logo"]}'
    )
    cover_line = 'picture = "demo:cover.jpg"' if samples else f'# picture = "{c["cover_file"]}"'

    if max_pip > 12:
        pictures = ",\n".join(
            f'  "demo:value-{(v - 1) % 12 + 1:02d}.png"' for v in range(1, max_pip + 1)
        )
    return f"""\
# {c["head1"]}
# {c["head2"]}
# {c["head3"]}

name = {_q(name)}
set = {_q(set_name)}              # {c["set"]}
language = "{lang}"                # {c["language"]}
# back_offset_mm = [0.0, 0.0]  # {c["back_offset"]}
{preset_line}
[card]
size = {_q(card.size)}         # {c["size"]}
bleed_mm = {card.bleed_mm:g}                 # {c["bleed"]}
safe_mm = {card.safe_mm:g}                  # {c["safe"]}
corner_radius_mm = {card.corner_radius_mm:g}
orientation = "upright"        # {c["orientation"]}
background = "#efe7d8"
# background_picture = "{c["paper_file"]}"
corner_index = true            # {c["corner_index"]}

[faces]
style = "pips"                 # {c["style"]}
tile_colour = "#fffdf7"
tile_edge = "#2b2b2b"
pip_colours = "palette"        # {c["pip_colours"]}
ink = "#222222"
# colours = ["#0072b2", ...]   # {c["colours"]}
fit = "cover"                  # {c["fit"]}
half_rotation = false          # {c["half_rotation"]}
# {c["pictures1"]}
# {c["pictures2"]}
# {c["pictures3"]}
# {c["pictures4"]}
# zero_picture = "{c["zero_file"]}"
{picture_note}pictures = [
{pictures},
]

[back]
background = "#1d3557"
pattern = "lattice"            # {c["pattern"]}
{logo_line}
logo_width = 0.6               # {c["logo_width"]}

[cover]
title = {_q(name)}
subtitle = {_q(SAMPLE_SUBTITLE[lang]) if samples else '""'}
{cover_line}
background = "#1d3557"

[imprint]
text = \"\"\"
{imprint if samples else ""}
\"\"\"

# [fonts]
# regular = "fonts/MyFont-Regular.ttf"   # {c["font"]}
# bold = "fonts/MyFont-Bold.ttf"
"""


STARTER_COMMENTS: dict[str, dict[str, str]] = {
    "en": {
        "head1": "deckgen deck file: `deckgen deck build {this file}` makes the print files.",
        "head2": 'Paths are relative to this file; "demo:..." names deckgen\'s own demo art.',
        "head3": 'Colours are "#RRGGBB". Every key is optional except name.',
        "set": "double-6 ... double-12 (up to double-18)",
        "language": "en or de: the few words deckgen prints itself",
        "back_offset": "duplex back shift (x, y) from `deckgen deck calibrate`",
        "size": 'poker, bridge, meinspiel, tarot, mini, or "63 x 88" (mm)',
        "bleed": "printed beyond the cut on every side",
        "safe": "keep text this far inside the cut",
        "orientation": 'the tile stands upright, or lies "across"',
        "paper_file": "my-paper.jpg",
        "corner_index": 'small "a|b" in two corners, for holding cards in hand',
        "style": "pips, numerals, pictures, or pictures+pips",
        "pip_colours": "palette (colour-blind safe) or mono (all in `ink`)",
        "colours": "your own colour for each value 1 ... N",
        "fit": "pictures: cover (crop to fill) or contain",
        "half_rotation": "true: the lower half's picture reads upright when turned",
        "pictures1": "One picture per value 1 ... N, used by the picture styles; value 0 stays",
        "pictures2": "blank unless zero_picture names one (below).",
        "pictures3": 'Write { file = "x.jpg", focus = [0.5, 0.3] } to keep a point of a photo',
        "pictures4": (
            "in view (without one, a portrait photo keeps its upper third, where heads are)."
        ),
        "zero_file": "my-zero.jpg",
        "more_pictures": "deckgen ships 12 demo pictures; {set} needs {n}: add your own.",
        "pattern": "none, dots, diagonal, lattice",
        "logo": "PNG with transparency works best",
        "logo_file": "my-logo.png",
        "logo_width": "share of the card's safe width",
        "cover_file": "my-cover.jpg",
        "font": "TTF or OTF; the bundled DejaVu Sans otherwise",
    },
    "de": {
        "head1": "deckgen-Spieldatei: `deckgen deck build {diese Datei}` macht die Druckdateien.",
        "head2": (
            'Pfade gelten relativ zu dieser Datei; "demo:..." meint die Beispielbilder von deckgen.'
        ),
        "head3": 'Farben als "#RRGGBB". Jeder Eintrag außer name darf fehlen.',
        "set": "double-6 ... double-12 (bis double-18)",
        "language": "en oder de: die wenigen Wörter, die deckgen selbst druckt",
        "back_offset": (
            "Versatz der Rückseiten beim Duplexdruck (x, y), aus `deckgen deck calibrate`"
        ),
        "size": 'poker, bridge, meinspiel, tarot, mini oder "63 x 88" (mm)',
        "bleed": "Anschnitt: so weit wird über die Schnittkante hinaus gedruckt",
        "safe": "so weit bleibt Text innerhalb der Schnittkante",
        "orientation": 'der Stein steht aufrecht, oder liegt quer ("across")',
        "paper_file": "mein-papier.jpg",
        "corner_index": 'kleines "a|b" in zwei Ecken, zum Halten der Karten in der Hand',
        "style": "pips (Augen), numerals (Ziffern), pictures (Bilder) oder pictures+pips",
        "pip_colours": (
            "palette (auch bei Farbsehschwäche unterscheidbar) oder mono (alles in `ink`)"
        ),
        "colours": "eine eigene Farbe für jeden Wert 1 ... N",
        "fit": "Bilder: cover (beschnitten, füllt die Fläche) oder contain (ganz sichtbar)",
        "half_rotation": (
            "true: das Bild der unteren Hälfte steht richtig, wenn man die Karte dreht"
        ),
        "pictures1": "Ein Bild je Wert 1 ... N, für die Bild-Stile; Wert 0 bleibt leer,",
        "pictures2": "außer zero_picture nennt ein Bild (unten).",
        "pictures3": 'Mit { file = "x.jpg", focus = [0.5, 0.3] } bleibt ein Punkt des Fotos',
        "pictures4": (
            "sichtbar (ohne ihn behält ein Hochformat-Foto sein oberes Drittel, wo Köpfe sind)."
        ),
        "zero_file": "mein-bild-fuer-null.jpg",
        "more_pictures": "deckgen hat 12 Beispielbilder; {set} braucht {n}: eigene ergänzen.",
        "pattern": "none (keins), dots (Punkte), diagonal, lattice (Gitter)",
        "logo": "am besten ein PNG mit Transparenz",
        "logo_file": "mein-logo.png",
        "logo_width": "Anteil an der sicheren Breite der Karte",
        "cover_file": "mein-titelbild.jpg",
        "font": "TTF oder OTF; sonst die mitgelieferte DejaVu Sans",
    },
}
"""The starter file's comments per language of the deck (the keys stay English: they
are the deck file's own words)."""
