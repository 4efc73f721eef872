"""A domino variant's rules as data: :class:`RuleSpec`, loaded from ``rules/*.toml``.

The rules file is the single source of truth: the engine plays its parameters, the
booklet prints its clauses. Public API (stable; additions only):

- :func:`load_rules` (``ref``: id, alias in German or English, or a path) and
  :func:`list_rules` give :class:`RuleSpec` objects;
- ``RuleSpec.params`` (the validated :class:`~deckgen.rulespec.model.RulesFile`),
  ``.id``, ``.aliases``, ``.dset``, ``.sha256``, ``.path``;
- ``RuleSpec.name(lang)``, ``.summary(lang)``, ``.clause_ids()``,
  ``.clause_text(clause_id, lang)``, ``.sections(lang)`` (rulebook order: aim, setup,
  play, scoring, game_end), ``.notes(lang)``, ``.deal_table()``, ``.hand_size(n)``,
  ``.teams(n)``, ``.text_params(lang)``, ``.with_changes({"deal.hand_size.2": 8})``.

>>> spec = load_rules("card-domino")
>>> spec.hand_size(4), spec.params.turn.draw_limit
(6, 3)
>>> "three" in spec.clause_text("play.draw_limit", "en")
True
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from deckgen.errors import InputError, SpecError, did_you_mean, excerpt
from deckgen.paths import is_regular_file
from deckgen.rulespec.clauses import (
    ENGINE_CLAUSES,
    GAP_SITUATIONS,
    is_engine_clause,
    required_clause_ids,
)
from deckgen.rulespec.model import LANGS, SECTION_IDS, RulesFile
from deckgen.rulespec.text import SECTION_TITLES, placeholders, render, text_params
from deckgen.specfile import load_toml, validate
from deckgen.tiles import DominoSet

__all__ = [
    "ENGINE_CLAUSES",
    "GAP_SITUATIONS",
    "LANGS",
    "SECTION_IDS",
    "SECTION_TITLES",
    "DealRow",
    "RenderedClause",
    "RenderedNote",
    "RuleSpec",
    "Section",
    "bundled_suggestion",
    "find_bundled",
    "list_rules",
    "load_rules",
    "load_rules_file",
    "rules_from_data",
]


@dataclass(frozen=True)
class RenderedClause:
    """A clause with its text filled in for one language."""

    id: str
    section: str
    text: str
    decides: bool
    """True for engine clauses (their ids appear in round results and coverage)."""


@dataclass(frozen=True)
class Section:
    """One rulebook section: its id, its title, its clauses in file order."""

    id: str
    title: str
    clauses: tuple[RenderedClause, ...]


@dataclass(frozen=True)
class RenderedNote:
    """A decision the file takes where its source was unclear, contradictory or silent."""

    id: str
    kind: str
    clauses: tuple[str, ...]
    decision: str
    reason: str


@dataclass(frozen=True)
class DealRow:
    """The deal for one player count."""

    players: int
    hand_size: int
    dealt: int
    stock: int
    """Undealt tiles that form the stock (0 when they are dead)."""
    dead: int
    """Undealt tiles that stay out of play."""
    reserve: int


class RuleSpec:
    """A validated rules file. Build it with :func:`load_rules` or :func:`rules_from_data`."""

    def __init__(self, params: RulesFile, *, raw: dict[str, Any], path: Path | None) -> None:
        self.params = params
        self.raw = raw
        self.path = path
        self.dset = DominoSet.from_name(params.set)

    # identity -----------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.params.id

    @property
    def aliases(self) -> list[str]:
        return list(self.params.aliases)

    @cached_property
    def sha256(self) -> str:
        """Hash of the file's data (canonical JSON), recorded in every game record."""
        blob = json.dumps(self.raw, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def name(self, lang: str) -> str:
        _check_lang(lang)
        return render(self.params.name.get(lang), self.text_params(lang))

    def summary(self, lang: str) -> str:
        _check_lang(lang)
        return render(self.params.summary.get(lang), self.text_params(lang))

    # numbers ------------------------------------------------------------------
    @property
    def player_counts(self) -> list[int]:
        return list(self.params.players.counts)

    def hand_size(self, players: int) -> int:
        try:
            return self.params.deal.hand_size[players]
        except KeyError:
            raise InputError(
                f"the rules '{self.id}' are for {self._counts_text()} players, not {players}",
                where="option --players",
                fix=f"use one of {self._counts_text()}",
            ) from None

    def _counts_text(self) -> str:
        return ", ".join(str(n) for n in self.player_counts)

    def teams(self, players: int) -> list[tuple[int, ...]]:
        """The sides of a match: one seat each, or partners opposite (0+2, 1+3)."""
        if self.params.players.teams in ("opposite", "opposite_at_4") and players == 4:
            return [(0, 2), (1, 3)]
        return [(s,) for s in range(players)]

    def deal_table(self) -> list[DealRow]:
        rows = []
        total = len(self.dset)
        if self.params.opening.lead == "station":  # the station double is on the table
            total -= 1
        for n in self.player_counts:
            size = self.params.deal.hand_size[n]
            rest = total - n * size
            stock = rest if self.params.deal.rest == "stock" else 0
            rows.append(
                DealRow(
                    players=n,
                    hand_size=size,
                    dealt=n * size,
                    stock=stock,
                    dead=rest - stock,
                    reserve=self.params.deal.stock_reserve if stock else 0,
                )
            )
        return rows

    # texts --------------------------------------------------------------------
    def text_params(self, lang: str) -> dict[str, Any]:
        _check_lang(lang)
        return text_params(self.params, lang)

    def clause_ids(self) -> list[str]:
        return [c.id for c in self.params.clause]

    def decision_clause_ids(self) -> list[str]:
        """The clauses of this file that can decide something in play."""
        return [c.id for c in self.params.clause if is_engine_clause(c.id)]

    def has_clause(self, clause_id: str) -> bool:
        return clause_id in self.clause_ids()

    def clause_text(self, clause_id: str, lang: str) -> str:
        """The clause's text in ``lang`` with its placeholders filled in."""
        _check_lang(lang)
        for c in self.params.clause:
            if c.id == clause_id:
                return render(c.text.get(lang), self.text_params(lang))
        raise KeyError(f"the rules '{self.id}' have no clause '{clause_id}'")

    def sections(self, lang: str) -> list[Section]:
        """The clauses grouped by section in rulebook order (empty sections left out)."""
        _check_lang(lang)
        params = self.text_params(lang)
        out = []
        for sid in SECTION_IDS:
            clauses = tuple(
                RenderedClause(c.id, sid, render(c.text.get(lang), params), is_engine_clause(c.id))
                for c in self.params.clause
                if c.section == sid
            )
            if clauses:
                out.append(Section(sid, SECTION_TITLES[sid][lang], clauses))
        return out

    def notes(self, lang: str) -> list[RenderedNote]:
        _check_lang(lang)
        params = self.text_params(lang)
        return [
            RenderedNote(
                n.id,
                n.kind,
                tuple(n.clauses),
                render(n.decision.get(lang), params),
                render(n.reason.get(lang), params),
            )
            for n in self.params.note
        ]

    # variants -----------------------------------------------------------------
    def with_changes(self, changes: dict[str, Any]) -> RuleSpec:
        """A copy with parameters changed by dotted key (``"turn.draw_limit": 2``).

        The copy is validated like a file (so its texts render with the new values).
        """
        raw = copy.deepcopy(self.raw)
        for key, value in changes.items():
            node: Any = raw
            parts = key.split(".")
            for part in parts[:-1]:
                node = node.setdefault(part, {})
            node[parts[-1]] = value
        return rules_from_data(raw, path=self.path, what="changed rules")

    def __repr__(self) -> str:
        return f"RuleSpec({self.id!r})"


def _check_lang(lang: str) -> None:
    if lang not in LANGS:
        raise InputError(f"unknown language '{lang}'", where="option --lang", fix="use de or en")


def _check_texts(rules: RulesFile, where: str) -> None:
    """Every required clause is stated; every placeholder renders in both languages."""
    have = {c.id: c for c in rules.clause}
    missing = [cid for cid in required_clause_ids(rules) if cid not in have]
    if missing:
        raise SpecError(
            "the rules file does not state these rules its parameters need: " + ", ".join(missing),
            where=where,
            fix="add a [[clause]] with that id and its text in de and en for each "
            "(docs/rules-format.md lists every clause id)",
        )
    for cid, clause in have.items():
        if cid in ENGINE_CLAUSES and ENGINE_CLAUSES[cid][0] != clause.section:
            raise SpecError(
                f"clause '{cid}' belongs in section '{ENGINE_CLAUSES[cid][0]}', "
                f"not '{clause.section}'",
                where=where,
                fix=f'set section = "{ENGINE_CLAUSES[cid][0]}" for it',
            )
    for lang in LANGS:
        params = text_params(rules, lang)
        items = [(f"clause '{c.id}'", c.text.get(lang)) for c in rules.clause]
        items.append(("name", rules.name.get(lang)))
        items.append(("summary", rules.summary.get(lang)))
        for n in rules.note:
            items.append((f"note '{n.id}'", n.decision.get(lang)))
            items.append((f"note '{n.id}'", n.reason.get(lang)))
        for label, text in items:
            try:
                names = placeholders(text)
            except ValueError as exc:
                raise SpecError(
                    f"{label} ({lang}) has a placeholder deckgen does not fill: {excerpt(exc, 80)}",
                    where=where,
                    fix="write placeholders as {name} with a name from docs/rules-format.md, "
                    "nothing after the name; write a literal brace as {{ or }}",
                ) from None
            for name in names:
                if name not in params:
                    hint = did_you_mean(name, params)
                    raise SpecError(
                        f"{label} ({lang}) uses the placeholder {{{name}}}, which this "
                        "file's parameters do not define" + (f"; {hint}" if hint else ""),
                        where=where,
                        fix="use one of " + ", ".join(sorted(params)),
                    )
            render(text, params)


def rules_from_data(
    data: dict[str, Any], *, path: str | Path | None = None, what: str = "rules file"
) -> RuleSpec:
    """Validate parsed TOML data into a :class:`RuleSpec` (SpecError when invalid)."""
    where = str(path) if path is not None else what
    params = validate(
        RulesFile,
        data,
        path=where,
        what=what,
        fix="correct those keys (docs/rules-format.md lists what each key takes)",
    )
    try:
        DominoSet.from_name(params.set)
    except ValueError:
        raise SpecError(
            f"unknown domino set '{params.set}'",
            where=f"{where}: set",
            fix="use double-0 ... double-18, e.g. double-6",
        ) from None
    dset = DominoSet.from_name(params.set)
    for n in params.players.counts:
        size = params.deal.hand_size[n]
        reserve = params.deal.stock_reserve if params.deal.rest == "stock" else 0
        # every tile that leaves the stock: the hands, the reserve, and the first tile
        # on the table (a turned-up start tile, or the round's station double)
        table = 1 if params.opening.lead in ("turned_up", "station") else 0
        need = n * size + reserve + table
        if need > len(dset):
            what = {"turned_up": "the start tile", "station": "the station double"}.get(
                params.opening.lead, "no tile on the table"
            )
            raise SpecError(
                f"{n} players with {size} tiles each need {need} tiles (with the reserve of "
                f"{reserve} and {what}), but {params.set} has {len(dset)}",
                where=f"{where}: deal.hand_size",
                fix="deal fewer tiles or use a larger set",
            )
    if params.opening.required_double is not None and (
        params.opening.required_double > dset.max_pip
    ):
        raise SpecError(
            f"opening.required_double = {params.opening.required_double} is not in {params.set}",
            where=f"{where}: opening.required_double",
            fix=f"use a value from 0 to {dset.max_pip}",
        )
    if params.opening.lead == "turned_up" and params.deal.rest != "stock":
        raise SpecError(
            "a turned-up start tile needs a stock",
            where=f"{where}: opening.lead",
            fix='set deal.rest = "stock" or choose another lead',
        )
    for key in params.scoring.tile_values:
        if int(key.split("-")[1]) > dset.max_pip:
            raise SpecError(
                f"scoring.tile_values names {key}, which is not in {params.set}",
                where=f"{where}: scoring.tile_values",
            )
    _check_deal_stands(params, dset, where)
    _check_texts(params, where)
    return RuleSpec(params, raw=data, path=Path(path) if path is not None else None)


def _check_deal_stands(params: RulesFile, dset: DominoSet, where: str) -> None:
    """Refuse a deal that the redeal rules throw in almost every time (exact odds)."""
    from deckgen.rulespec.odds import MIN_STANDING, p_deal_stands

    op = params.opening
    k = params.deal.redeal_doubles or 0
    need: Literal["", "any_double", "one_double"] = ""
    if op.no_double == "redeal" and op.first_starter == "highest_double":
        need = "any_double"
    elif op.no_double == "redeal" and op.first_starter == "required_double":
        need = "one_double"
    if not k and not need:
        return
    doubles = dset.max_pip + 1
    for n in params.players.counts:
        hand = params.deal.hand_size[n]
        p = p_deal_stands(len(dset), doubles, n, hand, k, need)
        if p >= MIN_STANDING:
            continue
        why = []
        if k:
            why.append(f"no hand may hold {k} doubles or more")
        if need == "any_double":
            why.append("some double must be dealt")
        elif need == "one_double":
            why.append(f"the double {op.required_double} must be dealt")
        stands = (
            f"with {n} players no deal ever stands"
            if p == 0
            else f"with {n} players a deal stands only {float(p):.2%} of the time (exactly {p})"
        )
        raise SpecError(
            f"{stands}: " + " and ".join(why) + f" in {n} hands of {hand} tiles from "
            f"{len(dset)}, so the tiles would be dealt again and again",
            where=f"{where}: deal.redeal_doubles" if k else f"{where}: opening.no_double",
            fix="allow more doubles per hand (a higher deal.redeal_doubles), deal fewer "
            "tiles, or use a larger set",
        )


def load_rules_file(path: str | Path) -> RuleSpec:
    """Load and validate one rules file by path."""
    return rules_from_data(load_toml(path, what="rules file"), path=path)


def _norm(name: str) -> str:
    return re.sub(r"[\s_\-]+", "-", name.strip().casefold())


def _bundled() -> list[Path]:
    from deckgen.resources import rules_dir

    folder = rules_dir()
    return sorted(folder.glob("*.toml")) if folder.is_dir() else []


def list_rules() -> list[RuleSpec]:
    """Every bundled rules file in ``rules/``, sorted by file name."""
    return [load_rules_file(p) for p in _bundled()]


def _bundled_names() -> dict[str, Path]:
    """Every id, alias and name of the bundled rules files (normalised) -> its file."""
    names: dict[str, Path] = {}
    for path in _bundled():
        data = load_toml(path, what="rules file")
        names[_norm(str(data.get("id", path.stem)))] = path
        for alias in data.get("aliases", []) or []:
            names.setdefault(_norm(str(alias)), path)
        name = data.get("name", {})
        if isinstance(name, dict):
            for value in name.values():
                names.setdefault(_norm(str(value)), path)
    return names


def find_bundled(name: str) -> RuleSpec | None:
    """The bundled rules with this id, alias or name, or None (never reads other files)."""
    key = _norm(name)
    own = {p.stem: p for p in _bundled()}.get(key)
    if own is not None:  # by its id: one file to read
        spec = load_rules_file(own)
        if _norm(spec.id) == key:  # an id is never shadowed by another file's alias
            return spec
    path = _bundled_names().get(key)
    return load_rules_file(path) if path is not None else None


def bundled_suggestion(name: str) -> str:
    """A did-you-mean among the bundled ids and aliases ('' when nothing is close)."""
    return did_you_mean(_norm(name), _bundled_names())


def load_rules(ref: str | Path) -> RuleSpec:
    """The rules named by ``ref``: a path to a TOML file, a bundled id, or an alias.

    Raises InputError (with a did-you-mean) for an unknown name, SpecError for a file
    that does not validate.
    """
    text = str(ref)
    as_path = Path(text).expanduser()
    if text.endswith(".toml") or "/" in text or is_regular_file(as_path):
        return load_rules_file(as_path)
    found = find_bundled(text)
    if found is not None:
        return found
    hint = bundled_suggestion(text)
    ids = sorted({_norm(p.stem) for p in _bundled()})
    raise InputError(
        f"unknown rules '{excerpt(text, 60)}'" + (f"; {hint}" if hint else ""),
        where="argument RULES",
        fix="give a rules id, an alias or a path to a .toml file; `deckgen rules list` "
        "shows them" + (f" ({', '.join(ids)})" if ids else ""),
    )
