"""The commented starter deck file that ``deckgen deck new`` writes.

Takes a deck name, a set and optional card settings (from a vendor preset:
:func:`deckgen.prepress.presets.card_from_preset`); gives TOML
text that builds as it is: its pictures point at deckgen's own demo art (``demo:...``).
"""

from __future__ import annotations

from dataclasses import dataclass


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
    name: str, set_name: str, max_pip: int, card: StarterCard, *, lang: str = "en"
) -> str:
    """The starter deck file's text; ``lang`` (en or de) is the language of the cards."""
    from deckgen.deck.wording import card_language, word

    lang = card_language(lang)
    imprint = word(lang, "sample_imprint").replace("\\", "\\\\").replace('"', '\\"')
    pictures = ",\n".join(f'  "demo:value-{v:02d}.png"' for v in range(1, max_pip + 1))
    picture_note = (
        ""
        if max_pip <= 12
        else f"# deckgen ships 12 demo pictures; {set_name} needs {max_pip}: add your own.\n"
    )
    preset_line = f"preset = {_q(card.preset)}\n" if card.preset else ""
    if max_pip > 12:
        pictures = ",\n".join(
            f'  "demo:value-{(v - 1) % 12 + 1:02d}.png"' for v in range(1, max_pip + 1)
        )
    return f"""\
# deckgen deck file: `deckgen deck build {{this file}}` makes the print files.
# Paths are relative to this file; "demo:..." names deckgen's own demo art.
# Colours are "#RRGGBB". Every key is optional except name.

name = {_q(name)}
set = {_q(set_name)}              # double-6 ... double-12 (up to double-18)
language = "{lang}"                # en or de: the few words deckgen prints itself
# back_offset_mm = [0.0, 0.0]  # duplex back shift (x, y) from `deckgen deck calibrate`
{preset_line}
[card]
size = {_q(card.size)}         # poker, bridge, meinspiel, tarot, mini, or "63 x 88" (mm)
bleed_mm = {card.bleed_mm:g}                 # printed beyond the cut on every side
safe_mm = {card.safe_mm:g}                  # keep text this far inside the cut
corner_radius_mm = {card.corner_radius_mm:g}
orientation = "upright"        # the tile stands upright, or lies "across"
background = "#efe7d8"
# background_picture = "my-paper.jpg"
corner_index = true            # small "a|b" in two corners, for holding cards in hand

[faces]
style = "pips"                 # pips, numerals, pictures, or pictures+pips
tile_colour = "#fffdf7"
tile_edge = "#2b2b2b"
pip_colours = "palette"        # palette (colour-blind safe) or mono (all in `ink`)
ink = "#222222"
# colours = ["#0072b2", ...]   # your own colour for each value 1 ... N
fit = "cover"                  # pictures: cover (crop to fill) or contain
half_rotation = false          # true: the lower half's picture reads upright when turned
# One picture per value 1 ... N (value 0 stays blank); used by the picture styles.
# Write {{ file = "x.jpg", focus = [0.5, 0.3] }} to keep a point of a photo in view
# (without one, a portrait photo keeps its upper third, where heads are).
{picture_note}pictures = [
{pictures},
]

[back]
background = "#1d3557"
pattern = "lattice"            # none, dots, diagonal, lattice
logo = "demo:logo.png"         # PNG with transparency works best
logo_width = 0.6               # share of the card's safe width

[cover]
title = {_q(name)}
subtitle = {_q(word(lang, "sample_subtitle"))}
picture = "demo:cover.jpg"
background = "#1d3557"

[imprint]
text = \"\"\"
{imprint}
\"\"\"

# [fonts]
# regular = "fonts/MyFont-Regular.ttf"   # TTF or OTF; the bundled DejaVu Sans otherwise
# bold = "fonts/MyFont-Bold.ttf"
"""
