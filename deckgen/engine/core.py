"""The engine: plays rounds of any rules file through the kernel, or a back-end proved
equal to it.

Takes a :class:`~deckgen.rulespec.RuleSpec`, a player count, a ``random.Random`` for
the deal and one :class:`~deckgen.engine.players.Player` per seat; gives a
:class:`~deckgen.engine.results.RoundResult`. A round is a
:class:`~deckgen.engine.state.RoundState` stepped move by move (:meth:`Engine.start_round`
gives one); :meth:`Engine.play_round` is the short loop that asks each seat for a move.

Rounds where every seat is a plain random bot on a line, not recorded and not checked,
go to the lean back-end (:mod:`deckgen.engine.backends.lean`), which makes exactly the
kernel's random draws and choices (``tests/engine/test_conformance.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import floor
from typing import Any

from deckgen.engine.backends import lean
from deckgen.engine.finish import Finisher
from deckgen.engine.layouts import new_layout
from deckgen.engine.moves import Move
from deckgen.engine.players import Player, RandomBot
from deckgen.engine.results import Action, DealRecord, Gap, InvariantError, RoundResult
from deckgen.engine.setup import MAX_REDEALS, DealRejected, RoundStart, setup_round
from deckgen.engine.state import IllegalMove, RoundState
from deckgen.engine.tables import Tables, compile_tables
from deckgen.rulespec import RuleSpec

__all__ = [
    "MAX_REDEALS",
    "DealRejected",
    "Engine",
    "IllegalMove",
    "ReplayMismatch",
    "RoundStart",
]


_FIRST = RoundStart()


class ReplayMismatch(Exception):
    """A scripted player found a recorded action that is not legal here."""

    def __init__(self, index: int, message: str) -> None:
        self.index = index
        super().__init__(message)


class Engine:
    """Plays rounds of one rules file for one player count."""

    def __init__(self, spec: RuleSpec, players: int, *, check_invariants: bool = False) -> None:
        self.spec = spec
        self.players = players
        self.t: Tables = compile_tables(spec, players)
        self.check = check_invariants
        self.finisher = Finisher(self.t, check_invariants=check_invariants)
        self._lean = lean.Lean(self.t, self.finisher) if lean.supports(self.t) is None else None
        self._rand_cache: tuple[tuple[Player, ...], tuple[Any, ...], list[Any]] | None = None

    def _random_methods(self, players: Sequence[Player]) -> list[Any] | None:
        """Each seat's ``rng.random`` when every seat is a plain random bot, else None.

        Kept for the last line-up seen: the same players with the same generators give
        the same methods without building them again.
        """
        seats = tuple(players)
        cached = self._rand_cache
        if cached is not None and cached[0] == seats:
            for p, g in zip(seats, cached[1], strict=True):
                if p.rng is not g:  # type: ignore[attr-defined]
                    break
            else:
                return cached[2]
        if any(type(p) is not RandomBot for p in seats):
            return None
        rngs = tuple(p.rng for p in seats)  # type: ignore[attr-defined]
        methods = [g.random for g in rngs]
        self._rand_cache = (seats, rngs, methods)
        return methods

    def legal_moves(self, hand: int, ends: list[int]) -> list[Move]:
        """The distinct placements of ``hand`` on open ends ``ends`` in engine order."""
        layout = new_layout(self.t.shape)
        layout.ends = list(ends)
        return layout.moves(self.t, hand)

    def start_round(
        self,
        rng: random.Random,
        *,
        start: RoundStart = RoundStart(),  # noqa: B008 (frozen)
        deal: DealRecord | None = None,
        record: bool = True,
        sink: list[Action] | None = None,
    ) -> RoundState:
        """Set up a round (deal from ``rng``, or take ``deal``) and return its state,
        waiting for the first decision. ``record`` keeps the deal and the actions;
        ``sink`` is the list the actions are appended to (it implies ``record``)."""
        fired: set[str] = set()
        gaps: list[Gap] = []
        keep = record or sink is not None
        setup = setup_round(self.t, rng, start, fired=fired, gaps=gaps, deal=deal, keep_deal=keep)
        actions = sink if sink is not None else ([] if record else None)
        return RoundState(
            self.t, self.finisher, setup, fired=fired, gaps=gaps, actions=actions, check=self.check
        )

    def play_round(
        self,
        rng: random.Random,
        players: Sequence[Player],
        *,
        round_no: int = 1,
        prev_starter: int = -1,
        prev_winner: int = -1,
        totals: tuple[int, ...] | None = None,
        deal: DealRecord | None = None,
        record: bool = False,
        sink: list[Action] | None = None,
        offered: Callable[[Sequence[Move]], object] | None = None,
    ) -> RoundResult:
        """Play one round and return its result (with deal and actions if ``record``).

        ``deal`` replays a recorded deal instead of shuffling; ``sink`` is a list the
        actions are appended to as they happen (it implies ``record``), so a caller
        sees the actions taken so far even when a player raises. ``offered`` is called
        with the legal moves of every decision before the player chooses (the rules
        check counts a player's choices with it).
        """
        if len(players) != self.players:
            raise ValueError(f"need {self.players} players, got {len(players)}")
        start = (
            _FIRST
            if round_no == 1 and prev_starter < 0 and prev_winner < 0
            else RoundStart(round_no, prev_starter, prev_winner)
        )
        if (
            self._lean is not None
            and deal is None
            and not record
            and sink is None
            and offered is None
        ):
            rand_fast = self._random_methods(players)
            if rand_fast is not None and not self.check:
                return self._lean.play(rng, rand_fast, start)
        state = self.start_round(rng, start=start, deal=deal, record=record, sink=sink)
        rand = [
            p.rng.random if isinstance(p, RandomBot) and type(p) is RandomBot else None
            for p in players
        ]
        tot = totals if totals is not None else tuple(0 for _ in self.t.sides)
        while not state.end:
            moves = state.legal_moves()
            seat = state.seat
            if offered is not None:
                offered(moves)
            r = rand[seat]
            if r is not None:  # a random bot, inline: one random() per decision
                mv = moves[floor(r() * len(moves))]
            else:
                mv = players[seat].choose(state.view(tot), moves)
                if mv not in moves:
                    raise InvariantError(f"seat {seat} chose {mv}, not a legal move")
            state.step(mv)
        return state.result()
