"""Game records: a versioned JSON file of a whole match, and replaying it under its rules.

Takes a :class:`~deckgen.engine.results.MatchResult` played with ``record=True``;
gives a JSON-ready dict (format in ``docs/game-record.md``). :func:`replay` plays a
record again under its rules: the recorded deal, every recorded choice, and checks
that every action is what the rules give and every score is what the rules give. It
returns a :class:`ReplayReport` naming the first action that differs.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from deckgen.engine.core import DealRejected, Engine, ReplayMismatch
from deckgen.engine.match import match_over, next_round
from deckgen.engine.moves import Move
from deckgen.engine.players import PlayerView
from deckgen.engine.results import Action, DealRecord, Gap, InvariantError, MatchResult
from deckgen.engine.seatnames import recorded_seat
from deckgen.errors import SpecError, excerpt
from deckgen.rulespec import RuleSpec, load_rules
from deckgen.specfile import load_json, validate
from deckgen.tiles import Tile

RECORD_FORMAT = "deckgen-game-record"
RECORD_VERSION = 1
MAX_RECORD_BYTES = 8_000_000
"""A record of 1,000 rounds (the most a record holds) of double-18 play is about 6 MB."""
MAX_ROUND_ACTIONS = 5_000
MAX_REDEALS = 1_000


# ------------------------------------------------------------------ writing
def _t(spec: RuleSpec, i: int) -> str:
    return str(spec.dset.tiles[i])


def action_json(spec: RuleSpec, a: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": a.seat, "act": a.kind}
    if a.tile >= 0:
        out["tile"] = _t(spec, a.tile)
    if a.kind == "play":
        out["end"] = a.end
        out["on"] = a.value
    return out


def match_record(
    spec: RuleSpec,
    match: MatchResult,
    *,
    seed: int | None,
    bots: Sequence[str],
) -> dict[str, Any]:
    """The JSON-ready record of ``match`` (played with ``record=True``)."""
    rounds = []
    for n, r in enumerate(match.rounds, start=1):
        if r.deal is None or r.actions is None:
            raise ValueError("the match was not played with record=True")
        rounds.append(
            {
                "round": n,
                "starter": r.starter,
                "redeals": r.redeals,
                "deal": {
                    "hands": [[_t(spec, i) for i in h] for h in r.deal.hands],
                    "stock": [_t(spec, i) for i in r.deal.stock],
                    "dead": [_t(spec, i) for i in r.deal.dead],
                },
                "turned_up": _t(spec, r.turned_up) if r.turned_up >= 0 else None,
                "actions": [action_json(spec, a) for a in r.actions],
                "result": {
                    "end": r.end,
                    "out_seat": r.out_seat,
                    "winners": list(r.winners),
                    "points": list(r.points),
                    "hand_values": list(r.hand_values),
                    "clauses": list(r.clauses),
                    "gaps": [g.situation for g in r.gaps],
                },
                "totals": list(match.totals_after[n - 1]),
            }
        )
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": {
            "id": spec.id,
            "sha256": spec.sha256,
            "path": str(spec.path) if spec.path else None,
        },
        "players": match.players,
        "seed": seed,
        "bots": list(bots),
        "sides": [list(s) for s in match.sides],
        "rounds": rounds,
        "result": {
            "totals": list(match.totals),
            "winners": list(match.winners),
            "clauses": list(match.clauses),
            "gaps": [g.situation for g in match.gaps],
        },
    }


def record_json(record: dict[str, Any]) -> str:
    return json.dumps(record, indent=1, ensure_ascii=False) + "\n"


# ------------------------------------------------------------------ reading
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


Seat = Annotated[int, Field(ge=0, le=7)]
Points = Annotated[int, Field(ge=-(10**9), le=10**9)]
TileName = Annotated[str, Field(max_length=8)]
Name = Annotated[str, Field(max_length=100)]


class RecAction(_Strict):
    seat: Seat
    act: Literal["lead", "play", "draw", "pass"]
    tile: TileName | None = None
    end: int | None = Field(default=None, ge=0, le=10_000)
    on: int | None = Field(default=None, ge=0, le=18)


class RecDeal(_Strict):
    hands: list[list[TileName]] = Field(max_length=8)
    stock: list[TileName] = Field(max_length=190)
    dead: list[TileName] = Field(max_length=190)


class RecRoundResult(_Strict):
    end: Literal["out", "blocked", "reserve"]
    out_seat: int = Field(ge=-1, le=7)
    winners: list[Seat] = Field(max_length=8)
    points: list[Points] = Field(max_length=8)
    hand_values: list[Points] = Field(max_length=8)
    clauses: list[Name] = Field(default_factory=list, max_length=100)
    gaps: list[Name] = Field(default_factory=list, max_length=100)


class RecRound(_Strict):
    round: int = Field(ge=1, le=1000)
    starter: Seat
    redeals: int = Field(default=0, ge=0, le=MAX_REDEALS)
    deal: RecDeal
    turned_up: TileName | None
    actions: list[RecAction] = Field(max_length=MAX_ROUND_ACTIONS)
    result: RecRoundResult
    totals: list[Points] = Field(max_length=8)


class RecRules(_Strict):
    id: Name
    sha256: str = Field(max_length=64)
    path: str | None = Field(default=None, max_length=4096)


class RecMatchResult(_Strict):
    totals: list[Points] = Field(max_length=8)
    winners: list[Seat] = Field(max_length=8)
    clauses: list[Name] = Field(default_factory=list, max_length=100)
    gaps: list[Name] = Field(default_factory=list, max_length=100)


class GameRecord(_Strict):
    format: Literal["deckgen-game-record"]
    version: Literal[1]
    rules: RecRules
    players: int = Field(ge=2, le=8)
    seed: int | None = Field(default=None, ge=0, le=2**53)
    bots: list[Name] = Field(default_factory=list, max_length=8)
    sides: list[list[Seat]] = Field(max_length=8)
    rounds: list[RecRound] = Field(min_length=1, max_length=1000)
    result: RecMatchResult

    @model_validator(mode="after")
    def _consistent(self) -> GameRecord:
        """Cross-field checks, so that replay can trust the record's shape."""
        seats = sorted(s for side in self.sides for s in side)
        if seats != list(range(self.players)):
            raise ValueError(f"sides must hold each of the {self.players} seats once")
        for i, r in enumerate(self.rounds, start=1):
            if len(r.deal.hands) != self.players:
                raise ValueError(f"round {i} deals {len(r.deal.hands)} hands to {self.players}")
            if r.round != i:
                raise ValueError(f"round {i} is numbered {r.round}")
            for a in r.actions:
                if a.seat >= self.players:
                    raise ValueError(
                        f"round {i} has {recorded_seat(a.seat)} acting with {self.players}"
                    )
        return self


def load_record(path: str | Path, *, spec: RuleSpec | None = None) -> GameRecord:
    """Read and validate a record file (SpecError when it is not a valid record).

    With ``spec`` (the record's own rules), every tile it names must also be a tile of
    their set (:func:`check_record_tiles`).
    """
    path = Path(path)
    data = load_json(
        path,
        what="game record",
        max_bytes=MAX_RECORD_BYTES,
        fix="give a file written by `deckgen rules play --record`",
    )
    if not isinstance(data, dict):
        raise SpecError("the game record is not a JSON object", where=str(path))
    record = validate(
        GameRecord,
        data,
        path=path,
        what="game record",
        fix="give a record written by `deckgen rules play --record` (docs/game-record.md)",
    )
    if spec is not None:
        check_record_tiles(record, spec, path=path)
    return record


def _record_tiles(record: GameRecord) -> Iterator[tuple[str, str]]:
    """Every tile name in ``record`` with its key path (``rounds[0].deal.hands[1][3]``)."""
    for r, rnd in enumerate(record.rounds):
        deal = f"rounds[{r}].deal"
        for s, hand in enumerate(rnd.deal.hands):
            yield from ((f"{deal}.hands[{s}][{i}]", name) for i, name in enumerate(hand))
        yield from ((f"{deal}.stock[{i}]", name) for i, name in enumerate(rnd.deal.stock))
        yield from ((f"{deal}.dead[{i}]", name) for i, name in enumerate(rnd.deal.dead))
        if rnd.turned_up is not None:
            yield f"rounds[{r}].turned_up", rnd.turned_up
        for a, action in enumerate(rnd.actions):
            if action.tile is not None:
                yield f"rounds[{r}].actions[{a}].tile", action.tile


def check_record_tiles(record: GameRecord, spec: RuleSpec, *, path: str | Path) -> None:
    """Refuse a record naming a tile outside the set of its rules ``spec``.

    Such a file is not a record deckgen wrote (SpecError, exit 2, with the key path),
    not a game that differs from its rules (which ``replay`` reports, exit 1).
    """
    index = _tile_index(spec)
    for key, name in _record_tiles(record):
        if _tile_key(name) not in index:
            raise SpecError(
                f"the game record names the tile '{excerpt(name, 20)}', which is not a tile"
                f" of {spec.dset.name} (the set of the rules '{spec.id}')",
                where=f"{path}, key {key}",
                fix="give a record written by `deckgen rules play --record` "
                "(docs/game-record.md), or other rules with --rules",
            )


# ------------------------------------------------------------------ replaying
@dataclass
class ReplayReport:
    """The outcome of a replay: ``ok``, or the first difference."""

    ok: bool
    rounds: int
    actions: int
    message: str
    round_no: int = 0
    action_no: int = 0
    """1-based number of the first differing action in its round (0: not an action)."""
    rules_changed: bool = False


class _Script:
    """The recorded choices of a round, handed out in order to scripted players."""

    def __init__(
        self,
        spec: RuleSpec,
        actions: list[RecAction],
        index: dict[str, int],
        produced: list[Action],
    ) -> None:
        self.spec = spec
        self.actions = actions
        self.index = index
        self.produced = produced

    def next_choice(self, seat: int, moves: Sequence[Move]) -> Move:
        k = len(self.produced)  # the engine's next action is the choice
        if k >= len(self.actions):
            raise ReplayMismatch(
                k, f"the record has no more actions, but {recorded_seat(seat)} is to move"
            )
        rec = self.actions[k]
        if rec.seat != seat:
            raise ReplayMismatch(
                k,
                f"the record has {recorded_seat(rec.seat)} acting, "
                f"but {recorded_seat(seat)} is to move",
            )
        for m in moves:
            if rec.act == "pass" and m.is_pass:
                return m
            if rec.act in ("lead", "play") and not m.is_pass:
                tile = self.index.get(rec.tile or "")
                if tile == m.tile and (rec.act == "lead" or rec.end == m.end):
                    return m
        raise ReplayMismatch(k, f"{_describe(rec)} is not a legal move here")


class _Scripted:
    name = "record"

    def __init__(self, script: _Script) -> None:
        self.script = script

    def choose(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        return self.script.next_choice(view.seat, moves)


def _describe(a: RecAction) -> str:
    if a.act == "pass":
        return f"{recorded_seat(a.seat)} passes"
    if a.act == "draw":
        return f"{recorded_seat(a.seat)} draws {a.tile}"
    if a.act == "lead":
        return f"{recorded_seat(a.seat)} leads {a.tile}"
    return f"{recorded_seat(a.seat)} plays {a.tile} on end {a.end} ({a.on})"


def _tile_index(spec: RuleSpec) -> dict[str, int]:
    return {str(t): i for i, t in enumerate(spec.dset.tiles)}


def _tile_key(name: str) -> str:
    """A recorded tile name as the key of :func:`_tile_index` (``5-3`` as ``3-5``)."""
    try:
        return str(Tile.parse(name))
    except ValueError:
        return name


def _parse_tiles(spec: RuleSpec, names: list[str], index: dict[str, int], what: str) -> list[int]:
    out = []
    for name in names:
        key = _tile_key(name)
        if key not in index:
            raise ValueError(f"{what} holds '{name}', which is not a tile of {spec.dset.name}")
        out.append(index[key])
    return out


def replay(record: GameRecord, *, spec: RuleSpec | None = None) -> ReplayReport:
    """Play ``record`` again under its rules and compare everything."""
    spec = spec or load_rules(record.rules.id)
    changed = spec.sha256 != record.rules.sha256
    n = record.players
    if n not in spec.player_counts:
        return ReplayReport(False, 0, 0, f"the rules '{spec.id}' do not allow {n} players")
    engine = Engine(spec, n, check_invariants=True)
    index = _tile_index(spec)
    t = engine.t
    totals = [0] * len(t.sides)
    prev_starter = -1
    prev_winner = -1
    fired: set[str] = set()
    gaps: list[Gap] = []
    actions_checked = 0
    rng = random.Random(0)
    for rno, rec_round in enumerate(record.rounds, start=1):

        def fail(message: str, action_no: int = 0, rno: int = rno) -> ReplayReport:
            return ReplayReport(
                False,
                rno,
                actions_checked,  # noqa: B023 (the count at the time of failing)
                f"round {rno}: {message}",
                rno,
                action_no,
                changed,
            )

        try:
            hands = [
                _parse_tiles(spec, h, index, f"hand {s}")
                for s, h in enumerate(rec_round.deal.hands)
            ]
            stock = _parse_tiles(spec, rec_round.deal.stock, index, "the stock")
            dead = _parse_tiles(spec, rec_round.deal.dead, index, "the dead tiles")
        except ValueError as exc:
            return fail(f"the deal is broken: {exc}")
        every = [i for h in hands for i in h] + stock + dead
        if len(hands) != n or any(len(h) != t.hand_size for h in hands):
            return fail(f"the deal does not give {n} hands of {t.hand_size} tiles")
        if sorted(every) != list(range(len(t.tiles))):
            return fail(
                "the deal does not hold every tile of the set exactly once (the rules' "
                f"double-{spec.dset.max_pip} has {len(t.tiles)} tiles; the deal holds {len(every)})"
            )
        if (stock and not t.stock_rest) or (dead and t.stock_rest):
            return fail("the deal's stock and dead tiles do not fit the rules")
        produced: list[Action] = []
        script = _Script(spec, rec_round.actions, index, produced)
        players = [_Scripted(script) for _ in range(n)]
        error: ReplayMismatch | None = None
        result = None
        try:
            result = engine.play_round(
                rng,
                players,
                round_no=rno,
                prev_starter=prev_starter,
                prev_winner=prev_winner,
                totals=tuple(totals),
                deal=DealRecord(hands, stock, dead, redeals=rec_round.redeals),
                sink=produced,
            )
        except DealRejected:
            return fail("the rules would have dealt this deal again")
        except ReplayMismatch as exc:
            error = exc
        except InvariantError as exc:
            return fail(
                f"after action {len(produced)} an engine invariant broke: {exc}", len(produced)
            )
        recorded = rec_round.actions
        for k, a in enumerate(produced):
            want = action_json(spec, a)
            if k >= len(recorded):
                return fail(
                    f"action {k + 1}: the record ends, but the rules continue with "
                    f"{_describe(RecAction(**want))}",
                    k + 1,
                )
            got = recorded[k].model_dump(exclude_none=True)
            if got != want:
                return fail(
                    f"action {k + 1} differs: the record has {_describe(recorded[k])}, "
                    f"the rules give {_describe(RecAction(**want))}",
                    k + 1,
                )
            actions_checked += 1
        if error is not None:
            return fail(f"action {error.index + 1}: {error}", error.index + 1)
        assert result is not None
        if len(recorded) > len(produced):
            k = len(produced)
            return fail(
                f"action {k + 1}: the round is over under the rules, but the record goes on "
                f"with {_describe(recorded[k])}",
                k + 1,
            )
        want_turned = _t(spec, result.turned_up) if result.turned_up >= 0 else None
        if rec_round.turned_up != want_turned:
            return fail(f"the start tile is {want_turned}, the record has {rec_round.turned_up}")
        if rec_round.starter != result.starter:
            return fail(
                f"{recorded_seat(result.starter)} starts under the rules, "
                f"the record has {recorded_seat(rec_round.starter)}"
            )
        rr = rec_round.result
        checks = [
            ("end", rr.end, result.end),
            ("out seat", rr.out_seat, result.out_seat),
            ("winners", rr.winners, list(result.winners)),
            ("points", rr.points, list(result.points)),
            ("hand values", rr.hand_values, list(result.hand_values)),
        ]
        for label, have, want_v in checks:
            if have != want_v:
                return fail(f"the recorded {label} {have} differ from the rules' {want_v}")
        for i, p in enumerate(result.points):
            totals[i] += p
        if rec_round.totals != totals:
            return fail(f"the recorded totals {rec_round.totals} differ from {totals}")
        nxt = next_round(t, result, rno)
        prev_starter, prev_winner = nxt.prev_starter, nxt.prev_winner
        over = match_over(engine, totals, rno, fired, gaps)
        last = rno == len(record.rounds)
        if over is not None and not last:
            return fail("the match is over under the rules, but the record goes on")
        if over is None and last:
            return fail("the record ends, but the match is not over under the rules")
        if last and over is not None and list(over) != record.result.winners:
            return fail(
                f"the match winners are {list(over)}, the record has {record.result.winners}"
            )
    if record.result.totals != totals:
        return ReplayReport(
            False, len(record.rounds), actions_checked,
            f"the recorded final totals {record.result.totals} differ from {totals}",
            rules_changed=changed,
        )  # fmt: skip
    return ReplayReport(
        True,
        len(record.rounds),
        actions_checked,
        f"{len(record.rounds)} rounds and {actions_checked} actions replay exactly",
        rules_changed=changed,
    )
