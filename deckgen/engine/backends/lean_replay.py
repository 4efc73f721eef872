"""The lean loop (:mod:`deckgen.engine.backends.lean`) behind the fast-engine protocol.

Takes a rules file the lean loop plays and the kernel's rounds to replay
(:class:`~deckgen.engine.backends.protocol.Replay`); gives their
:class:`~deckgen.engine.backends.rounds.Rounds`. The lean loop deals from the same
``random.Random`` as the kernel, so a replayed round is dealt from its deal seed. The
kernel itself sends rounds of random bots to the lean loop
(:meth:`~deckgen.engine.core.Engine.play_round`); this class only lets the
conformance test hold it to the kernel like every other engine.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from deckgen.engine.backends.lean import Lean
from deckgen.engine.backends.rounds import Rounds, rounds_of
from deckgen.engine.finish import Finisher
from deckgen.engine.setup import RoundStart

if TYPE_CHECKING:
    from deckgen.engine.backends.arrays import Floats
    from deckgen.engine.backends.protocol import Replay
    from deckgen.engine.tables import Tables
    from deckgen.rulespec import RuleSpec


class _Stream:
    """One round's decision numbers, taken in turn."""

    def __init__(self, numbers: Floats) -> None:
        self.numbers = numbers.tolist()
        self.k = 0

    def random(self) -> float:
        self.k += 1
        out: float = self.numbers[self.k - 1]
        return out


class LeanReplay:
    """Replays the kernel's rounds of random bots on the lean loop."""

    def __init__(self, spec: RuleSpec, t: Tables) -> None:
        import numpy as np

        self.spec = spec
        self.t = t
        self.n = t.players
        self.nsides = len(t.sides)
        self.side_of = np.array(t.side_of, dtype=np.int64)
        self.lean = Lean(t, Finisher(t))

    def replay(self, given: Replay, kinds: tuple[str, ...]) -> Rounds:
        assert set(kinds) == {"random"}, "the lean loop plays random bots only"
        out = []
        for g, seed in enumerate(given.deal_seeds):
            stream = _Stream(given.numbers[g])
            prev = int(given.prev_starter[g])
            start = RoundStart(int(given.round_no[g]), prev, prev)
            out.append(self.lean.play(random.Random(seed), [stream.random] * self.n, start))
        return rounds_of(out, self.nsides)
