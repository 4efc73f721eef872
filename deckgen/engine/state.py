"""The rules kernel: one round as a state you step through, move by move.

Takes a set-up round (:class:`~deckgen.engine.setup.Setup`) and the compiled
:class:`~deckgen.engine.tables.Tables`; gives a :class:`RoundState` with
:meth:`~RoundState.legal_moves`, :meth:`~RoundState.apply`,
:attr:`~RoundState.is_over` and :meth:`~RoundState.result`. A round flows like the
rule book:

1. setup (:mod:`deckgen.engine.setup`): deal, redeals, starter, turned-up start tile;
2. the starter leads (unless a tile was turned up): a decision;
3. each turn: a player who cannot lay a tile draws, passes or ends the round, as
   :mod:`deckgen.engine.turn` says; these forced steps happen inside :meth:`apply`
   (and at the start), so the state always waits at a decision or is over;
4. a tile is laid by the layout (:mod:`deckgen.engine.layouts`), the only place a
   tile is placed; going out ends the round;
5. the result is scored (:mod:`deckgen.engine.finish`, :mod:`deckgen.engine.scoring`).

Hands and the board are bitmasks over deck indices; the stock is a list popped from
its end. A state is cheap to copy (:meth:`RoundState.copy`: a few lists), and
:meth:`apply` checks the move before changing anything, so a failed move leaves the
state as it was. Seats are numbered in playing order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from deckgen.engine.endcount import EndCount, ends_points
from deckgen.engine.finish import Finisher, RoundTally
from deckgen.engine.invariants import check_placement, check_tiles
from deckgen.engine.layouts import Layout, new_layout
from deckgen.engine.moves import PASS, Move
from deckgen.engine.players import PlayerView
from deckgen.engine.results import (
    END_BLOCKED,
    END_OUT,
    END_RESERVE,
    Action,
    Gap,
    InvariantError,
    RoundEnd,
    RoundResult,
)
from deckgen.engine.setup import Setup
from deckgen.engine.tables import Tables
from deckgen.engine.turn import blocked, can_draw, draw

MAX_TURNS = 100_000


class IllegalMove(ValueError):
    """A move that is not among the state's legal moves (nothing was changed)."""


@dataclass(slots=True)
class Counts:
    """What happened in a round so far."""

    turns: int = 0
    draws: int = 0
    passes: int = 0
    played: int = 0
    forced_passes: int = 0
    """Players in a row who had to pass."""
    placed_double: bool = False
    drawn_played: bool = False
    limit_hit: bool = False

    def copy(self) -> Counts:
        return Counts(
            self.turns,
            self.draws,
            self.passes,
            self.played,
            self.forced_passes,
            self.placed_double,
            self.drawn_played,
            self.limit_hit,
        )


class RoundState:
    """The whole state of one round; see the module docstring."""

    __slots__ = (
        "actions",
        "board",
        "check",
        "counts",
        "drew",
        "end",
        "endcount",
        "finisher",
        "fired",
        "first_tile",
        "gaps",
        "hands",
        "layout",
        "lead_tile",
        "legal",
        "out_seat",
        "passed_on",
        "play_points",
        "seat",
        "setup",
        "stock",
        "t",
        "turn_drew",
    )

    def __init__(
        self,
        t: Tables,
        finisher: Finisher,
        setup: Setup,
        *,
        fired: set[str],
        gaps: list[Gap],
        actions: list[Action] | None = None,
        check: bool = False,
        copy_of: RoundState | None = None,
    ) -> None:
        self.t = t
        self.finisher = finisher
        self.setup = setup
        if copy_of is not None:  # :meth:`copy` (compiled, a state has no other way in)
            self._copy_from(copy_of)
            return
        self.hands = setup.hands
        """Bitmask per seat."""
        self.stock = setup.stock
        """Pop from the end to draw."""
        self.board = 0
        """Bitmask of the tiles on the table."""
        self.layout: Layout = new_layout(t.shape)
        self.seat = setup.starter
        """The seat to move."""
        self.drew = 0
        """Tiles the seat to move drew for this decision."""
        self.turn_drew = 0
        """Tiles it drew earlier in the same turn (a turn that goes on to cover a double)."""
        self.counts = Counts()
        self.fired = fired
        """Clause ids that decided something at setup."""
        self.gaps = gaps
        self.passed_on = [0] * t.players
        """Per seat, a bitmask of the values it could not play on."""
        self.actions = actions
        """The round's actions when recorded, else None."""
        self.end: RoundEnd | Literal[""] = ""
        """How the round ended (``out``, ``blocked``, ``reserve``); empty while it runs."""
        self.out_seat = -1
        self.first_tile = -1
        self.lead_tile = setup.lead_tile
        self.legal = 0
        """Bitmask of the tiles the seat to move may lay."""
        self.check = check
        self.endcount = EndCount() if t.ends_multiple else None
        """The open ends' count, when the rules score it during play (``score.ends``)."""
        self.play_points = [0] * len(t.sides)
        """Points each side scored during play."""
        if setup.turned_up >= 0:
            i = self.first_tile = setup.turned_up
            self.board = 1 << i
            across = self.layout.start(t, i)
            if self.endcount is not None:
                self.endcount.start(t, i, across)
            self._next_decision()
        else:
            self.counts.turns = 1
            self.legal = self.hands[self.seat]
        if check:
            self._check_tiles()

    # ------------------------------------------------------------------ asking
    @property
    def is_over(self) -> bool:
        return bool(self.end)

    def legal_moves(self) -> list[Move]:
        """The moves of the seat to move, in engine order (empty when over).

        Before the first tile: a lead of each tile of the hand (by deck index), or
        only the tile the rules make the starter lead. Then: the distinct placements
        (see :meth:`~deckgen.engine.layouts.Layout.moves`; where the rules count the
        open ends, every end whose kind differs is its own move), and a pass after
        drawing when the rules let a player keep a drawn tile.
        """
        if self.end:
            return []
        if not self.layout.ends:
            if self.lead_tile >= 0:
                return [Move(self.lead_tile, -1, -1)]
            return self.layout.moves(self.t, self.legal)
        ec = self.endcount
        kinds = None if ec is None else ec.kinds(self.layout.ends)
        moves = self.layout.moves(self.t, self.legal, kinds)
        if self.drew and not self.t.must_play_drawn:  # turn.may_keep_drawn
            moves.append(PASS)
        return moves

    def view(self, totals: tuple[int, ...]) -> PlayerView:
        """What the seat to move may know (others' drawn tiles hidden)."""
        seat = self.seat
        history: tuple[Action, ...] = ()
        if self.actions is not None:
            history = tuple(
                Action("draw", a.seat) if a.kind == "draw" and a.seat != seat else a
                for a in self.actions
            )
        return PlayerView(
            seat=seat,
            hand=self.hands[seat],
            ends=tuple(self.layout.ends),
            board_count=self.board.bit_count(),
            stock_count=len(self.stock),
            hand_counts=tuple([h.bit_count() for h in self.hands]),
            passed_on=tuple(self.passed_on),
            totals=totals,
            drew=self.drew,
            tables=self.t,
            history=history,
            round=self,
        )

    # ------------------------------------------------------------------ stepping
    def copy(self) -> RoundState:
        """An independent copy (the tables, setup and finisher are shared, read-only)."""
        return RoundState(
            self.t, self.finisher, self.setup, fired=self.fired, gaps=self.gaps, copy_of=self
        )

    def _copy_from(self, other: RoundState) -> None:
        """Take ``other``'s state as a copy of its own (its lists and sets copied)."""
        self.hands = other.hands.copy()
        self.stock = other.stock.copy()
        self.board = other.board
        self.layout = other.layout.copy()
        self.seat = other.seat
        self.drew = other.drew
        self.turn_drew = other.turn_drew
        self.counts = other.counts.copy()
        self.fired = set(other.fired)
        self.gaps = list(other.gaps)
        self.passed_on = other.passed_on.copy()
        self.actions = None if other.actions is None else list(other.actions)
        self.end = other.end
        self.out_seat = other.out_seat
        self.first_tile = other.first_tile
        self.lead_tile = other.lead_tile
        self.legal = other.legal
        self.check = other.check
        self.endcount = None if other.endcount is None else other.endcount.copy()
        self.play_points = other.play_points.copy()

    def apply(self, move: Move) -> list[Action]:
        """Make ``move`` for the seat to move and every forced step after it; return
        the actions it caused (the move first). A tile laid on an end that shows the
        same as a listed move's end (same number and kind) is taken too. Raises
        :class:`IllegalMove` (and changes nothing) for a move that is not legal."""
        if self.end:
            raise IllegalMove("the round is over")
        if move not in self.legal_moves() and not self._same_as_listed(move):
            raise IllegalMove(f"seat {self.seat} may not make {move} here")
        before = len(self.actions) if self.actions is not None else 0
        log = self.actions
        if log is None:
            self.actions = []
        self.step(move)
        caused = self.actions[before:] if self.actions is not None else []
        if log is None:
            self.actions = None
        return caused

    def _same_as_listed(self, move: Move) -> bool:
        """Whether ``move`` lays a tile the seat may lay on an open end it fits, though
        :meth:`legal_moves` lists another end of the same kind for it (it gives the
        same board and count: ``apply`` takes it as the rules allow it)."""
        i, end = move.tile, move.end
        ends = self.layout.ends
        return (
            i >= 0
            and 0 <= end < len(ends)
            and bool(self.legal >> i & 1)
            and move.value == ends[end]
            and self.layout.can_place(self.t, i, end)
        )

    def step(self, move: Move) -> None:
        """:meth:`apply` for a move taken from :meth:`legal_moves` (not checked again)."""
        t = self.t
        seat = self.seat
        i = move.tile
        c = self.counts
        if i < 0:  # kept a drawn tile and passed
            c.passes += 1
            c.forced_passes = 0
            self.layout.passed(seat)
            if self.actions is not None:
                self.actions.append(Action("pass", seat))
            self._next_seat()
            return
        bit = 1 << i
        if self.check:
            if move.end >= 0:
                check_placement(t, self.layout, i, move.end, self.hands[seat])
            elif not self.hands[seat] & bit:
                raise InvariantError(f"seat {seat} leads a tile it does not hold")
        self.hands[seat] ^= bit
        self.board |= bit
        if move.end < 0:
            self.first_tile = i
            across = self.layout.start(t, i)
            if self.actions is not None:
                self.actions.append(Action("lead", seat, i, -1, -1))
        else:
            v = self.layout.ends[move.end]
            across = self.layout.place(t, i, move.end)
            if self.actions is not None:
                self.actions.append(Action("play", seat, i, move.end, v))
            if self.drew:
                c.drawn_played = True
        if self.endcount is not None:
            self._count_ends(seat, i, move.end, across)
        if t.is_double[i]:
            c.placed_double = True
        c.played += 1
        c.forced_passes = 0
        if self.check:
            self._check_tiles()
        if not self.hands[seat]:
            self.end = END_OUT
            self.out_seat = seat
            return
        if self.layout.again:  # a train's double: the same seat satisfies it
            self.turn_drew += self.drew
            self._next_decision()
            return
        self._next_seat()

    # ------------------------------------------------------------------ forced steps
    def _next_seat(self) -> None:
        self.turn_drew = 0
        s = self.seat + 1
        self.seat = s if s < self.t.players else 0
        self._next_decision()

    def _next_decision(self) -> None:
        """Begin turns (drawing, passing, or ending the round) until a seat can lay."""
        t = self.t
        c = self.counts
        hands = self.hands
        actions = self.actions
        while True:
            c.turns += 1
            if c.turns > MAX_TURNS:
                raise InvariantError("a round ran past 100000 turns")
            seat = self.seat
            self.layout.to_move(seat)
            fits = self.layout.fits(t)
            legal = hands[seat] & fits
            self.drew = 0
            if legal:
                self.legal = legal
                return
            if can_draw(t):
                d = draw(t, self.stock, fits, self.turn_drew if t.draw_per_turn else 0)
                for i in d.tiles:
                    hands[seat] |= 1 << i
                    if actions is not None:
                        actions.append(Action("draw", seat, i))
                if self.check:
                    self._check_tiles()
                self.drew = len(d.tiles)
                c.draws += self.drew
                if d.limit_hit:
                    c.limit_hit = True
                if d.reserve_end:
                    self.end = END_RESERVE
                    return
                if d.fitting:
                    self.legal = d.fitting
                    return
            c.passes += 1
            c.forced_passes += 1
            vm = 0
            for v in self.layout.ends:
                vm |= 1 << v
            self.passed_on[seat] |= vm
            self.layout.passed(seat)
            if actions is not None:
                actions.append(Action("pass", seat))
            if blocked(t, c.forced_passes, len(self.stock)) and (
                t.block_on_passes  # the other reading of end.blocked
                or not self.layout.someone_can_play(t, hands)  # trains opened by the passes
            ):
                self.end = END_BLOCKED
                return
            self.turn_drew = 0
            s = seat + 1
            self.seat = s if s < t.players else 0

    def _count_ends(self, seat: int, tile: int, end: int, across: bool) -> None:
        """Score the open ends after ``tile`` was laid (``score.ends``)."""
        ec = self.endcount
        assert ec is not None
        if end < 0:
            ec.start(self.t, tile, across)
        else:
            ec.placed(self.t, tile, end, across)
        pts = ends_points(ec.count(self.layout.ends), self.t.ends_multiple)
        if pts:
            self.play_points[self.t.side_of[seat]] += pts

    def _check_tiles(self) -> None:
        check_tiles(self.t, self.hands, self.stock, self.board, self.setup.dead)

    # ------------------------------------------------------------------ the end
    def result(self) -> RoundResult:
        """The round's result (scores, counts, clauses); the round must be over."""
        if not self.end:
            raise ValueError("the round is not over")
        c = self.counts
        s = self.setup
        return self.finisher.finish(
            RoundTally(
                end=self.end,  # not empty: checked above
                out_seat=self.out_seat,
                starter=s.starter,
                hands=self.hands,
                fired=self.fired | self.layout.clauses(),
                gaps=self.gaps,
                turns=c.turns,
                draws=c.draws,
                passes=c.passes,
                played=c.played,
                placed_double=c.placed_double,
                drawn_played=c.drawn_played,
                limit_hit=c.limit_hit,
                first_tile=self.first_tile,
                turned_up=s.turned_up,
                redeals=s.redeals,
                deal=s.deal,
                actions=self.actions,
                stock=self.stock,
                board=self.board,
                dead=s.dead,
                play_points=tuple(self.play_points) if self.endcount is not None else (),
            )
        )
