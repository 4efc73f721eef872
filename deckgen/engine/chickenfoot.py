"""Chicken Foot: the centre double with its six arms, and a foot on every double
(``board.shape = "chicken_foot"``).

Takes the compiled tables; gives the :class:`ChickenFoot` layout, registered in
:data:`deckgen.engine.layouts.LAYOUTS` by :mod:`deckgen.engine`. The round starts on
the station double (``lead.station``, :func:`deckgen.engine.trains.take_station`), the
highest in round 1 and one lower each round.

Ends, in the engine's order: ends 0-5 are the six arms of the centre double; each
double laid later closes the end it was laid on and opens three *toes* (its chicken
foot), appended in order. The rules (``play.chicken_foot``):

- the centre double must get all six arms before any arm is extended;
- a double laid at an end must get its three toes before anyone plays anywhere else;
- while arms or toes are missing, the only place to play is the next missing one
  (the missing ones all show the double's number, so one move stands for them all).

Everything else is the plain layout interface (kernel, invariants, records).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from deckgen.engine.layouts import LAYOUTS, Layout, TileTable
from deckgen.engine.moves import Move

CENTRE_ARMS = 6
TOES = 3


class ChickenFoot(Layout):
    """The centre double's arms, the feet of later doubles, and what is still missing."""

    name: ClassVar[str] = "chicken_foot"
    __slots__ = ("closed", "decided", "missing", "started")

    def __init__(self) -> None:
        super().__init__()
        self.started: list[bool] = []
        """Per end: a tile lies on it (an arm or toe that is no longer missing)."""
        self.closed: list[bool] = []
        """Per end: a double lies at it and its foot took over (no more play there)."""
        self.missing: list[int] = []
        """The ends still to be started before play goes on elsewhere, in order."""
        self.decided: set[str] = set()

    def copy(self) -> ChickenFoot:
        out = ChickenFoot()
        out.ends = self.ends.copy()
        out.started = self.started.copy()
        out.closed = self.closed.copy()
        out.missing = self.missing.copy()
        out.decided = set(self.decided)
        return out

    def clauses(self) -> set[str]:
        return self.decided

    # ---------------------------------------------------------------- the rule
    def allowed(self) -> list[int]:
        """The ends a tile may go on now, in end order."""
        if self.missing:
            return [self.missing[0]]
        return [e for e in range(len(self.ends)) if not self.closed[e]]

    # ---------------------------------------------------------------- placing
    def start(self, t: TileTable, tile: int) -> bool:
        v = t.lo[tile]
        self.ends = [v] * CENTRE_ARMS
        self.started = [False] * CENTRE_ARMS
        self.closed = [False] * CENTRE_ARMS
        self.missing = list(range(CENTRE_ARMS))
        return True

    def place(self, t: TileTable, tile: int, end: int) -> bool:
        v = self.ends[end]
        self.ends[end] = t.pipsum[tile] - v
        self.started[end] = True
        if self.missing and self.missing[0] == end:
            self.missing.pop(0)
            self.decided.add("play.chicken_foot")
        if not t.is_double[tile]:
            return False
        # a double: its end closes and its three toes must be started first
        self.closed[end] = True
        first = len(self.ends)
        for _ in range(TOES):
            self.ends.append(v)
            self.started.append(False)
            self.closed.append(False)
        self.missing = list(range(first, first + TOES))
        return True

    # ---------------------------------------------------------------- asking
    def can_place(self, t: TileTable, tile: int, end: int) -> bool:
        if end not in self.allowed():
            return False
        v = self.ends[end]
        return t.lo[tile] == v or t.hi[tile] == v

    def fits(self, t: TileTable) -> int:
        m = 0
        seen = 0
        for e in self.allowed():
            v = self.ends[e]
            if not seen >> v & 1:
                seen |= 1 << v
                m |= t.suit[v]
        return m

    def moves(self, t: TileTable, hand: int, kinds: Sequence[int] | None = None) -> list[Move]:
        """For each distinct value among the ends open now (in end order), the fitting
        tiles by deck index; while arms or toes are missing, only the next one."""
        out: list[Move] = []
        seen = 0
        for e in self.allowed():
            v = self.ends[e]
            if seen >> v & 1:
                continue
            seen |= 1 << v
            fit = hand & t.suit[v]
            while fit:
                low = fit & -fit
                out.append(Move(low.bit_length() - 1, e, v))
                fit ^= low
        return out


LAYOUTS.setdefault(ChickenFoot.name, ChickenFoot)  # on import (deckgen.engine imports this)
