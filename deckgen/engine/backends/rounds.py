"""What every fast engine takes and gives: deals, decision numbers and round results
as arrays.

Takes nothing of the engines; gives :class:`Deals` (hands and the rest of the deck in
draw order), :class:`RoundStreams` (one stream of decision numbers per round, to replay
the kernel's rounds), :class:`Rounds` (the outcome of every round of a batch) and the
clause bits a compiled engine reports (:data:`REPORTED`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from deckgen.engine.backends.arrays import Flags, Floats, Hands, Ints
    from deckgen.engine.results import RoundResult

END_CODES = ("out", "blocked", "reserve")
"""``Rounds.end`` holds indices into this tuple."""
FAST_BOTS = ("random", "greedy")
"""The bots every fast engine plays."""

REPORTED = (
    "play.satisfy_double",
    "play.chicken_foot",
    "play.doubles",
    "play.play_drawn",
    "play.draw_limit",
    "score.ends",
    "score.rounding",
)
"""Clauses no round array tells, which the compiled engines report per round in
``Rounds.clauses`` (bit ``k`` for ``REPORTED[k]``): the trains engine the ``play.*``
ones, the board engine the ``score.*`` ones."""


def clause_bit(cid: str) -> int:
    """The bit of a :data:`REPORTED` clause in ``Rounds.clauses``."""
    return 1 << REPORTED.index(cid)


def put_back_doubles(rest: Ints, is_double: Flags, rng: np.random.Generator) -> Ints:
    """Each stock (a row, draw order) with its turned-up doubles put back, as the engine.

    While a row's top tile is a double, it goes back at a uniformly random place below
    the top, and the next tile comes up (``lead.skip_double``). The fast path is only
    offered where every stock holds a non-double (see :func:`unsupported`).
    """
    import numpy as np

    rest = rest.copy()
    m = rest.shape[1]
    col = np.arange(m)[None, :]
    assert (~is_double[rest]).any(axis=1).all(), "no tile may be turned up"
    while True:
        rows = np.nonzero(is_double[rest[:, 0]])[0]
        if not len(rows):
            return rest
        j = 1 + (rng.random(len(rows)) * (m - 1)).astype(np.int64)[:, None]
        src = np.where(col < j, col + 1, np.where(col == j, 0, col))
        rest[rows] = np.take_along_axis(rest[rows], src, axis=1)


class RoundStreams:
    """One stream of numbers in [0, 1) per round: the k-th random decision of round
    ``g`` uses ``numbers[g, k]``, as the kernel's random bots do when they share one
    generator per round. Deals must come as the kernel recorded them (a skipped double
    already put back)."""

    counted = True
    """The engine tells which rounds used their number (:meth:`used`)."""

    def __init__(self, numbers: Floats) -> None:
        import numpy as np

        self.numbers = numbers
        self.k = np.zeros(numbers.shape[0], dtype=np.int64)

    def random(self, rows: Ints) -> Floats:
        """The next number of each round in ``rows`` (not yet used up)."""
        out: Floats = self.numbers[rows, self.k[rows]]
        return out

    def used(self, rows: Ints) -> None:
        """Rounds ``rows`` made a random decision with their number."""
        self.k[rows] += 1


class _Generator:
    """Numbers straight from a numpy generator (the rules check's batches)."""

    counted = False
    """Nothing to keep count of: the engine need not say which rounds used a number."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def random(self, rows: Ints) -> Floats:
        out: Floats = self.rng.random(len(rows))
        return out

    def used(self, rows: Ints) -> None:
        pass


def decision_numbers(rng: np.random.Generator | RoundStreams) -> RoundStreams | _Generator:
    """``rng`` as a source of decision numbers: a :class:`RoundStreams` as it is, or a
    numpy generator."""
    return rng if isinstance(rng, RoundStreams) else _Generator(rng)


@dataclass
class Deals:
    """Deals as arrays: ``hands`` (rounds, players) bitmasks and ``rest`` (rounds, k)
    deck indices in draw order (the first drawn first), as the engine deals them."""

    hands: Hands
    rest: Ints
    redeals: Ints | None = None
    """How often each deal was redone under the redeal rules (None: never)."""


@dataclass
class Rounds:
    """The outcome of each round of a batch (arrays, one entry per round)."""

    end: Ints
    out_seat: Ints
    starter: Ints
    turns: Ints
    draws: Ints
    passes: Ints
    played: Ints
    hand_values: Ints
    """(rounds, players)"""
    points: Ints
    """(rounds, sides)"""
    winners: Flags
    """(rounds, sides) booleans"""
    redeals: Ints
    clauses: Ints | None = None
    """Bit ``k`` set: the round decided the clause ``batchcount.REPORTED[k]``, which no
    other array tells (the compiled trains and board engines report them; None: the
    engine reports none)."""

    @staticmethod
    def concat(parts: list[Rounds]) -> Rounds:
        """One batch from several, in order."""
        import numpy as np

        names = [k for k in Rounds.__dataclass_fields__ if k != "clauses"]
        out = Rounds(**{k: np.concatenate([getattr(r, k) for r in parts]) for k in names})
        if any(r.clauses is not None for r in parts):
            out.clauses = np.concatenate(
                [np.zeros(len(r.end), dtype=np.int64) if r.clauses is None else r.clauses
                 for r in parts]
            )  # fmt: skip
        return out

    def take(self, rows: Ints | Flags) -> Rounds:
        """The rounds ``rows`` picks (indices or a boolean mask), in that order."""
        names = [k for k in Rounds.__dataclass_fields__ if k != "clauses"]
        out = Rounds(**{k: getattr(self, k)[rows] for k in names})
        out.clauses = self.clauses[rows] if self.clauses is not None else None
        return out


def rounds_of(results: list[RoundResult], sides: int) -> Rounds:
    """The kernel's round results as :class:`Rounds` (one entry per result)."""
    import numpy as np

    def ints(values: list[int]) -> Ints:
        return np.array(values, dtype=np.int64)

    winners = np.zeros((len(results), sides), dtype=bool)
    for g, r in enumerate(results):
        winners[g, list(r.winners)] = True
    return Rounds(
        end=ints([END_CODES.index(r.end) for r in results]),
        out_seat=ints([r.out_seat for r in results]),
        starter=ints([r.starter for r in results]),
        turns=ints([r.turns for r in results]),
        draws=ints([r.draws for r in results]),
        passes=ints([r.passes for r in results]),
        played=ints([r.tiles_played for r in results]),
        hand_values=np.array([list(r.hand_values) for r in results], dtype=np.int64),
        points=np.array([list(r.points) for r in results], dtype=np.int64),
        winners=winners,
        redeals=ints([r.redeals for r in results]),
        clauses=ints([sum(clause_bit(c) for c in REPORTED if c in r.clauses) for r in results]),
    )
