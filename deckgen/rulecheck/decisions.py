"""How often a player has a real choice: decision moves and branching factor.

The reference engine's matches played with invariant checks (the judge's,
:mod:`deckgen.rulecheck.chunks`) show the engine's every decision to a
:class:`DecisionCount` (the engine's ``offered``): each time a player is asked to
choose, the distinct moves it is offered are counted. A move is distinct by the tile and
the number it is laid against (laying 3-5 on either of two open 3s is one decision).
Turns on which the player is not asked (drawing, passing, a forced lead) offer one
option (:func:`count_match`). Counting changes nothing: the matches are the same as
without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from deckgen.engine.moves import Move
from deckgen.rulecheck.stats import Mean


@dataclass
class DecisionCount:
    """Turns, the turns with a real choice, and the options per turn."""

    turns: int = 0
    offered: dict[int, int] = field(default_factory=dict)
    """Turns by the number of distinct moves they offered (1 on turns without a choice)."""
    rounds: int = 0
    asked: int = 0
    """Decisions seen in the match being played (:func:`count_match` settles them)."""

    def offer(self, moves: Sequence[Move]) -> None:
        """A player is asked to choose among ``moves`` (the engine's ``offered``)."""
        n = len(moves)
        k = n if n < 2 else len({(m.tile, m.value) for m in moves})
        self.asked += 1
        self.offered[k] = self.offered.get(k, 0) + 1

    @property
    def choices(self) -> int:
        """Turns that offered two or more distinct moves."""
        return sum(n for k, n in self.offered.items() if k >= 2)

    @property
    def options(self) -> Mean:
        """Distinct moves offered per turn."""
        return Mean.of_counts(self.offered)

    def merge(self, other: DecisionCount) -> None:
        self.turns += other.turns
        for k, n in other.offered.items():
            self.offered[k] = self.offered.get(k, 0) + n
        self.rounds += other.rounds

    def to_json(self) -> dict[str, object]:
        return {
            "rounds": self.rounds,
            "turns": self.turns,
            "decision_turns": self.choices,
            "decision_share": round(self.choices / self.turns, 5) if self.turns else None,
            "branching_factor": self.options.to_json(),
        }


def count_match(count: DecisionCount, turns: int) -> None:
    """After a match of ``turns`` turns whose decisions ``count`` saw
    (:meth:`DecisionCount.offer`): the turns on which no player was asked (drawing,
    passing, a forced lead) offered one option."""
    asked = count.asked
    if turns > asked:
        count.offered[1] = count.offered.get(1, 0) + turns - asked
    count.turns += max(turns, asked)
    count.asked = 0
