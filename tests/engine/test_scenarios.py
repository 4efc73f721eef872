"""Scenario tests: a scripted deal per file, the expected actions and points.

Each ``scenarios/*.toml`` names the clause it shows (``clause``), the rules file
(``rules``, with optional ``changes``), the player count and the deal (hands and the
stock in draw order, as tile names). Seats lay the tiles the expected actions name
(a scripted player picks them); draws, passes and the round's end come from the
rules. ``[expect]`` gives the actions (``"0 draws 4-6"``, ``"1 plays 3-4 on 4"``,
``"0 leads 6-6"``, ``"1 passes"``), the starter, how the round ends, the points per
side and the clause ids that must (``clauses``) or must not (``not_clauses``) have
decided something. ``seed`` seeds the round's random numbers (default 0; without a
``[deal]`` the deal comes from them too); ``round_no``, ``prev_starter`` and
``prev_winner`` place the round in a match. Every round-level clause id has a file
(``make_scenarios.py`` wrote the ones without a hand-made one).

A match scenario (``[expect.match]`` instead of actions) plays a whole seeded match
through :func:`~deckgen.engine.play_match` with the named ``bots`` (default random)
and holds it to every round's starter, end, points and the totals after it (so the
number of rounds, when the match ends, who starts the next round), the winners, the
match-level clause ids that decided something and the gaps met; ``round_count`` stands
in for the list when a match is too long to write out. Every ``match.*`` clause id of
the bundled rules files and of the match module's open situations has one
(``make_match_scenarios.py`` wrote them, except ``match.round_limit.toml``).
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from deckgen.engine import Action, DealRecord, Engine, Move, PlayerView, make_bots, play_match
from deckgen.rulespec import GAP_SITUATIONS, RuleSpec, list_rules, load_rules

HERE = Path(__file__).resolve().parent / "scenarios"
FILES = sorted(HERE.glob("*.toml"))


def _spec(data: dict[str, Any]) -> RuleSpec:
    spec = load_rules(data["rules"])
    changes = data.get("changes")
    return spec.with_changes(changes) if changes else spec


def _index(spec: RuleSpec) -> dict[str, int]:
    return {str(t): i for i, t in enumerate(spec.dset.tiles)}


def describe(spec: RuleSpec, a: Action, want: str = "") -> str:
    """An action as the scenario files write it; with the end it went on (``on 5 (end
    2)``) when the expected action ``want`` names one (where ends of the same number
    differ: a spinner's side and a long side)."""
    tile = str(spec.dset.tiles[a.tile]) if a.tile >= 0 else ""
    if a.kind == "pass":
        return f"{a.seat} passes"
    if a.kind == "draw":
        return f"{a.seat} draws {tile}"
    if a.kind == "lead":
        return f"{a.seat} leads {tile}"
    end = f" (end {a.end})" if "(end " in want else ""
    return f"{a.seat} plays {tile} on {a.value}{end}"


class Scripted:
    """Lays the tiles the expected actions name, in order."""

    name = "scripted"

    def __init__(self, spec: RuleSpec, expected: list[str]) -> None:
        self.spec = spec
        self.expected = expected

    def choose(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        k = len(view.history)
        want = self.expected[k] if k < len(self.expected) else "(nothing)"
        for m in moves:
            if m.is_pass:
                if want == f"{view.seat} passes":
                    return m
                continue
            kind = "leads" if m.end < 0 else "plays"
            text = f"{view.seat} {kind} {self.spec.dset.tiles[m.tile]}"
            if m.end >= 0:
                text += f" on {m.value}"
                if "(end " in want:
                    text += f" (end {m.end})"
            if text == want:
                return m
        raise AssertionError(f"action {k}: expected '{want}', which is not a legal move")


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path) -> None:
    run_scenario(tomllib.loads(path.read_text()))


def test_a_wrong_expectation_fails() -> None:
    data = tomllib.loads((HERE / "end.reserve-after-own-draws.toml").read_text())
    data["expect"]["points"] = [5, -46]  # as if seat 0 had passed and gone out later
    with pytest.raises(AssertionError):
        run_scenario(data)
    data = tomllib.loads((HERE / "end.reserve-after-own-draws.toml").read_text())
    data["expect"]["actions"] = [*data["expect"]["actions"], "0 passes"]
    with pytest.raises(AssertionError):
        run_scenario(data)


def run_scenario(data: dict[str, Any]) -> None:
    """Play one scenario and hold it to its expectations."""
    spec = _spec(data)
    shows = data["clause"] in spec.clause_ids() or data["clause"] in GAP_SITUATIONS
    assert shows, "the scenario shows a clause of its rules (or a situation it leaves open)"
    if "match" in data["expect"]:
        run_match_scenario(spec, data)
        return
    n = data["players"]
    index = _index(spec)
    record = None
    if "deal" in data:  # else the deal comes from random.Random(seed)
        deal = data["deal"]
        record = DealRecord(
            hands=[[index[x] for x in h] for h in deal["hands"]],
            stock=[index[x] for x in deal["stock"]],
            dead=[index[x] for x in deal.get("dead", [])],
        )
    expect = data["expect"]
    engine = Engine(spec, n, check_invariants=True)
    players = [Scripted(spec, expect["actions"]) for _ in range(n)]
    r = engine.play_round(
        random.Random(data.get("seed", 0)),
        players,
        deal=record,
        record=True,
        round_no=data.get("round_no", 1),
        prev_starter=data.get("prev_starter", -1),
        prev_winner=data.get("prev_winner", -1),
    )
    assert r.actions is not None
    assert r.deal is not None
    if "starter" in expect:
        assert r.starter == expect["starter"]
    wants = [*expect["actions"], *[""] * len(r.actions)]
    assert [describe(spec, a, w) for a, w in zip(r.actions, wants, strict=False)] == expect[
        "actions"
    ]
    if "turned_up" in expect:
        assert r.turned_up >= 0
        assert str(spec.dset.tiles[r.turned_up]) == expect["turned_up"]
    if "stock_after" in expect:
        assert [str(spec.dset.tiles[i]) for i in r.deal.stock] == expect["stock_after"]
    assert r.end == expect["end"]
    if "points" in expect:
        assert list(r.points) == expect["points"]
    assert set(expect.get("clauses", [])) <= set(r.clauses)
    assert not set(expect.get("not_clauses", [])) & set(r.clauses)


ROUND_CLAUSES = {
    "setup.deal", "setup.rest", "setup.teams", "setup.redeal", "start.first",
    "start.no_double", "start.later", "lead.any", "lead.double", "lead.turned_up",
    "lead.skip_double", "play.match", "play.doubles", "play.draw", "play.draw_limit",
    "play.play_drawn", "play.pass", "end.out", "end.blocked", "end.reserve", "score.out",
    "score.blocked", "score.tie", "score.bonus", "score.bands",
}  # fmt: skip


def test_every_round_clause_has_a_scenario() -> None:
    shown = {tomllib.loads(p.read_text())["clause"] for p in FILES}
    assert shown >= ROUND_CLAUSES


def run_match_scenario(spec: RuleSpec, data: dict[str, Any]) -> None:
    """Play one seeded match and hold it to its rounds, totals, winners and clauses."""
    n, seed = data["players"], data["seed"]
    expect = data["expect"]["match"]
    m = play_match(Engine(spec, n), make_bots(data.get("bots", ["random"]), n, seed), seed)
    played = [
        {"starter": r.starter, "end": r.end, "points": list(r.points), "totals": list(after)}
        for r, after in zip(m.rounds, m.totals_after, strict=True)
    ]
    rounds = expect.get("rounds", [])
    for k, (got, want) in enumerate(zip(played, rounds, strict=False), start=1):
        assert got == want, f"round {k}: played {got}, expected {want}"
    count = expect.get("round_count", len(rounds))
    assert len(played) == count, f"the match ends after round {len(played)}, not {count}"
    assert list(m.totals) == expect["totals"]
    assert list(m.winners) == expect["winners"]
    assert set(expect.get("clauses", [])) <= set(m.clauses)
    assert not set(expect.get("not_clauses", [])) & set(m.clauses)
    assert [g.situation for g in m.gaps] == expect.get("gaps", [])


def test_a_wrong_match_expectation_fails() -> None:
    data = tomllib.loads((HERE / "match.tie-shared.toml").read_text())
    data["expect"]["match"]["winners"] = data["expect"]["match"]["winners"][:1]
    with pytest.raises(AssertionError):
        run_scenario(data)
    data = tomllib.loads((HERE / "match.end-rounds.toml").read_text())
    data["expect"]["match"]["rounds"].pop()
    with pytest.raises(AssertionError, match="ends after round 4, not 3"):
        run_scenario(data)


def test_every_match_clause_has_a_scenario() -> None:
    bundled = {c for spec in list_rules() for c in spec.clause_ids() if c.startswith("match.")}
    assert bundled >= {"match.end", "match.several_at_target", "match.tie"}
    bundled |= {g for g in GAP_SITUATIONS if g.startswith("match.")}  # match.round_limit
    shown = {tomllib.loads(p.read_text())["clause"] for p in FILES}
    assert bundled <= shown, f"no scenario for {sorted(bundled - shown)}"
