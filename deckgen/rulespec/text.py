"""Rendering clause and note texts: placeholders filled from the file's parameters.

A clause text may contain ``{hand_size_2}``, ``{draw_limit}``, ``{target}`` and the
other names of :func:`text_params`; they are filled from the parameters, so changing a
parameter changes every sentence that states it. Takes a
:class:`~deckgen.rulespec.model.RulesFile` and a language; gives plain strings.
A placeholder that the file's parameters do not define is an error when the file is
loaded, not when the booklet is printed.

A placeholder is exactly ``{name}``: a name and nothing else. No format spec
(``{set:>1000000000}`` would allocate gigabytes), no conversion (``{set!r}``), no
attribute or index lookup (``{set.__class__}``, ``{x[0]}``): :func:`placeholders`
refuses them with a :class:`PlaceholderError`, and :func:`render` never calls
``str.format``, so even text that skipped the check cannot do more than substitute.
"""

from __future__ import annotations

import re
import string
from typing import Any

from deckgen.rulespec.model import RulesFile

SECTION_TITLES: dict[str, dict[str, str]] = {
    "aim": {"de": "Ziel des Spiels", "en": "Aim of the game"},
    "setup": {"de": "Vorbereitung", "en": "Setting up"},
    "play": {"de": "Spielablauf", "en": "Playing"},
    "scoring": {"de": "Ende einer Runde und Wertung", "en": "End of a round and scoring"},
    "game_end": {"de": "Ende des Spiels und Gleichstand", "en": "End of the game and ties"},
}


def _join(items: list[str], lang: str) -> str:
    word = " und " if lang == "de" else " and "
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + word + items[-1]


def _or(counts: list[int], lang: str) -> str:
    word = " oder " if lang == "de" else " or "
    text = [str(c) for c in counts]
    if len(text) == 1:
        return text[0]
    return ", ".join(text[:-1]) + word + text[-1]


def hand_sizes_phrase(rules: RulesFile, lang: str) -> str:
    """``7 each with 2 or 3 players and 6 each with 4 players`` (or the German)."""
    groups: dict[int, list[int]] = {}
    for n in rules.players.counts:
        groups.setdefault(rules.deal.hand_size[n], []).append(n)
    parts = []
    for size, counts in groups.items():
        if lang == "de":
            parts.append(f"je {size} bei {_or(counts, lang)} Spielern")
        else:
            parts.append(f"{size} each with {_or(counts, lang)} players")
    return _join(parts, lang)


NUMBER_WORDS: dict[str, tuple[str, ...]] = {
    "de": ("null", "ein", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun",
           "zehn", "elf", "zwölf"),
    "en": ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
           "ten", "eleven", "twelve"),
}  # fmt: skip
"""Numbers as a rulebook writes them in running text (up to twelve; larger in digits)."""


def number_word(n: int, lang: str) -> str:
    """``three`` / ``drei`` for 3; digits from 13 on.

    >>> number_word(3, "de"), number_word(1, "en"), number_word(15, "en")
    ('drei', 'one', '15')
    """
    words = NUMBER_WORDS["de" if lang == "de" else "en"]
    return words[n] if 0 <= n < len(words) else str(n)


def times_word(n: int, lang: str) -> str:
    """``three times`` / ``dreimal``; ``once``, ``twice``.

    >>> times_word(3, "de"), times_word(1, "en"), times_word(2, "en")
    ('dreimal', 'once', 'twice')
    """
    if lang == "de":
        word = number_word(n, lang)
        return f"{word}mal" if 0 <= n <= 12 else f"{n}-mal"
    return {1: "once", 2: "twice"}.get(n, f"{number_word(n, lang)} times")


def tile_values_sentence(values: dict[str, int], lang: str) -> str:
    """``The 0/0 counts 50 points instead of 0.`` (``Der 0/0 zählt 50 Punkte statt 0.``)."""
    parts = []
    for key, value in values.items():
        a, b = (int(x) for x in key.split("-"))
        if lang == "de":
            parts.append(f"der {a}/{b} zählt {value} Punkte statt {a + b}")
        else:
            parts.append(f"the {a}/{b} counts {value} points instead of {a + b}")
    text = _join(parts, lang)
    return text[:1].upper() + text[1:] + "."


def players_phrase(rules: RulesFile, lang: str) -> str:
    counts = rules.players.counts
    if len(counts) == 1:
        return str(counts[0])
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} bis {counts[-1]}" if lang == "de" else f"{counts[0]} to {counts[-1]}"
    return _or(counts, lang)


def text_params(rules: RulesFile, lang: str) -> dict[str, Any]:
    """Every placeholder a clause text may use, for ``lang``; unset parameters are absent."""
    from deckgen.tiles import DominoSet

    dset = DominoSet.from_name(rules.set)
    p: dict[str, Any] = {
        "set": rules.set if lang == "en" else rules.set.replace("double-", "Doppel-"),
        "set_max": dset.max_pip,
        "tiles": len(dset),
        "total_pips": dset.total_pips,
        "players": players_phrase(rules, lang),
        "players_min": rules.players.counts[0],
        "players_max": rules.players.counts[-1],
        "hand_sizes": hand_sizes_phrase(rules, lang),
        "reserve": rules.deal.stock_reserve,
    }
    sizes = {rules.deal.hand_size[n] for n in rules.players.counts}
    if len(sizes) == 1:
        p["hand_size"] = sizes.pop()
    for n in rules.players.counts:
        p[f"hand_size_{n}"] = rules.deal.hand_size[n]
        station = 1 if rules.opening.lead == "station" else 0  # on the table, not in stock
        p[f"stock_{n}"] = len(dset) - station - n * rules.deal.hand_size[n]
    if rules.deal.redeal_doubles is not None:
        p["redeal_doubles"] = rules.deal.redeal_doubles
    if rules.opening.required_double is not None:
        v = rules.opening.required_double
        p["required_double"] = f"{v}/{v}"  # tiles are written 6/6 in rule texts
    if rules.turn.draw_limit is not None:
        p["draw_limit"] = rules.turn.draw_limit
    if rules.scoring.out_bonus:
        p["bonus"] = rules.scoring.out_bonus
    if rules.scoring.bands is not None:
        b = rules.scoring.bands
        p["bands"] = b
        p["band_top"] = b - 1
        p["band2_low"] = b
        p["band2_top"] = 2 * b - 1
    if rules.scoring.tile_values:
        p["tile_values"] = ", ".join(
            f"{t.replace('-', '/')} = {v}" for t, v in rules.scoring.tile_values.items()
        )
        p["tile_values_sentence"] = tile_values_sentence(rules.scoring.tile_values, lang)
    if rules.scoring.ends_multiple is not None:
        p["ends_multiple"] = rules.scoring.ends_multiple
    if rules.scoring.round_to is not None:
        p["round_to"] = rules.scoring.round_to
    if rules.match.rounds is not None:
        p["rounds"] = rules.match.rounds
    if rules.match.target is not None:
        p["target"] = rules.match.target
    for name, value in list(p.items()):  # {rounds_word}: "four"; {draw_limit_times}: "three times"
        if isinstance(value, int) and not isinstance(value, bool):
            p[f"{name}_word"] = number_word(value, lang)
            p[f"{name}_times"] = times_word(value, lang)
    return p


PLACEHOLDER_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
"""What a placeholder may be: a lower-case parameter name, nothing more."""


class PlaceholderError(ValueError):
    """A placeholder that is more than ``{name}`` (format spec, conversion, lookup)."""


def _fields(text: str) -> list[tuple[str, str | None]]:
    """``(literal, name)`` pairs of ``text``; PlaceholderError for anything but ``{name}``."""
    out: list[tuple[str, str | None]] = []
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise PlaceholderError(str(exc)) from None
    for literal, field, spec, conversion in parsed:
        if field is None:
            out.append((literal, None))
            continue
        shown = "{" + field[:30] + ("!" + conversion if conversion else "")
        shown += (":" + spec[:20] if spec else "") + "}"
        if conversion is not None:
            raise PlaceholderError(f"{shown} has a conversion (!{conversion[:5]})")
        if spec:
            raise PlaceholderError(f"{shown} has a format spec")
        if not PLACEHOLDER_NAME.fullmatch(field):
            what = "a lookup" if any(c in field for c in ".[") else "not a parameter name"
            raise PlaceholderError(f"{shown} is {what}")
        out.append((literal, field))
    return out


def placeholders(text: str) -> list[str]:
    """The placeholder names used in ``text`` (``{name}``), in order.

    PlaceholderError (a ValueError) for a placeholder with a format spec, a
    conversion or a lookup, and for an unmatched brace.
    """
    return [name for _, name in _fields(text) if name is not None]


def render(text: str, params: dict[str, Any]) -> str:
    """Fill the placeholders of ``text`` from ``params`` (KeyError for an unknown one).

    Plain substitution of ``str(value)``: never ``str.format``, so no width, no lookup.
    """
    parts: list[str] = []
    for literal, name in _fields(text):
        parts.append(literal)
        if name is not None:
            parts.append(str(params[name]))
    return "".join(parts)
