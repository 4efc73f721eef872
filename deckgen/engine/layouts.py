"""Layouts: where a tile may be laid and what laying it opens (``board.shape``).

The only place in deckgen where a tile is placed: the kernel
(:class:`~deckgen.engine.state.RoundState`), the invariants and the booklet's diagrams
(:mod:`deckgen.engine.board`) all lay tiles through a :class:`Layout`.

A layout holds the values of its open ends in the engine's end order: ends 0 and 1
run along the line from the first tile's low and high side; a double laid crosswise
keeps its own end (the far side shows the same number) and opens two more ends,
appended in pairs. Layouts differ only in which doubles lie crosswise:

- ``line``: none; two open ends for the whole round;
- ``spinner``: the first double placed (the first tile too) lies across;
- ``cross_doubles``: every double lies across.

To add a layout: subclass :class:`Layout`, say which doubles lie across (override
:meth:`Layout.crosswise` and :meth:`Layout.laid_across` when the answer changes during
a round), and register it in :data:`LAYOUTS` under its ``board.shape`` name. Layouts
with owned arms (Mexican Train, Chicken Foot) override :meth:`Layout.moves` too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Protocol

from deckgen.engine.moves import Move


class TileTable(Protocol):
    """What a layout reads about the tiles (by deck index); :class:`Tables` has it."""

    @property
    def lo(self) -> Sequence[int]: ...
    @property
    def hi(self) -> Sequence[int]: ...
    @property
    def pipsum(self) -> Sequence[int]: ...
    @property
    def is_double(self) -> Sequence[bool]: ...
    @property
    def suit(self) -> Sequence[int]:
        """Bitmask of the tiles carrying value ``v``, by ``v``."""
        ...


_MOVES: dict[int, Move] = {}
"""Moves are immutable: one object per (tile, end, value), made once."""


class Layout:
    """The line: two open ends; doubles are laid like any other tile."""

    name: ClassVar[str] = "line"
    __slots__ = ("ends",)
    again = False
    """The seat that just laid a tile moves again (a train layout's double)."""

    def __init__(self) -> None:
        self.ends: list[int] = []
        """Open end values (empty before the first tile)."""

    def copy(self) -> Layout:
        out = type(self)()
        out.ends = self.ends.copy()
        return out

    # ---------------------------------------------------------------- the rule
    def crosswise(self, t: TileTable, tile: int) -> bool:
        """Whether ``tile`` would lie across (and open two ends) if laid now."""
        return False

    def laid_across(self) -> None:
        """A double was just laid across (a spinner allows only one)."""

    def to_move(self, seat: int) -> None:
        """The kernel says whose turn it is (layouts with owned arms use it)."""

    def passed(self, seat: int) -> None:
        """The kernel says ``seat`` passed (a train layout marks its train open)."""

    def clauses(self) -> set[str]:
        """Clause ids of the layout's own rules that decided something this round."""
        return set()

    def someone_can_play(self, t: TileTable, hands: Sequence[int]) -> bool:
        """After every player in turn had to pass and nothing can be drawn: whether some
        seat could lay a tile now (``end.blocked``: the round ends only when nobody
        can). The open ends are the same for every seat here and did not change during
        those passes, so nobody can; layouts whose ends depend on the seat (a train
        opened by its owner's pass) ask every seat."""
        return False

    # ---------------------------------------------------------------- placing
    def start(self, t: TileTable, tile: int) -> bool:
        """Lay the first tile; return whether it lies across."""
        a = t.lo[tile]
        if t.is_double[tile] and self.crosswise(t, tile):
            self.ends = [a, a, a, a]
            self.laid_across()
            return True
        self.ends = [a, t.hi[tile]]
        return False

    def place(self, t: TileTable, tile: int, end: int) -> bool:
        """Lay ``tile`` on open end ``end`` (it must carry that end's number); return
        whether it lies across. The end then shows the tile's other number."""
        ends = self.ends
        v = ends[end]
        ends[end] = t.pipsum[tile] - v
        if t.is_double[tile] and self.crosswise(t, tile):
            ends.append(v)
            ends.append(v)
            self.laid_across()
            return True
        return False

    # ---------------------------------------------------------------- asking
    def can_place(self, t: TileTable, tile: int, end: int) -> bool:
        """Whether ``tile`` may be laid on open end ``end`` (it carries the end's number)."""
        if not 0 <= end < len(self.ends):
            return False
        v = self.ends[end]
        return t.lo[tile] == v or t.hi[tile] == v

    def fits(self, t: TileTable) -> int:
        """Bitmask of the tiles that fit some open end."""
        ends = self.ends
        suit = t.suit
        if len(ends) == 2:
            return suit[ends[0]] | suit[ends[1]]
        m = 0
        for v in ends:
            m |= suit[v]
        return m

    def moves(self, t: TileTable, hand: int, kinds: Sequence[int] | None = None) -> list[Move]:
        """The distinct placements of ``hand``: for each distinct end (in end order) the
        fitting tiles by deck index; on an empty layout every tile as a lead.

        Ends are distinct by their number, or, when the rules count the open ends
        (``kinds``, per end, from :meth:`~deckgen.engine.endcount.EndCount.kinds`), by
        their kind: a tile may go on every open end that matches, and two ends showing
        the same number are one move only where either gives the same board and count."""
        if not self.ends:
            return [Move(i, -1, -1) for i in _bits(hand)]
        out: list[Move] = []
        seen = 0
        suit = t.suit
        known = _MOVES
        for k, v in enumerate(self.ends):
            key = v if kinds is None else kinds[k]
            if seen >> key & 1:
                continue
            seen |= 1 << key
            fit = hand & suit[v]
            while fit:
                low = fit & -fit
                i = low.bit_length() - 1
                key = i << 16 | k << 8 | v
                m = known.get(key)
                if m is None:
                    m = known[key] = Move(i, k, v)
                out.append(m)
                fit ^= low
        return out


class Spinner(Layout):
    """The first double placed lies across and opens two more ends."""

    name: ClassVar[str] = "spinner"
    __slots__ = ("open",)

    def __init__(self) -> None:
        super().__init__()
        self.open = True
        """No double lies across yet."""

    def copy(self) -> Spinner:
        out = Spinner()
        out.ends = self.ends.copy()
        out.open = self.open
        return out

    def crosswise(self, t: TileTable, tile: int) -> bool:
        return self.open

    def laid_across(self) -> None:
        self.open = False


class CrossDoubles(Layout):
    """Every double lies across and opens two more ends."""

    name: ClassVar[str] = "cross_doubles"
    __slots__ = ()

    def crosswise(self, t: TileTable, tile: int) -> bool:
        return True


LAYOUTS: dict[str, type[Layout]] = {
    "line": Layout,
    "spinner": Spinner,
    "cross_doubles": CrossDoubles,
}
"""Every layout by its ``board.shape`` name."""


def new_layout(shape: str) -> Layout:
    """An empty layout of the rules file's ``board.shape``."""
    return LAYOUTS[shape]()


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
