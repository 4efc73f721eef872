"""The reference engine: plays any rules file, records and replays games.

Public API (stable; additions only):

- :class:`Engine` ``(spec, players, check_invariants=False)``: ``play_round(rng,
  players, round_no=, prev_starter=, prev_winner=, totals=, deal=, record=)`` gives a
  :class:`RoundResult`; ``start_round(rng, start=, deal=, record=)`` gives a
  :class:`RoundState` to step: ``legal_moves()``, ``apply(move)``, ``is_over``,
  ``result()``, ``copy()`` (see ``docs/engine.md``); ``legal_moves(hand, ends)``.
- :func:`play_match` ``(engine, players, seed, record=)`` gives a :class:`MatchResult`.
- :func:`make_bots` ``(names, players, seed)``; bots ``random``, ``greedy``, ``smart``, ``pimc``.
- :func:`simulate_rounds` ``(spec, players, seed, count, bots=)``: many independent
  first rounds, fast, for statistics.
- Records: :func:`deckgen.engine.record.match_record`, :func:`~deckgen.engine.record.replay`.
- Diagrams: :func:`deckgen.engine.board.board_after` gives a :class:`~deckgen.engine.board.Board`.

Never imports ``deck`` or ``booklet``.
"""

from __future__ import annotations

# First of all: the hot modules run compiled or as plain source (see compiled.py)
from deckgen.engine import compiled  # noqa: F401  # isort: skip
import random
from collections.abc import Iterator, Sequence

# the layouts in modules of their own register themselves in LAYOUTS on import
from deckgen.engine import chickenfoot, trains  # noqa: F401
from deckgen.engine.bots import make_bots
from deckgen.engine.core import Engine
from deckgen.engine.layouts import LAYOUTS, Layout
from deckgen.engine.match import play_match
from deckgen.engine.moves import PASS, Move
from deckgen.engine.players import Player, PlayerView
from deckgen.engine.results import (
    END_BLOCKED,
    END_OUT,
    END_RESERVE,
    ROUND_ENDS,
    Action,
    DealRecord,
    Gap,
    InvariantError,
    MatchResult,
    RoundResult,
)
from deckgen.engine.setup import RoundStart
from deckgen.engine.state import IllegalMove, RoundState
from deckgen.rulespec import RuleSpec

__all__ = [
    "END_BLOCKED",
    "END_OUT",
    "END_RESERVE",
    "LAYOUTS",
    "PASS",
    "ROUND_ENDS",
    "Action",
    "DealRecord",
    "Engine",
    "Gap",
    "IllegalMove",
    "InvariantError",
    "Layout",
    "MatchResult",
    "Move",
    "Player",
    "PlayerView",
    "RoundResult",
    "RoundStart",
    "RoundState",
    "make_bots",
    "play_match",
    "simulate_rounds",
]


def simulate_rounds(
    spec: RuleSpec,
    players: int,
    seed: int,
    count: int,
    *,
    bots: Sequence[str] = ("random",),
    check_invariants: bool = False,
) -> Iterator[RoundResult]:
    """Yield ``count`` independent first rounds dealt from ``random.Random(seed)``.

    Bots are seeded from ``seed`` too, so the same arguments give the same rounds.
    """
    engine = Engine(spec, players, check_invariants=check_invariants)
    seats = make_bots(list(bots), players, seed)
    rng = random.Random(seed)
    for _ in range(count):
        yield engine.play_round(rng, seats)
