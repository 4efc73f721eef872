"""Every number and tile a printed text names, held to the file's parameters.

Takes a :class:`~deckgen.rulespec.RuleSpec`; gives findings (the same JSON-ready dicts
as :mod:`deckgen.rulecheck.diagnostics`) for what a careful editor would flag before
play: a text that names a number its parameters do not have, a tile the set does not
hold, a layout count the board does not play, German and English that disagree, a
German text that was never translated.

Every text a booklet prints is read: the name and summary, every clause (the aim
included) and every note, in both languages, after its placeholders are filled (a
placeholder is right by construction; a number typed into the text is what goes
stale). A number counts whether written in digits or as a word ("three", "drei",
"zweimal"); what it counts is read from the word after it (tiles, points, rounds,
draws, arms, players, minutes), so "at most one tile at a time until one fits" is a
draw until a tile fits, not a limited draw.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from deckgen.rulecheck.diagnostics import WarningId, finding
from deckgen.rulecheck.messages import kind as kind_item
from deckgen.rulecheck.messages import said, where
from deckgen.rulespec import RuleSpec
from deckgen.rulespec.text import NUMBER_WORDS, render, text_params
from deckgen.tiles import DominoSet

WORDS: dict[str, dict[str, int]] = {
    lang: {word: n for n, word in enumerate(NUMBER_WORDS[lang]) if n >= 2}
    | {
        "en": {"one": 1, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
               "eighteen": 18, "twenty": 20, "fifty": 50, "hundred": 100, "twice": 2},
        "de": {"eins": 1, "dreizehn": 13, "vierzehn": 14, "fünfzehn": 15, "sechzehn": 16,
               "achtzehn": 18, "zwanzig": 20, "fünfzig": 50, "hundert": 100, "einmal": 1}
        | {f"{NUMBER_WORDS['de'][n]}mal": n for n in range(2, 13)},
    }[lang]
    for lang in ("en", "de")
}  # fmt: skip
"""Number words. German "ein/einen/eine" is also the article: it counts as 1 only after
"höchstens", "genau", "nur" (and English "a" never counts)."""

KINDS: dict[str, dict[str, tuple[str, ...]]] = {
    "tiles": {
        "en": ("tile", "tiles", "card", "cards", "domino", "dominoes"),
        "de": ("stein", "steine", "steinen", "karte", "karten"),
    },
    "doubles": {"en": ("double", "doubles"), "de": ("pasch", "pasche", "paschen", "doppel")},
    "points": {"en": ("point", "points"), "de": ("punkt", "punkte", "punkten")},
    "rounds": {"en": ("round", "rounds"), "de": ("runde", "runden")},
    "times": {"en": ("time", "times"), "de": ("mal",)},
    "arms": {
        "en": ("arm", "arms", "side", "sides", "direction", "directions", "toe", "toes"),
        "de": (
            "arm",
            "arme",
            "armen",
            "seite",
            "seiten",
            "richtung",
            "richtungen",
            "zehe",
            "zehen",
        ),
    },
    "players": {
        "en": ("player", "players"),
        "de": ("spieler", "spielern", "spielerinnen", "mitspieler", "mitspielern"),
    },
    "minutes": {"en": ("minute", "minutes"), "de": ("minute", "minuten")},
}
"""What a number counts, by the word that follows it (at most one adjective between)."""

SET_NAME = re.compile(r"\b(?:double|doppel)[- ]?(\d+|[a-zäöüß]+)\b", re.IGNORECASE)
TILE = re.compile(r"(?<![\d/])(\d{1,2})\s*/\s*(\d{1,2})(?![\d/])")
TOKEN = re.compile(r"\d+(?:[.,]\d+)?(?:-mal)?|[a-zäöüß]+", re.IGNORECASE)
ARTICLE_ONE = {"ein", "eine", "einen", "einem", "einer"}
ARTICLE_CUES = {"höchstens", "genau", "nur", "jeweils"}

STOP_EN = {"the", "and", "is", "are", "with", "of", "who", "their", "they", "each", "tile"}
STOP_DE = {"der", "die", "das", "und", "ist", "mit", "wer", "ein", "eine", "den", "stein"}


@dataclass(frozen=True)
class Number:
    value: int
    kind: str | None
    word: str
    phrase: str = ""
    """The words as the text writes them, from the number to what it counts ("drei
    Steine", "three more tiles"); the number alone when nothing follows."""


@dataclass(frozen=True)
class Text:
    """One printed text: where it is (``clause setup.deal``) and both languages."""

    where: str
    clause: str | None
    en: str
    de: str
    raw_en: str = ""
    raw_de: str = ""
    """The texts as written, placeholders unfilled."""


def numbers(text: str, lang: str) -> list[Number]:
    """Every number of ``text`` with what it counts (None when the next words say
    nothing); tile names (``6/6``) and set names (``double-six``) are left out."""
    text = TILE.sub(" ", SET_NAME.sub(" ", text))
    written = TOKEN.findall(text)
    tokens = [t.lower() for t in written]
    words = WORDS[lang]
    out: list[Number] = []
    for i, tok in enumerate(tokens):
        value: int | None = None
        kind: str | None = None
        if tok[0].isdigit():
            if "." in tok or "," in tok:
                continue
            if tok.endswith("-mal"):
                value, kind = int(tok[:-4]), "times"
            else:
                value = int(tok)
        elif tok in words:
            value = words[tok]
            if tok.endswith("mal") or tok in ("twice",):
                kind = "times"
        elif lang == "de" and tok in ARTICLE_ONE and i and tokens[i - 1] in ARTICLE_CUES:
            value = 1
        if value is None:
            continue
        end = i + 1
        if kind is None:
            kind, after = _kind_at(tokens[i + 1 : i + 3], lang)
            end += after
        out.append(Number(value, kind, tok, " ".join(written[i:end])))
    return out


ADJECTIVES = {
    "new", "more", "further", "open", "own", "other", "long", "short", "whole", "extra",
    "free", "neue", "neuen", "weitere", "weiteren", "offene", "offenen", "eigene",
    "eigenen", "andere", "anderen", "lange", "kurze", "ganze", "zusätzliche", "freie",
}  # fmt: skip


def _kind(after: list[str], lang: str) -> str | None:
    """The kind named by the next word, or by the word after one adjective."""
    return _kind_at(after, lang)[0]


def _kind_at(after: list[str], lang: str) -> tuple[str | None, int]:
    """:func:`_kind`, and how many of the words ``after`` name it (0: none)."""
    for j, word in enumerate(after):
        for kind, names in KINDS.items():
            if word in names[lang]:
                return kind, j + 1
        if j > 0 or word not in ADJECTIVES:
            return None, 0
    return None, 0


def set_names(text: str, lang: str) -> list[int | None]:
    """The N of every "double-N" / "Doppel-N" the text names (None: not a number)."""
    out: list[int | None] = []
    for m in SET_NAME.finditer(text):
        raw = m.group(1).lower()
        if raw.isdigit():
            out.append(int(raw))
        elif raw in WORDS["en"] or raw in WORDS["de"]:
            out.append(WORDS["en"].get(raw, WORDS["de"].get(raw)))
    return out


def tiles_named(text: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in TILE.findall(text)]


def printed_texts(spec: RuleSpec) -> list[Text]:
    """Every text a booklet prints, placeholders filled, in file order."""
    r = spec.params
    pen, pde = text_params(r, "en"), text_params(r, "de")

    def both(where: str, clause: str | None, en: str, de: str) -> Text:
        return Text(where, clause, render(en, pen), render(de, pde), en, de)

    out = [both("the summary", None, r.summary.en, r.summary.de)]
    for c in r.clause:
        out.append(both(f"clause {c.id}", c.id, c.text.en, c.text.de))
    for note in r.note:
        out.append(both(f"note {note.id}", None, note.decision.en, note.decision.de))
        out.append(both(f"note {note.id} (reason)", None, note.reason.en, note.reason.de))
    return out


# ---------------------------------------------------------------- what the file allows
def allowed(spec: RuleSpec) -> dict[str, set[int]]:
    """The numbers each kind may take in this file's texts."""
    r = spec.params
    dset = DominoSet.from_name(r.set)
    top = dset.max_pip
    hands = {r.deal.hand_size[n] for n in r.players.counts}
    lead_out = 1 if r.opening.lead in ("station", "turned_up") else 0
    stocks = {len(dset) - lead_out - n * r.deal.hand_size[n] for n in r.players.counts}
    tiles = {1, 2, len(dset), top + 1, r.deal.stock_reserve} | hands | stocks
    if r.turn.draw_limit is not None:
        tiles.add(r.turn.draw_limit)
    if r.board.shape == "chicken_foot":
        from deckgen.engine.chickenfoot import CENTRE_ARMS, TOES

        tiles |= {CENTRE_ARMS, TOES}
        arms = {1, 2, CENTRE_ARMS, TOES}
    elif r.board.shape in ("spinner", "cross_doubles"):
        arms = {1, 2, 4}
    else:
        arms = {1, 2}
    points = {0, 1, r.scoring.out_bonus, *r.scoring.tile_values.values()}
    for step in (r.scoring.ends_multiple, r.scoring.round_to):
        if step:
            points |= set(range(0, 20 * step + 1, step))
    if r.scoring.bands:
        b = r.scoring.bands
        points |= {b - 1, b, 2 * b - 1, 2 * b, 1, 2, 3}
    if r.match.target:
        points.add(r.match.target)
    points |= set(range(0, 2 * top + 1))  # pips of one tile, in worked examples
    rounds = {1, 2}
    if r.match.rounds:
        rounds.add(r.match.rounds)
    times = {1, 2}
    if r.turn.draw_limit is not None:
        times.add(r.turn.draw_limit)
    players = {1, 2, *r.players.counts}
    if r.players.teams != "none":
        players |= {2, 4}
    doubles = {1, top + 1}
    if r.deal.redeal_doubles is not None:
        doubles.add(r.deal.redeal_doubles)
    minutes: set[int] = set()
    if r.check.playing_time_minutes:
        minutes.add(round(r.check.playing_time_minutes))
    return {
        "tiles": tiles, "doubles": doubles, "points": points, "rounds": rounds,
        "times": times, "arms": arms, "players": players, "minutes": minutes,
    }  # fmt: skip


CLAUSE_NUMBERS: dict[str, tuple[tuple[str, ...], str]] = {
    # clause: (kinds, the parameter that a number of those kinds must equal)
    "play.draw_limit": (("tiles", "times"), "turn.draw_limit"),
    "setup.redeal": (("doubles",), "deal.redeal_doubles"),
    "end.reserve": (("tiles",), "deal.stock_reserve"),
    "score.bonus": (("points",), "scoring.out_bonus"),
    "match.end": (("points", "rounds"), "match.*"),
    "play.chicken_foot": (("tiles", "arms"), "board.chicken_foot"),
}
STRICT = ("play.draw_limit", "setup.redeal", "score.bonus", "end.reserve")
"""Clauses whose every number (of any kind or none) states their parameter."""
"""Clauses that state one numeric parameter: every number of the right kind in them
must be that parameter's value (or one derived from it)."""


def _param_values(spec: RuleSpec, key: str) -> tuple[set[int], dict[str, Any]]:
    """The values a number stating ``key`` may take, and how the message names them."""
    r = spec.params

    def value(k: str, v: Any) -> dict[str, Any]:
        return said("param.value", key=k, value=str(v))

    if key == "turn.draw_limit":
        return ({r.turn.draw_limit} if r.turn.draw_limit else set()), value(key, r.turn.draw_limit)
    if key == "deal.redeal_doubles":
        v = r.deal.redeal_doubles
        return ({v} if v else set()), value(key, v)
    if key == "deal.stock_reserve":
        return {r.deal.stock_reserve}, value(key, r.deal.stock_reserve)
    if key == "scoring.out_bonus":
        return {r.scoring.out_bonus}, value(key, r.scoring.out_bonus)
    if key == "board.chicken_foot":
        from deckgen.engine.chickenfoot import CENTRE_ARMS, TOES

        return {1, CENTRE_ARMS, TOES}, said("param.chicken_foot", arms=CENTRE_ARMS, toes=TOES)
    # match.*: the target in points, the number of rounds
    vals = {v for v in (r.match.target, r.match.rounds) if v}
    if r.match.target:
        return vals | {1}, value("match.target", r.match.target)
    return vals | {1}, value("match.rounds", r.match.rounds)


def _finding(
    wid: WarningId, text: dict[str, Any], place: str, param: str | None = None
) -> dict[str, Any]:
    return finding(wid, text, where=place, param=param)


def _lang(lang: str) -> dict[str, Any]:
    return said(f"lang.{lang}")


def check_texts(spec: RuleSpec) -> list[dict[str, Any]]:
    """The findings of every printed text, in file order (one per text and problem)."""
    r = spec.params
    dset = DominoSet.from_name(r.set)
    top = dset.max_pip
    ok = allowed(spec)
    out: list[dict[str, Any]] = []
    for t in printed_texts(spec):
        out += _untranslated(t)
        out += _languages_disagree(t)
        if t.where.startswith("note "):
            continue  # notes weigh other readings: their numbers may be those of others
        for lang in ("en", "de"):
            text = getattr(t, lang)
            for n in set_names(text, lang):
                if n is not None and n != top:
                    out.append(_finding(
                        "text_set", said("text_set", where=where(t.where), lang=_lang(lang),
                                         said_top=n, set=r.set, top=top),
                        t.where, "set",
                    ))  # fmt: skip
                    break
            bad = sorted({f"{a}/{b}" for a, b in tiles_named(text) if max(a, b) > top})
            if bad:
                out.append(_finding(
                    "text_tile", said("text_tile.range", where=where(t.where), lang=_lang(lang),
                                      tiles=bad, set=r.set, top=top),
                    t.where, "set",
                ))  # fmt: skip
        out += _tile_params(spec, t)
        out += _numbers_against_params(spec, t, ok)
        out += _roles(spec, t)
        out += _bands(spec, t)
    return _unique(out)


ROLES: dict[str, dict[str, tuple[re.Pattern[str], ...]]] = {
    "deal.stock_reserve": {
        "en": (re.compile(r"\b(stock|pile)\b"), re.compile(r"\b(left|remain|down to|only)\b")),
        "de": (re.compile(r"(vorrat|stapel)"), re.compile(r"(übrig|bis auf|nur noch|liegen)")),
    },
    "turn.draw_limit": {
        "en": (re.compile(r"\bdraw"), re.compile(r"\b(after|at most|more than|up to)\b")),
        "de": (re.compile(r"(zieh|gezogen)"), re.compile(r"\b(nach|höchstens|mehr als|bis zu)\b")),
    },
}
"""Sentences that state a parameter: a number of tiles in a sentence with both of the
patterns (the stock and what is left of it; a draw and its bound) is that parameter."""


def _clauses(text: str, other: tuple[re.Pattern[str], ...]) -> list[str]:
    """The sentences of ``text``; one that also states the other parameter is cut at
    its commas, so each part states one."""
    out: list[str] = []
    for sentence in re.split(r"(?<=[.;!?])\s+", text):
        low = sentence.lower()
        out += sentence.split(",") if all(p.search(low) for p in other) else [sentence]
    return out


def _roles(spec: RuleSpec, t: Text) -> list[dict[str, Any]]:
    r = spec.params
    values = {
        "deal.stock_reserve": r.deal.stock_reserve if r.deal.rest == "stock" else None,
        "turn.draw_limit": r.turn.draw_limit if r.turn.draw == "limited" else None,
    }
    out: list[dict[str, Any]] = []
    for key, langs in ROLES.items():
        want = values[key]
        if want is None:
            continue
        for lang in ("en", "de"):
            other = "turn.draw_limit" if key == "deal.stock_reserve" else "deal.stock_reserve"
            for sentence in _clauses(getattr(t, lang), ROLES[other][lang]):
                low = sentence.lower()
                if not all(pat.search(low) for pat in langs[lang]):
                    continue
                if all(pat.search(low) for pat in ROLES[other][lang]):
                    continue  # both in one clause: cannot tell which number is which
                bound = langs[lang][1].search(low)
                assert bound is not None
                near = sentence[max(0, bound.start() - 30) : bound.end() + 40]
                named = [
                    n
                    for n in numbers(near, lang)
                    if n.kind in ("tiles", "times", None) and (n.word[0].isdigit() or n.value > 1)
                ]
                if named and want not in {n.value for n in named}:
                    out.append(_finding(
                        "text_number", said("text_number.role", where=where(t.where),
                                            lang=_lang(lang), word=named[0].word, key=key,
                                            want=want),
                        t.where, key,
                    ))  # fmt: skip
                    return out
    return out


BANDS = {"en": re.compile(r"bands of (\w+)", re.I), "de": re.compile(r"(\w+?)erstufen", re.I)}


def _bands(spec: RuleSpec, t: Text) -> list[dict[str, Any]]:
    """ "bands of ten" / "Zehnerstufen" against scoring.bands."""
    b = spec.params.scoring.bands
    if b is None:
        return []
    for lang in ("en", "de"):
        for m in BANDS[lang].finditer(getattr(t, lang)):
            raw = m.group(1).lower()
            stated = int(raw) if raw.isdigit() else WORDS[lang].get(raw)
            if stated is not None and stated != b:
                return [_finding(
                    "text_number", said("text_number.bands", where=where(t.where),
                                        lang=_lang(lang), said_bands=stated, bands=b),
                    t.where, "scoring.bands",
                )]  # fmt: skip
    return []


def _unique(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One finding per message, and one per problem: findings of one kind about the same
    parameter in the same text and language (a number of tiles that is the wrong
    value, the same number where it states the draw limit) are one contradiction."""
    seen: set[Any] = set()
    out = []
    for f in items:
        keys: list[Any] = [f["message"]]
        if f.get("param") is not None:
            keys.append((f["id"], f.get("where"), f["param"], _lang_of(f)))
        if not any(k in seen for k in keys):
            out.append(f)
        seen.update(keys)
    return out


def _lang_of(f: dict[str, Any]) -> str | None:
    lang = ((f.get("text") or {}).get("args") or {}).get("lang")
    return lang.get("key") if isinstance(lang, dict) else None


def _numbers_against_params(
    spec: RuleSpec, t: Text, ok: dict[str, set[int]]
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    rule = CLAUSE_NUMBERS.get(t.clause or "")
    for lang in ("en", "de"):
        nums = numbers(getattr(t, lang), lang)
        if rule is not None:
            kinds, key = rule
            vals, shown = _param_values(spec, key)
            strict = t.clause in STRICT
            stated = [
                n for n in nums
                if n.kind in kinds or (strict and n.kind is None and n.value > 1)
            ]  # fmt: skip
            wrong = [n for n in stated if n.value not in vals]
            if vals and wrong:
                out.append(_finding(
                    "text_number", said("text_number.param", where=where(t.where),
                                        lang=_lang(lang), quote=_quote(wrong[0]), name=shown),
                    t.where, key,
                ))  # fmt: skip
                continue
        for n in nums:
            if n.kind in (None, "doubles") or not ok.get(n.kind or ""):
                continue
            if n.value not in ok[n.kind]:
                out.append(_finding(
                    "text_number", said("text_number.none", where=where(t.where),
                                        lang=_lang(lang), quote=_quote(n),
                                        kind=kind_item(n.kind), explain=_explain(spec, n.kind)),
                    t.where, None,
                ))  # fmt: skip
                break
    return out


def _quote(n: Number) -> dict[str, Any]:
    """A number with what it counts when known, in the text's own words ("drei
    Steine", not "drei tiles")."""
    if n.kind:
        return said("quote.kind", word=n.word, kind=kind_item(n.kind), phrase=n.phrase or n.word)
    return said("quote.word", word=n.word)


def _explain(spec: RuleSpec, kind: str) -> dict[str, Any] | str:
    r = spec.params
    if kind == "tiles":
        sizes = sorted({r.deal.hand_size[n] for n in r.players.counts})
        limit = r.turn.draw_limit
        return said("explain.tiles", sizes=sizes, limit=said("none") if limit is None else limit)
    if kind == "rounds":
        return said("explain.param", key="match.rounds", value=str(r.match.rounds))
    if kind == "players":
        return said("explain.param", key="players.counts", value=str(r.players.counts))
    if kind == "arms":
        return said("explain.param", key="board.shape", value=str(r.board.shape))
    if kind == "points":
        return said("explain.points")
    return kind_item(kind)


def _tile_params(spec: RuleSpec, t: Text) -> list[dict[str, Any]]:
    """The tiles a clause about one tile names: the required double, special values."""
    r = spec.params
    out: list[dict[str, Any]] = []
    if t.clause == "start.first" and r.opening.required_double is not None:
        v = r.opening.required_double
        for lang in ("en", "de"):
            named = tiles_named(getattr(t, lang))
            doubles = {a for a, b in named if a == b}
            if doubles and v not in doubles:
                d = min(doubles)
                out.append(_finding(
                    "text_tile", said("text_tile.double", where=where(t.where),
                                      lang=_lang(lang), d=d, v=v),
                    t.where, "opening.required_double",
                ))  # fmt: skip
                break
    if t.clause == "score.values" and r.scoring.tile_values:
        keys = {tuple(sorted(int(x) for x in k.split("-"))) for k in r.scoring.tile_values}
        for lang in ("en", "de"):
            listed = {tuple(sorted(p)) for p in tiles_named(getattr(t, lang))}
            extra = listed - keys
            if extra:
                a, b = sorted(extra)[0]
                out.append(_finding(
                    "text_tile", said("text_tile.value", where=where(t.where),
                                      lang=_lang(lang), a=a, b=b),
                    t.where, "scoring.tile_values",
                ))  # fmt: skip
                break
    return out


def _languages_disagree(t: Text) -> list[dict[str, Any]]:
    """German and English naming different numbers of the same kind, or other digits,
    or other tiles."""
    en, de = numbers(t.en, "en"), numbers(t.de, "de")
    out: list[dict[str, Any]] = []
    tiles_en = Counter(tuple(sorted(p)) for p in tiles_named(t.en))
    tiles_de = Counter(tuple(sorted(p)) for p in tiles_named(t.de))
    if tiles_en != tiles_de:
        only = sorted(set((tiles_en - tiles_de) + (tiles_de - tiles_en)))
        out.append(_finding(
            "text_languages", said("text_languages.tiles", where=where(t.where),
                                   tiles=[f"{a}/{b}" for a, b in only]),
            t.where,
        ))  # fmt: skip
        return out
    digits_en = Counter(n.value for n in en if n.word[0].isdigit())
    digits_de = Counter(n.value for n in de if n.word[0].isdigit())
    all_en, all_de = {n.value for n in en}, {n.value for n in de}
    for kind in KINDS:
        ke = Counter(n.value for n in en if n.kind == kind)
        kd = Counter(n.value for n in de if n.kind == kind)
        # a substitution, not a rephrasing: each side has a number of this kind that
        # the other side names nowhere
        if ke and kd and set(ke) - all_de and set(kd) - all_en:
            out.append(_finding(
                "text_languages", said("text_languages.kind", where=where(t.where),
                                       en_values=_list(ke), de_values=_list(kd),
                                       kind=kind_item(kind)),
                t.where,
            ))  # fmt: skip
            return out
    big_en = {v for v in all_en if v > 1}
    big_de = {v for v in all_de if v > 1}
    if (set(digits_en) - all_de and set(digits_de) - all_en) or (
        big_en - all_de and big_de - all_en
    ):
        out.append(_finding(
            "text_languages", said("text_languages.numbers", where=where(t.where),
                                   en_values=_list(digits_en), de_values=_list(digits_de)),
            t.where,
        ))  # fmt: skip
    return out


def _list(c: Counter[int]) -> list[int]:
    return sorted(c)


def _untranslated(t: Text) -> list[dict[str, Any]]:
    de = t.de.strip()
    words = [w.lower() for w in re.findall(r"[A-Za-zÄÖÜäöüß]+", de)]
    english = sum(w in STOP_EN for w in words)
    german = sum(w in STOP_DE for w in words)
    same = (de == t.en.strip() or t.raw_de.strip() == t.raw_en.strip()) and len(words) > 2
    if same or (english >= 3 and english > 2 * german):
        return [_finding(
            "text_untranslated", said("text_untranslated.english", where=where(t.where),
                                      start=de[:40]),
            t.where,
        )]  # fmt: skip
    if len(de) * 3 < len(t.en.strip()) and len(t.en) > 40:
        return [_finding(
            "text_untranslated", said("text_untranslated.short", where=where(t.where)), t.where,
        )]  # fmt: skip
    return []
