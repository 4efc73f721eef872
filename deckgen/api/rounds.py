"""``deckgen.new_round``: one round stepped move by move, for a UI, a tutorial or an agent.

A :class:`RoundSteps` says whose turn it is (:attr:`~RoundSteps.seat`), what that
player may know (:attr:`~RoundSteps.view`) and may do (:meth:`~RoundSteps.legal_moves`);
:meth:`~RoundSteps.apply` makes a move and gives the actions it caused (the move, then
every draw and pass the rules force until the next decision); :attr:`~RoundSteps.is_over`
and :meth:`~RoundSteps.result` end it. Every decision is the caller's: for a bot seat,
ask a bot (:func:`deckgen.engine.make_bots`) and apply its choice.

The rules kernel decides everything else, exactly as in a played match: the state is
the engine's own :class:`~deckgen.engine.state.RoundState` (the deal, the forced draws
and passes, the scoring), which this class only puts a small, checked face on.
"""

from __future__ import annotations

import random
from os import PathLike
from typing import TYPE_CHECKING

from deckgen.errors import InputError

if TYPE_CHECKING:
    from deckgen.engine import Action, Engine, Move, PlayerView, RoundResult
    from deckgen.engine.state import RoundState
    from deckgen.rulespec import RuleSpec
    from deckgen.tiles import Tile


class RoundSteps:
    """A round in progress (see the module docstring)."""

    def __init__(self, rules: RuleSpec, engine: Engine, state: RoundState, seed: int) -> None:
        self.rules = rules
        self.seed = seed
        self._engine = engine
        self._state = state
        self._totals = tuple(0 for _ in range(len(state.t.sides)))

    @property
    def players(self) -> int:
        return self._engine.players

    @property
    def is_over(self) -> bool:
        """True once the round has ended."""
        return self._state.is_over

    @property
    def seat(self) -> int:
        """The seat to move (-1 when the round is over)."""
        return -1 if self._state.is_over else self._state.seat

    @property
    def view(self) -> PlayerView:
        """What the player to move may know: own hand, open ends, counts, totals."""
        if self._state.is_over:
            raise InputError("the round is over", where="RoundSteps.view", fix="read result()")
        return self._state.view(self._totals)

    @property
    def actions(self) -> list[Action]:
        """Every action so far: leads, plays, draws and passes, in order."""
        return list(self._state.actions or [])

    def legal_moves(self) -> list[Move]:
        """The moves the player to move may choose from (never empty before the end)."""
        return [] if self._state.is_over else list(self._state.legal_moves())

    def apply(self, move: Move) -> list[Action]:
        """Make ``move`` (one of :meth:`legal_moves`); give the actions it caused."""
        from deckgen.engine.state import IllegalMove

        if self._state.is_over:
            raise InputError("the round is over", where="RoundSteps.apply", fix="read result()")
        try:
            return self._state.apply(move)
        except IllegalMove:
            raise InputError(
                f"{move} is not a legal move here",
                where="RoundSteps.apply",
                fix="choose one of legal_moves()",
            ) from None

    def result(self) -> RoundResult:
        """How the round ended: winners, points per side, hand values, clauses, gaps."""
        if not self._state.is_over:
            raise InputError(
                "the round is not over yet", where="RoundSteps.result", fix="apply more moves"
            )
        return self._state.result()

    def copy(self) -> RoundSteps:
        """An independent copy at the same point (to try a move and go back)."""
        return RoundSteps(self.rules, self._engine, self._state.copy(), self.seed)

    def tile(self, index: int) -> Tile:
        """The tile with deck index ``index`` (as in moves and actions)."""
        return self.rules.dset.tiles[index]

    def describe(self, move: Move) -> str:
        """``lead 6-6``, ``3-5 on the 5 (end 1)`` or ``pass``."""
        if move.tile < 0:
            return "pass"
        if move.end < 0:
            return f"lead {self.tile(move.tile)}"
        return f"{self.tile(move.tile)} on the {move.value} (end {move.end})"


def new_round(
    rules: str | PathLike[str] | RuleSpec,
    *,
    players: int | None = None,
    seed: int = 0,
) -> RoundSteps:
    """Deal the first round of a match of ``rules`` from ``seed``, ready to step.

    >>> steps = new_round("two-player", seed=1)
    >>> while not steps.is_over:
    ...     _ = steps.apply(steps.legal_moves()[0])
    >>> steps.result().end in ("out", "blocked", "reserve")
    True
    """
    from deckgen.api.games import load_rules
    from deckgen.engine import Engine

    spec = load_rules(rules)
    n = players if players is not None else spec.player_counts[0]
    spec.hand_size(n)  # validates the player count
    if seed < 0:
        raise InputError(
            "the seed must not be negative", where="new_round(seed=)", fix="use 0 or more"
        )
    engine = Engine(spec, n)
    return RoundSteps(spec, engine, engine.start_round(random.Random(seed), record=True), seed)
