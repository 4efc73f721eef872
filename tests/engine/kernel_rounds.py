"""Shared fixtures of the fast engines' tests: the rules files, the kernel's rounds and
how a fast engine's rounds are compared with them.

Each round has its own deal seed and its own stream of decision numbers: the kernel's
random bots share one ``random.Random`` per round (so the k-th random decision of the
round uses the stream's k-th number); a fast engine gets the kernel's recorded deals and
the same numbers (:class:`~deckgen.engine.backends.protocol.Replay`). :func:`compare`
demands every round equal and names the case, the round, its seeds and the first kernel
action where the two part.
"""

from __future__ import annotations

import copy
import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from deckgen.engine import Engine, RoundResult
from deckgen.engine.backends.protocol import Replay
from deckgen.engine.backends.registry import TRAINS
from deckgen.engine.backends.rounds import END_CODES, Rounds
from deckgen.engine.players import GreedyBot, Player, RandomBot
from deckgen.rulecheck.batchcount import clause_masks
from deckgen.rulecheck.stats import Mean, Proportion
from deckgen.rulespec import RuleSpec, list_rules, load_rules, rules_from_data

LINEUPS: tuple[tuple[str, ...], ...] = (("random",), ("greedy",), ("random", "greedy"))
BENCH = Path(__file__).resolve().parents[2] / "bench"

ROUNDING = {
    "id": "score.rounding",
    "section": "scoring",
    "text": {
        "de": "Die Punkte am Rundenende werden auf ein Vielfaches von {round_to} gerundet.",
        "en": "A round's points are rounded to the nearest multiple of {round_to}.",
    },
}


def _with_clause(spec: RuleSpec, changes: dict[str, Any], clause: dict[str, Any]) -> RuleSpec:
    """``spec`` with ``changes`` and the clause they need stated."""
    raw = copy.deepcopy(spec.raw)
    for key, value in changes.items():
        section, name = key.split(".")
        raw[section][name] = value
    raw["clause"] = [*raw["clause"], clause]
    return rules_from_data(raw, path=spec.path)


def _variant(
    spec: RuleSpec, changes: dict[str, Any], add: tuple[str, ...] = (), drop: tuple[str, ...] = ()
) -> RuleSpec:
    """``spec`` with ``changes``, clauses ``add`` (a plain text) and without ``drop``."""
    clauses = [c for c in spec.raw["clause"] if c["id"] not in drop]
    for cid in add:
        text = {"de": f"Testregel {cid}.", "en": f"Test rule {cid}."}
        section = "setup" if cid.startswith("setup.") else "scoring"
        clauses.append({"id": cid, "section": section, "text": text})
    return spec.with_changes({**changes, "clause": clauses})


def _specs() -> dict[str, RuleSpec]:
    """Every bundled rules file, the benchmark anchors and variants that reach the
    other branches (spinner, keeping a drawn tile, a long line, other scoring, other
    draw rules, a reserve and partners on trains and feet)."""
    out = {s.id: s for s in list_rules()}
    out["anchor-openspiel"] = load_rules(BENCH / "engine_openspiel.toml")
    out["anchor-dominoes"] = load_rules(BENCH / "engine_dominoes.toml")
    dc, bc = out["draw-classic"], out["block-classic"]
    out["v-spinner"] = dc.with_changes({"board.shape": "spinner"})
    out["v-may"] = dc.with_changes({"turn.play_drawn": "may"})
    out["v-two-may"] = out["two-player"].with_changes({"turn.play_drawn": "may"})
    out["v-card-may"] = out["card-domino"].with_changes({"turn.play_drawn": "may"})
    out["v-twelve-line"] = out["double-twelve"].with_changes({"board.shape": "line"})
    out["v-penalty"] = bc.with_changes(
        {"scoring.method": "penalty", "match.end": "rounds", "match.rounds": 3}
    )
    out["v-differences"] = bc.with_changes({"scoring.method": "lowest_takes_differences"})
    out["v-rounded"] = _with_clause(dc, {"scoring.round_to": 5}, ROUNDING)
    mt, cf = out["mexican-train"], out["chicken-foot"]
    until = {"turn.draw": "until_playable", "turn.draw_limit": None}
    out["v-trains-until"] = _variant(mt, until, drop=("play.draw_limit",))
    out["v-trains-reserve"] = _variant(
        mt, {"deal.stock_reserve": 6, "scoring.out_bonus": 25}, ("end.reserve", "score.bonus")
    )
    out["v-trains-teams"] = _variant(mt, {"players.teams": "opposite_at_4"}, ("setup.teams",))
    out["v-feet-limit"] = _variant(
        cf, {"turn.draw_limit": 3, "deal.stock_reserve": 2}, ("end.reserve",)
    )
    out["v-feet-until"] = _variant(cf, until, drop=("play.draw_limit",))
    return out


SPECS = _specs()


def player_counts(rid: str) -> tuple[int, ...]:
    """The counts a case plays: every count of a file, two and four for a variant of
    trains or feet (their sets are large; the bundled files cover every count)."""
    spec = SPECS[rid]
    if rid.startswith(("v-trains", "v-feet")):
        return (2, 4)
    return tuple(spec.player_counts)


def is_trains(spec: RuleSpec) -> bool:
    return spec.params.board.shape in TRAINS


class Logged:
    """A round's stream, logging which seat used each number."""

    def __init__(self, seat: int, log: list[int], shared: random.Random) -> None:
        self.seat = seat
        self.log = log
        self.shared = shared

    def random(self) -> float:
        self.log.append(self.seat)
        return self.shared.random()


@dataclass
class Round:
    """One round of a case: its seeds and what the kernel gave."""

    index: int
    deal_seed: int
    stream_seed: int
    round_no: int
    prev_starter: int
    result: RoundResult


def players(lineup: tuple[str, ...], n: int, stream_seed: int) -> list[Player]:
    """The seats' bots; the random ones share one stream per round."""
    shared = random.Random(stream_seed)
    log: list[int] = []
    out: list[Player] = []
    for seat in range(n):
        name = lineup[min(seat, len(lineup) - 1)]
        if name == "random":
            out.append(RandomBot(Logged(seat, log, shared)))  # type: ignore[arg-type]
        else:
            out.append(GreedyBot(random.Random(0)))
    return out


def kernel_rounds(
    spec: RuleSpec, n: int, lineup: tuple[str, ...], count: int | None = None
) -> list[Round]:
    """Rounds the kernel plays (invariants checked, recorded): first and later rounds,
    or for trains and feet round numbers 1 to 14, so the station series wraps."""
    trains = is_trains(spec)
    count = count if count is not None else (28 if trains else 40)
    cycle = 14 if trains else 2
    engine = Engine(spec, n, check_invariants=True)
    out = []
    for i in range(count):
        deal_seed, stream_seed = 1000 + i, 5000 + i
        round_no = 1 + i % cycle
        prev = (i // cycle + round_no - 2) % n if round_no > 1 else -1
        r = engine.play_round(
            random.Random(deal_seed),
            players(lineup, n, stream_seed),
            round_no=round_no,
            prev_starter=prev,
            prev_winner=prev,
            record=True,
        )
        out.append(Round(i, deal_seed, stream_seed, round_no, prev, r))
    return out


def replay_of(spec: RuleSpec, rounds: list[Round]) -> Replay:
    """The kernel's rounds as a fast engine is given them."""
    width = 3000 if is_trains(spec) else 400  # more numbers than any round decides
    numbers = np.array(
        [[g.random() for _ in range(width)] for g in (random.Random(r.stream_seed) for r in rounds)]
    )
    deals = []
    for r in rounds:
        assert r.result.deal is not None
        deals.append(r.result.deal)

    def ints(values: list[int]) -> np.ndarray[Any, np.dtype[np.int64]]:
        return np.array(values, dtype=np.int64)

    return Replay(
        tuple(deals),
        tuple(r.deal_seed for r in rounds),
        ints([r.round_no for r in rounds]),
        ints([r.prev_starter for r in rounds]),
        ints([r.result.starter for r in rounds]),
        numbers,
    )


def fields(r: RoundResult) -> dict[str, Any]:
    return {
        "end": r.end,
        "out_seat": r.out_seat,
        "starter": r.starter,
        "turns": r.turns,
        "draws": r.draws,
        "passes": r.passes,
        "played": r.tiles_played,
        "hand_values": tuple(r.hand_values),
        "points": tuple(r.points),
        "winners": tuple(r.winners),
    }


def got_fields(out: Rounds, k: int) -> dict[str, Any]:
    return {
        "end": END_CODES[int(out.end[k])],
        "out_seat": int(out.out_seat[k]),
        "starter": int(out.starter[k]),
        "turns": int(out.turns[k]),
        "draws": int(out.draws[k]),
        "passes": int(out.passes[k]),
        "played": int(out.played[k]),
        "hand_values": tuple(out.hand_values[k].tolist()),
        "points": tuple(out.points[k].tolist()),
        "winners": tuple(np.nonzero(out.winners[k])[0].tolist()),
    }


def where_they_part(spec: RuleSpec, r: RoundResult, got: dict[str, Any]) -> str:
    """The first kernel action after which its running counts exceed the engine's."""
    assert r.actions is not None
    draws = passes = played = 0
    for k, a in enumerate(r.actions, start=1):
        draws += a.kind == "draw"
        passes += a.kind == "pass"
        played += a.kind in ("lead", "play")
        if draws > got["draws"] or passes > got["passes"] or played > got["played"]:
            tile = f" {spec.dset.tiles[a.tile]}" if a.tile >= 0 else ""
            return f"action {k} ({a.kind}{tile} by seat {a.seat}, end {a.end})"
    return "after the kernel's last action"


def compare(
    case: str, engine: str, spec: RuleSpec, n: int, rounds: list[Round], out: Rounds
) -> None:
    """Every round of ``out`` equals the kernel's, and every clause the check counts from
    the fast rounds (:func:`~deckgen.rulecheck.batchcount.clause_masks`) is counted in
    exactly the rounds where the kernel decided it; else an error naming the case, the
    round, its seeds and the first action where they part."""
    assert len(out.end) == len(rounds), f"{case}: {engine} gave {len(out.end)} rounds"
    for k, rnd in enumerate(rounds):
        want = fields(rnd.result)
        got = got_fields(out, k)
        if got != want:
            diff = ", ".join(
                f"{f}: kernel {want[f]!r}, {engine} {got[f]!r}" for f in want if want[f] != got[f]
            )
            raise AssertionError(
                f"{case}: {engine} differs from the kernel in round {rnd.index} (deal seed "
                f"{rnd.deal_seed}, stream seed {rnd.stream_seed}, round_no {rnd.round_no}); "
                f"they part at {where_they_part(spec, rnd.result, got)}; {diff}"
            )
    masks = clause_masks(spec, n, out, np.array([rnd.round_no == 1 for rnd in rounds]))
    for k, rnd in enumerate(rounds):
        want_c = set(rnd.result.clauses) & set(masks)
        got_c = {cid for cid, mask in masks.items() if mask[k]}
        if got_c != want_c:
            raise AssertionError(
                f"{case}: {engine} counts {sorted(got_c - want_c)} and misses "
                f"{sorted(want_c - got_c)} in round {rnd.index} (deal seed {rnd.deal_seed}, "
                f"stream seed {rnd.stream_seed}, round_no {rnd.round_no}; the kernel decided "
                f"{sorted(rnd.result.clauses)})"
            )


def close(a: Mean | Proportion, b: Mean | Proportion) -> bool:
    """Two estimates agree within 4.5 standard errors."""
    if isinstance(a, Mean) and isinstance(b, Mean):
        se = math.hypot(a.stdev / math.sqrt(a.count), b.stdev / math.sqrt(b.count))
        return abs(a.mean - b.mean) <= 4.5 * se + 1e-9
    assert isinstance(a, Proportion)
    assert isinstance(b, Proportion)
    p = (a.hits + b.hits) / (a.trials + b.trials)
    se = math.sqrt(p * (1 - p) * (1 / a.trials + 1 / b.trials))
    return abs(a.value - b.value) <= 4.5 * se + 1e-9
