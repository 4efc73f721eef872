"""Write a scenario file for each match-level clause id (run by hand).

For each case below, plays seeded matches of a bundled rules file with random bots
and keeps the shortest match in which the case happens (a tie on the best total, two
sides past the target in one round, ...); writes its seed, bots and every round's
starter, end and points, the totals after each round, the winners and the clause ids
that decided something to ``scenarios/<name>.toml``. Read every file it writes before
committing it: the scenario tests then hold the kernel's match loop to them.

Run: ``.venv/bin/python tests/engine/make_match_scenarios.py [name ...]``
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckgen.engine import Engine, MatchResult, make_bots, play_match
from deckgen.rulespec import RuleSpec, load_rules

HERE = Path(__file__).resolve().parent / "scenarios"
SEEDS = 4000


def _best(m: MatchResult) -> list[int]:
    best = max(m.totals)
    return [i for i, v in enumerate(m.totals) if v == best]


def _several_past(m: MatchResult, target: int) -> bool:
    """Two or more sides reach the target in the last round, not on the same total."""
    before = m.totals_after[-2] if len(m.totals_after) > 1 else (0,) * len(m.totals)
    new = [i for i, v in enumerate(m.totals) if v >= target and before[i] < target]
    return len(new) >= 2 and len({m.totals[i] for i in new}) == len(new)


def _played_on(m: MatchResult, target: int) -> bool:
    """After some round the leaders were level at or past the target, and play went on."""
    for after in m.totals_after[:-1]:
        best = max(after)
        if best >= target and after.count(best) >= 2:
            return True
    return False


def _tied_after_rounds(m: MatchResult) -> bool:
    return len(m.winners) >= 2


@dataclass(frozen=True)
class Case:
    name: str
    clause: str
    rules: str
    players: int
    what: str
    """The comment line saying what the scenario shows."""
    wanted: Callable[[MatchResult, RuleSpec], bool]
    changes: dict[str, Any] = field(default_factory=dict)


def _target(spec: RuleSpec) -> int:
    target = spec.params.match.target
    assert target is not None
    return target


CASES = [
    Case(
        "match.end-target",
        "match.end",
        "block-classic",
        2,
        "The first to reach the target wins: the match stops after the round that gets there.",
        lambda m, s: True,
    ),
    Case(
        "match.end-rounds",
        "match.end",
        "card-domino",
        3,
        "A fixed number of rounds: the match stops after round 4, the highest total wins.",
        lambda m, s: len(m.winners) == 1,
    ),
    Case(
        "match.several_at_target",
        "match.several_at_target",
        "all-fives",
        3,
        "Two reach the target in the same round: the one with more points wins.",
        lambda m, s: _several_past(m, _target(s)),
        {"match.target": 60},
    ),
    Case(
        "match.tie-shared",
        "match.tie",
        "card-domino",
        3,
        "Level on the best total after the last round: those players share the win.",
        lambda m, s: _tied_after_rounds(m),
    ),
    Case(
        "match.tie-play-on",
        "match.tie",
        "all-fives",
        2,
        "Level on the best total past the target: another round is played until one leads.",
        lambda m, s: _played_on(m, _target(s)),
        {"match.target": 60},
    ),
    Case(
        "match.tournament",
        "match.tournament",
        "partnership",
        4,
        "A tournament game shortened to 10 points: it ends when a pair reaches 10, not 30.",
        lambda m, s: max(m.totals) < 30,
        {"match.target": 10},
    ),
]


def _inline(changes: dict[str, Any]) -> str:
    return "{ " + ", ".join(f'"{k}" = {v}' for k, v in changes.items()) + " }"


def write(case: Case, seed: int, m: MatchResult) -> str:
    lines = [
        f"# {case.what}",
        f"# The shortest seeded match of {case.rules} ({case.players} players, random bots)",
        "# showing it; written by tests/engine/make_match_scenarios.py, then read.",
        f'clause = "{case.clause}"',
        f'rules = "{case.rules}"',
    ]
    if case.changes:
        lines.append(f"changes = {_inline(case.changes)}")
    lines += [f"players = {case.players}", f"seed = {seed}", 'bots = ["random"]', ""]
    lines.append("[expect.match]")
    lines.append(f"winners = {list(m.winners)}")
    lines.append(f"totals = {list(m.totals)}")
    lines.append(f"clauses = {list(m.clauses)}".replace("'", '"'))
    lines.append(f"gaps = {[g.situation for g in m.gaps]}".replace("'", '"'))
    for r, after in zip(m.rounds, m.totals_after, strict=True):
        lines += ["", "[[expect.match.rounds]]"]
        lines.append(f'starter = {r.starter}\nend = "{r.end}"')
        lines.append(f"points = {list(r.points)}\ntotals = {list(after)}")
    return "\n".join(lines) + "\n"


def find(case: Case) -> tuple[int, MatchResult]:
    spec = load_rules(case.rules)
    if case.changes:
        spec = spec.with_changes(case.changes)
    engine = Engine(spec, case.players)
    found: tuple[int, MatchResult] | None = None
    for seed in range(SEEDS):
        m = play_match(engine, make_bots(["random"], case.players, seed), seed)
        if case.wanted(m, spec) and (found is None or len(m.rounds) < len(found[1].rounds)):
            found = (seed, m)
            if len(m.rounds) <= 2:
                break
    if found is None:
        raise SystemExit(f"{case.name}: no match among {SEEDS} seeds")
    return found


def main(names: list[str]) -> None:
    for case in CASES:
        if names and case.name not in names:
            continue
        seed, m = find(case)
        (HERE / f"{case.name}.toml").write_text(write(case, seed, m), encoding="utf-8")
        print(f"{case.name}: seed {seed}, {len(m.rounds)} rounds")


if __name__ == "__main__":
    main(sys.argv[1:])
