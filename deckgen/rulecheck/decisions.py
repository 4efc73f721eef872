"""How often a player has a real choice: decision moves and branching factor.

Takes the rules, a player count, a bot line-up, a seed and a number of rounds; plays
whole matches with the reference engine, every bot wrapped so that each time it is
asked to choose, the distinct moves it is offered are counted; gives
:class:`DecisionCount`. A move is distinct by the tile and the number it is laid
against (laying 3-5 on either of two open 3s is one decision). Turns on which the
player is not asked (drawing, passing, a forced lead) offer one option.

This sample is played apart from the judge's matches (its own seeds), so it never
changes the matches the report names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from deckgen.engine import Engine, make_bots, play_match
from deckgen.engine.moves import Move
from deckgen.engine.players import Player, PlayerView
from deckgen.rulecheck.chunks import ChunkTask, _spec
from deckgen.rulecheck.stats import Mean
from deckgen.rulespec import RuleSpec

DECISION_SEED_OFFSET = 0xD1C15
"""Offset of the sample's match seeds from the run's seed (apart from the judge's)."""


@dataclass
class DecisionCount:
    """Turns, the turns with a real choice, and the options per turn."""

    turns: int = 0
    choices: int = 0
    """Turns that offered two or more distinct moves."""
    options: Mean = field(default_factory=Mean)
    """Distinct moves offered per turn (1 on turns without a choice)."""
    rounds: int = 0

    def to_json(self) -> dict[str, object]:
        return {
            "rounds": self.rounds,
            "turns": self.turns,
            "decision_turns": self.choices,
            "decision_share": round(self.choices / self.turns, 5) if self.turns else None,
            "branching_factor": self.options.to_json(),
        }


class _Counting:
    """A bot that counts what it is offered, then lets the real bot choose."""

    def __init__(self, inner: Player, count: DecisionCount) -> None:
        self.inner = inner
        self.name = inner.name
        self.count = count
        self.asked = 0

    def choose(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        k = len({(m.tile, m.value) for m in moves})
        self.asked += 1
        self.count.options.add(k)
        if k >= 2:
            self.count.choices += 1
        return self.inner.choose(view, moves)


def count_decisions(
    spec: RuleSpec, players: int, bots: tuple[str, ...], seed: int, rounds: int
) -> DecisionCount:
    """Play matches until ``rounds`` rounds are reached and count the decisions."""
    engine = Engine(spec, players)
    count = DecisionCount()
    k = 0
    while count.rounds < rounds:
        mseed = seed * 1000 + DECISION_SEED_OFFSET + k
        k += 1
        wrapped = [_Counting(b, count) for b in make_bots(list(bots), players, mseed)]
        result = play_match(engine, wrapped, mseed)
        turns = sum(r.turns for r in result.rounds)
        asked = sum(w.asked for w in wrapped)
        for _ in range(max(0, turns - asked)):  # not asked: one option
            count.options.add(1)
        count.turns += max(turns, asked)
        count.rounds += len(result.rounds)
    return count


def decisions_of_task(task: ChunkTask, rounds: int) -> DecisionCount:
    """:func:`count_decisions` for the run of a chunk task (in a worker process)."""
    return count_decisions(_spec(task), task.players, task.bots, task.seed, rounds)
