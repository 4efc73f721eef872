"""How often a player has a real choice: decision moves and branching factor.

The reference engine's matches played with invariant checks (the judge's,
:mod:`deckgen.rulecheck.chunks`) are played by bots wrapped in :class:`Counting`: each
time a bot is asked to choose, the distinct moves it is offered are counted into a
:class:`DecisionCount`. A move is distinct by the tile and the number it is laid
against (laying 3-5 on either of two open 3s is one decision). Turns on which the
player is not asked (drawing, passing, a forced lead) offer one option
(:func:`count_match`). The wrapper only counts: the bot it wraps chooses, so the
matches are the same as without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from deckgen.engine.moves import Move
from deckgen.engine.players import Player, PlayerView
from deckgen.rulecheck.stats import Mean


@dataclass
class DecisionCount:
    """Turns, the turns with a real choice, and the options per turn."""

    turns: int = 0
    choices: int = 0
    """Turns that offered two or more distinct moves."""
    options: Mean = field(default_factory=Mean)
    """Distinct moves offered per turn (1 on turns without a choice)."""
    rounds: int = 0

    def merge(self, other: DecisionCount) -> None:
        self.turns += other.turns
        self.choices += other.choices
        self.options.merge(other.options)
        self.rounds += other.rounds

    def to_json(self) -> dict[str, object]:
        return {
            "rounds": self.rounds,
            "turns": self.turns,
            "decision_turns": self.choices,
            "decision_share": round(self.choices / self.turns, 5) if self.turns else None,
            "branching_factor": self.options.to_json(),
        }


class Counting:
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


def count_match(wrapped: Sequence[Counting], turns: int, count: DecisionCount) -> None:
    """After a match played by ``wrapped`` bots over ``turns`` turns: the turns on which
    no bot was asked (drawing, passing, a forced lead) offered one option."""
    asked = sum(w.asked for w in wrapped)
    for _ in range(max(0, turns - asked)):
        count.options.add(1)
    count.turns += max(turns, asked)
