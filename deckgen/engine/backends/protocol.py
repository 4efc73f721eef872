"""What a fast engine is: the one small interface every back-end implements.

Takes nothing; gives :class:`Replay` (rounds the kernel played, given to an engine to
play again: the kernel's deals, starters and one stream of decision numbers per round),
:class:`FastEngine` (an engine made for one rules file and player count: it replays
such rounds and gives :class:`~deckgen.engine.backends.rounds.Rounds`) and
:class:`BatchEngine` (a fast engine that also plays whole matches from a numpy
generator, as the rules check needs). The registry
(:mod:`deckgen.engine.backends.registry`) says which engine plays what, and chooses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import numpy as np

    from deckgen.engine.backends.arrays import Floats, Ints
    from deckgen.engine.backends.matches import Matches
    from deckgen.engine.backends.rounds import Rounds
    from deckgen.engine.results import DealRecord
    from deckgen.engine.tables import Tables
    from deckgen.rulespec import RuleSpec


@dataclass(frozen=True)
class Replay:
    """Rounds the kernel played, to be played again exactly.

    Round ``g`` was dealt from ``random.Random(deal_seeds[g])`` (giving ``deals[g]``),
    is round ``round_no[g]`` of its match after a round started by
    ``prev_starter[g]`` (-1 in a first round; the previous round's winner too), and
    its k-th random decision used ``numbers[g, k]``. ``starter`` is the kernel's
    starter of each round (a later round's starter follows from the match)."""

    deals: tuple[DealRecord, ...]
    deal_seeds: tuple[int, ...]
    round_no: Ints
    prev_starter: Ints
    starter: Ints
    numbers: Floats

    def rest(self, width: int = 0, fill: int = 0) -> Ints:
        """The stock and the dead tiles of each deal in draw order, (rounds, width)."""
        import numpy as np

        rows = [d.stock + d.dead for d in self.deals]
        out = np.full((len(rows), max([width, *map(len, rows)])), fill, dtype=np.int64)
        for g, row in enumerate(rows):
            out[g, : len(row)] = row
        return out


class FastEngine(Protocol):
    """A fast engine for one rules file and player count."""

    spec: RuleSpec
    t: Tables
    n: int
    """Players."""
    nsides: int
    side_of: Ints

    def replay(self, given: Replay, kinds: tuple[str, ...]) -> Rounds:
        """Play the kernel's rounds ``given`` again with the seats' bots ``kinds``
        (``random`` or ``greedy``): the kernel's results, round for round."""
        ...


class BatchEngine(FastEngine, Protocol):
    """A fast engine that plays whole matches in batches (the rules check's)."""

    def play_matches(
        self,
        rng: np.random.Generator,
        matches: int,
        kinds: tuple[str, ...],
        per_match: float = 4.0,
        rounds: int = 0,
    ) -> Matches:
        """``matches`` whole matches dealt and decided from ``rng``, and for matches of
        varying length more until they hold ``rounds`` rounds (``per_match``: the rounds
        a match is expected to last, which sizes the batches, see
        :mod:`deckgen.engine.backends.matches`)."""
        ...
