"""Mexican Train: the station double and the trains (``board.shape = "trains"``).

Takes the compiled tables; gives the :class:`Trains` layout (registered in
:data:`deckgen.engine.layouts.LAYOUTS`) and :func:`take_station` (``lead.station``),
which sets the round's station double in the middle of the table.

The layout's open ends are the trains, in a fixed order: end ``s`` is the personal
train of seat ``s`` and the last end is the public Mexican Train; all start at the
station double's number. Which ends the seat to move may use is the rule of the game:

- its own train, the Mexican Train, and every other train marked open
  (``play.open_train``); a player who passes marks their train open, and laying a tile
  on their own train closes it again;
- a double just laid must be satisfied first (``play.satisfy_double``): until a tile
  covers it, the only end anyone may play on is the double's; the player who laid it
  moves again to cover it (the kernel asks :attr:`Trains.again`).

The kernel tells the layout whose turn it is (:meth:`Layout.to_move`) and who passed
(:meth:`Layout.passed`), and asks before it calls a round blocked whether somebody could
play now (:meth:`Trains.someone_can_play`: the last passes opened trains); everything
else is the plain layout interface, so the invariants and the records work unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Protocol

from deckgen.engine.layouts import LAYOUTS, Layout, TileTable
from deckgen.engine.moves import Move


class TrainTable(TileTable, Protocol):
    """The tile table and the player count."""

    @property
    def players(self) -> int: ...


class Trains(Layout):
    """Personal trains, the public Mexican Train, open markers and the double to satisfy."""

    name: ClassVar[str] = "trains"
    __slots__ = ("again", "decided", "open", "pending", "seat")

    def __init__(self) -> None:
        super().__init__()
        self.open: list[bool] = []
        """Per seat: its train is marked open (anyone may play on it)."""
        self.pending = -1
        """The end whose double must be satisfied before anything else, or -1."""
        self.seat = 0
        """The seat to move (the kernel says, :meth:`to_move`)."""
        self.again = False
        """The seat that just laid a double moves again to satisfy it."""
        self.decided: set[str] = set()
        """Clause ids this layout's rules decided something by in the round."""

    def copy(self) -> Trains:
        out = Trains()
        out.ends = self.ends.copy()
        out.open = self.open.copy()
        out.pending = self.pending
        out.seat = self.seat
        out.again = self.again
        out.decided = set(self.decided)
        return out

    # ---------------------------------------------------------------- the kernel's hooks
    def to_move(self, seat: int) -> None:
        self.seat = seat

    def passed(self, seat: int) -> None:
        if seat < len(self.open):
            self.open[seat] = True
            self.decided.add("play.open_train")

    def clauses(self) -> set[str]:
        return self.decided

    def someone_can_play(self, t: TileTable, hands: Sequence[int]) -> bool:
        """Whether a seat could lay a tile on the trains it may use now: a pass opens
        the passer's train, so a seat that passed earlier in the circle may now fit
        a tile on it."""
        seat = self.seat
        try:
            for s, hm in enumerate(hands):
                self.seat = s
                if hm & self.fits(t):
                    return True
            return False
        finally:
            self.seat = seat

    # ---------------------------------------------------------------- the rule
    def allowed(self) -> list[int]:
        """The ends the seat to move may play on, in end order."""
        if not self.ends:
            return []
        if self.pending >= 0:
            return [self.pending]
        n = len(self.open)
        return [e for e in range(n + 1) if e == n or e == self.seat or self.open[e]]

    # ---------------------------------------------------------------- placing
    def start(self, t: TileTable, tile: int) -> bool:
        """The station double: every train starts from its number."""
        n: int = getattr(t, "players", 0)
        v = t.lo[tile]
        self.ends = [v] * (n + 1)
        self.open = [False] * n
        self.pending = -1
        self.again = False
        return False

    def place(self, t: TileTable, tile: int, end: int) -> bool:
        v = self.ends[end]
        self.ends[end] = t.pipsum[tile] - v
        if end == self.seat:
            self.open[end] = False
        elif end < len(self.open):  # on another player's open train
            self.decided.add("play.open_train")
        if self.pending >= 0:
            self.decided.add("play.satisfy_double")
        double = t.is_double[tile]
        self.pending = end if double else -1
        self.again = double
        return False

    # ---------------------------------------------------------------- asking
    def can_place(self, t: TileTable, tile: int, end: int) -> bool:
        if end not in self.allowed():
            return False
        v = self.ends[end]
        return t.lo[tile] == v or t.hi[tile] == v

    def fits(self, t: TileTable) -> int:
        m = 0
        suit = t.suit
        for e in self.allowed():
            m |= suit[self.ends[e]]
        return m

    def moves(self, t: TileTable, hand: int, kinds: Sequence[int] | None = None) -> list[Move]:
        """For each end the seat may use (own train, open trains, the Mexican Train, in
        end order; only the double's end while a double waits), the fitting tiles by
        deck index."""
        out: list[Move] = []
        suit = t.suit
        for e in self.allowed():
            v = self.ends[e]
            fit = hand & suit[v]
            while fit:
                low = fit & -fit
                out.append(Move(low.bit_length() - 1, e, v))
                fit ^= low
        return out


def station_value(max_pip: int, round_no: int) -> int:
    """The station double's number in round ``round_no``: the highest double first,
    one lower each round (after 0-0 it starts again at the top)."""
    return max_pip - (round_no - 1) % (max_pip + 1)


def take_station(t: TileTable, hands: list[int], stock: list[int], round_no: int) -> int:
    """``lead.station``: the round's station double goes to the middle of the table.

    A player dealt it puts it out and takes the top tile of the stock instead (the hand
    keeps its size); from the stock it is simply taken out; a double among the tiles out
    of play (``deal.rest = "dead"``) is left for the caller to take from them. Returns
    its deck index. ``stock`` is in the kernel's order (drawn from the end).
    """
    top = len(t.suit) - 1
    v = station_value(top, round_no)
    d = next(i for i in range(len(t.lo)) if t.lo[i] == v and t.hi[i] == v)
    bit = 1 << d
    for s, hm in enumerate(hands):
        if hm & bit:
            hands[s] = hm ^ bit
            if stock:
                hands[s] |= 1 << stock.pop()
            return d
    if d in stock:
        stock.remove(d)
    return d


LAYOUTS.setdefault(Trains.name, Trains)  # on import (deckgen.engine imports this)
