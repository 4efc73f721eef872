"""``deckgen.new_round``: one round stepped move by move, for a UI, a tutorial or an agent.

A :class:`RoundSteps` says whose turn it is (:attr:`~RoundSteps.seat`), what that
player may know (:attr:`~RoundSteps.view`) and may do (:meth:`~RoundSteps.legal_moves`);
:meth:`~RoundSteps.apply` makes a move and gives the actions it caused (the move, then
every draw and pass the rules force until the next decision); :attr:`~RoundSteps.is_over`
and :meth:`~RoundSteps.result` end it. Every decision is the caller's: for a bot seat,
ask a bot (:func:`deckgen.engine.make_bots`) and apply its choice.

The reference engine decides everything else, exactly as in a played match: each step
plays the round again from its seed with the moves chosen so far and stops at the next
decision, so the deal, the forced draws and the scoring are the engine's own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from os import PathLike
from typing import TYPE_CHECKING

from deckgen.errors import InputError

if TYPE_CHECKING:
    from deckgen.engine import Action, Engine, Move, PlayerView, RoundResult
    from deckgen.rulespec import RuleSpec
    from deckgen.tiles import Tile


class _Paused(Exception):
    """Raised inside the engine at the first decision past the script."""

    def __init__(self, view: PlayerView, moves: Sequence[Move]) -> None:
        super().__init__("paused")
        self.view = view
        self.moves = list(moves)


class _Script:
    """Plays the moves chosen so far, then pauses the round."""

    name = "caller"

    def __init__(self, moves: Sequence[Move]) -> None:
        self.moves = moves
        self.next = 0

    def choose(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        if self.next < len(self.moves):
            move = self.moves[self.next]
            self.next += 1
            return move
        raise _Paused(view, moves)


class RoundSteps:
    """A round in progress (see the module docstring)."""

    def __init__(self, rules: RuleSpec, engine: Engine, seed: int) -> None:
        self.rules = rules
        self.seed = seed
        self._engine = engine
        self._chosen: list[Move] = []
        self._actions: list[Action] = []
        self._view: PlayerView | None = None
        self._moves: list[Move] = []
        self._result: RoundResult | None = None
        self._advance()

    def _advance(self) -> None:
        script = _Script(self._chosen)
        actions: list[Action] = []
        try:
            result = self._engine.play_round(
                random.Random(self.seed), [script] * self._engine.players, sink=actions
            )
        except _Paused as pause:
            self._view, self._moves, self._result = pause.view, pause.moves, None
        else:
            self._view, self._moves, self._result = None, [], result
        self._actions = actions

    @property
    def players(self) -> int:
        return self._engine.players

    @property
    def is_over(self) -> bool:
        """True once the round has ended."""
        return self._result is not None

    @property
    def seat(self) -> int:
        """The seat to move (-1 when the round is over)."""
        return self._view.seat if self._view is not None else -1

    @property
    def view(self) -> PlayerView:
        """What the player to move may know: own hand, open ends, counts, totals."""
        if self._view is None:
            raise InputError("the round is over", where="RoundSteps.view", fix="read result()")
        return self._view

    @property
    def actions(self) -> list[Action]:
        """Every action so far: leads, plays, draws and passes, in order."""
        return list(self._actions)

    def legal_moves(self) -> list[Move]:
        """The moves the player to move may choose from (never empty before the end)."""
        return list(self._moves)

    def apply(self, move: Move) -> list[Action]:
        """Make ``move`` (one of :meth:`legal_moves`); give the actions it caused."""
        if self._result is not None:
            raise InputError("the round is over", where="RoundSteps.apply", fix="read result()")
        if move not in self._moves:
            raise InputError(
                f"{move} is not a legal move here",
                where="RoundSteps.apply",
                fix="choose one of legal_moves()",
            )
        before = len(self._actions)
        self._chosen.append(move)
        self._advance()
        return self._actions[before:]

    def result(self) -> RoundResult:
        """How the round ended: winners, points per side, hand values, clauses, gaps."""
        if self._result is None:
            raise InputError(
                "the round is not over yet", where="RoundSteps.result", fix="apply more moves"
            )
        return self._result

    def copy(self) -> RoundSteps:
        """An independent copy at the same point (to try a move and go back)."""
        twin = RoundSteps.__new__(RoundSteps)
        twin.__dict__.update(self.__dict__)
        twin._chosen = list(self._chosen)
        return twin

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
    return RoundSteps(spec, Engine(spec, n), seed)
