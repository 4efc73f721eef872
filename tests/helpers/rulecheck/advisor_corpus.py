"""A corpus of rules files with one defect each, made from the bundled files.

Every mutant is one change a careful designer or editor would want flagged (or, for
the controls, one harmless change): it is generated from the bundled file as it is
today, so the corpus keeps working as the bundled files change. Each mutant names
what a right finding must mention (a clause id or a parameter key).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from deckgen.errors import DeckgenError
from deckgen.rulespec import RuleSpec, list_rules, rules_from_data
from deckgen.rulespec.text import number_word, times_word

NUMERIC = {
    "draw_limit": ("turn", "draw_limit"),
    "rounds": ("match", "rounds"),
    "target": ("match", "target"),
    "reserve": ("deal", "stock_reserve"),
    "bonus": ("scoring", "out_bonus"),
    "redeal_doubles": ("deal", "redeal_doubles"),
}
FORMS = {
    "": lambda n, lang: str(n),
    "_word": number_word,
    "_times": times_word,
}
"""How a placeholder writes its number: digits, a word, or how often."""
EN_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
DE_WORDS = {1: "einen", 2: "zwei", 3: "drei", 4: "vier", 5: "fünf", 6: "sechs"}


@dataclass
class Mutant:
    name: str
    cls: str
    """text_number, text_tile, languages, untranslated, dead, deal, control"""
    data: dict[str, Any]
    mentions: tuple[str, ...]
    """A right finding names one of these (clause ids or parameter keys)."""

    def spec(self) -> RuleSpec | None:
        try:
            return rules_from_data(self.data, what=self.name)
        except DeckgenError:
            return None


def _texts(data: dict[str, Any]) -> Iterator[tuple[str, dict[str, str]]]:
    yield "summary", data["summary"]
    for c in data["clause"]:
        yield f"clause {c['id']}", c["text"]


def _value(data: dict[str, Any], section: str, key: str) -> int | None:
    v = data.get(section, {}).get(key)
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _edit(
    base: dict[str, Any], cid: str, token: str, en: str, de: str,
    change: dict[str, Any] | None,
) -> dict[str, Any]:  # fmt: skip
    """``base`` with ``token`` written as ``en``/``de`` in text ``cid``, and ``change``."""
    data = copy.deepcopy(base)
    node = (
        data["summary"]
        if cid == "summary"
        else next(c["text"] for c in data["clause"] if c["id"] == cid)
    )
    node["en"] = node["en"].replace(token, en)
    node["de"] = node["de"].replace(token, de)
    for k, v in (change or {}).items():
        section, key = k.split(".")
        data[section][key] = v
    return data


def mutants(spec: RuleSpec) -> Iterator[Mutant]:
    base = spec.raw
    rid = spec.id
    for where, text in _texts(base):
        cid = where.split(" ", 1)[1] if where.startswith("clause") else "summary"
        for name, (section, key) in NUMERIC.items():
            value = _value(base, section, key)
            if value is None:
                continue
            param = f"{section}.{key}"
            other = value + 2 if value + 2 <= 100 else value - 2
            for form, spell in FORMS.items():
                token = "{" + name + form + "}"
                if token not in text["en"] or token not in text["de"]:
                    continue

                def edit(
                    n_en: int, n_de: int, change: dict[str, Any] | None = None,
                    _cid: str = cid, _token: str = token, _spell: Any = spell,
                ) -> dict[str, Any]:  # fmt: skip
                    return _edit(base, _cid, _token, _spell(n_en, "en"), _spell(n_de, "de"), change)

                lit = f"{token} written as {spell(value, 'en')}"
                yield Mutant(f"{rid}: {where}: {lit}", "control", edit(value, value), ())
                yield Mutant(
                    f"{rid}: {where}: {lit}, {param} = {other}",
                    "text_number", edit(value, value, {param: other}), (cid, param),
                )  # fmt: skip
                yield Mutant(
                    f"{rid}: {where}: {token} written as {spell(other, 'en')}",
                    "text_number", edit(other, other), (cid, param),
                )  # fmt: skip
                yield Mutant(
                    f"{rid}: {where}: German {spell(other, 'de')}, English {spell(value, 'en')}",
                    "languages", edit(value, other), (cid, param),
                )  # fmt: skip
    for c in base["clause"]:
        en, de = c["text"]["en"], c["text"]["de"]
        if len(en) > 60:
            data = copy.deepcopy(base)
            next(x for x in data["clause"] if x["id"] == c["id"])["text"]["de"] = en
            yield Mutant(
                f"{rid}: clause {c['id']} not translated", "untranslated", data, (c["id"],)
            )
        tiles = re.findall(r"(?<![\d/{])(\d{1,2})/(\d{1,2})", en)
        top = spec.dset.max_pip
        if tiles:
            a, b = tiles[0]
            data = copy.deepcopy(base)
            node = next(x for x in data["clause"] if x["id"] == c["id"])["text"]
            big = f"{top + 3}/{top + 3}" if a == b else f"{top + 3}/{b}"
            node["en"] = node["en"].replace(f"{a}/{b}", big, 1)
            node["de"] = node["de"].replace(f"{a}/{b}", big, 1)
            yield Mutant(
                f"{rid}: clause {c['id']} names {big}", "text_tile", data, (c["id"], "set")
            )
            data = copy.deepcopy(base)
            node = next(x for x in data["clause"] if x["id"] == c["id"])["text"]
            node["de"] = node["de"].replace(f"{a}/{b}", f"{b}/{int(a) - 1 if int(a) else 1}", 1)
            if node["de"] != c["text"]["de"]:
                yield Mutant(
                    f"{rid}: clause {c['id']}: German names another tile",
                    "languages",
                    data,
                    (c["id"],),
                )
        for n, word in EN_WORDS.items():
            m = re.search(rf"\b{word}\b (tiles?|arms|rounds|points)", en)
            dm = re.search(rf"\b{DE_WORDS[n]}\b", de, re.I)
            if m and dm and n >= 2:
                data = copy.deepcopy(base)
                node = next(x for x in data["clause"] if x["id"] == c["id"])["text"]
                alt = 5 if n != 5 else 4
                node["de"] = de[: dm.start()] + DE_WORDS[alt] + de[dm.end() :]
                yield Mutant(
                    f"{rid}: clause {c['id']}: German '{DE_WORDS[alt]}' for '{word}'",
                    "languages",
                    data,
                    (c["id"],),
                )
                data = copy.deepcopy(base)
                node = next(x for x in data["clause"] if x["id"] == c["id"])["text"]
                node["en"] = en[: m.start()] + EN_WORDS[alt] + en[m.start() + len(word) :]
                node["de"] = de[: dm.start()] + DE_WORDS[alt] + de[dm.end() :]
                yield Mutant(
                    f"{rid}: clause {c['id']}: '{EN_WORDS[alt]} {m.group(1)}'",
                    "text_number",
                    data,
                    (c["id"],),
                )
                break
    # dead rules from the parameters alone
    if base["deal"]["rest"] == "stock" and any(
        c["id"].startswith("play.draw") for c in base["clause"]
    ):
        data = copy.deepcopy(base)
        data["deal"]["rest"] = "dead"
        data["deal"].pop("stock_reserve", None)
        yield Mutant(f"{rid}: no stock, draw rules kept", "dead", data, ("play.draw",))
    values = base.get("scoring", {}).get("tile_values", {})
    if values:
        key = next(iter(values))
        a, b = (int(x) for x in key.split("-"))
        data = copy.deepcopy(base)
        data["scoring"]["tile_values"][key] = a + b
        yield Mutant(
            f"{rid}: special value of {key} equal to its pips",
            "dead",
            data,
            ("score.values", "scoring.tile_values"),
        )
    if base["deal"].get("redeal_doubles"):
        data = copy.deepcopy(base)
        hand = max(base["deal"]["hand_size"].values())
        data["deal"]["redeal_doubles"] = hand + 1
        yield Mutant(
            f"{rid}: redeal threshold above the hand",
            "dead",
            data,
            ("setup.redeal", "deal.redeal_doubles"),
        )


def corpus() -> list[Mutant]:
    return [m for spec in list_rules() for m in mutants(spec)]
