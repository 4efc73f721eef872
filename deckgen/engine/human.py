"""A person at the terminal as a player: hand, open ends and numbered moves shown,
the move chosen by typing its number.

Takes text streams (stdin/stdout by default, any file-like object in tests); gives a
:class:`~deckgen.engine.players.Player`. Bad input is asked again; end of input stops
the game with an :class:`~deckgen.errors.InputError`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from deckgen.engine.moves import Move
from deckgen.engine.players import PlayerView
from deckgen.engine.seatnames import seat_name
from deckgen.engine.tables import bits
from deckgen.errors import InputError


class HumanPlayer:
    name = "human"

    def __init__(self, inp: TextIO | None = None, out: TextIO | None = None) -> None:
        self.inp = inp or sys.stdin
        self.out = out or sys.stdout
        self._seen = 0

    def _say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def choose(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        tiles = view.tables.tiles
        hand = " ".join(str(tiles[i]) for i in bits(view.hand))
        ends = " ".join(str(v) for v in view.ends) if view.ends else "(empty table)"
        others = ", ".join(
            f"{seat_name(s)}: {c} tile{'' if c == 1 else 's'}"
            for s, c in enumerate(view.hand_counts)
            if s != view.seat
        )
        self._say("")
        if len(view.history) + 1 < self._seen or (not view.history and self._seen):
            self._say(
                "A new round begins. Points so far: " + ", ".join(str(v) for v in view.totals)
            )
            self._seen = 0
        for a in view.history[self._seen :]:
            if a.seat == view.seat:
                if a.kind == "draw":
                    self._say(f"  you draw {tiles[a.tile]}")
                continue
            if a.kind == "lead":
                self._say(f"  {seat_name(a.seat)} leads {tiles[a.tile]}")
            elif a.kind == "play":
                self._say(f"  {seat_name(a.seat)} plays {tiles[a.tile]} on the {a.value}")
            elif a.kind == "draw":
                self._say(f"  {seat_name(a.seat)} draws a tile")
            else:
                self._say(f"  {seat_name(a.seat)} passes")
        self._seen = len(view.history) + 1
        self._say(
            f"Your turn ({seat_name(view.seat)}). Open ends: {ends}. Stock: {view.stock_count}."
        )
        self._say(f"Others: {others}.")
        self._say(f"Your hand: {hand}")
        for k, m in enumerate(moves, start=1):
            if m.is_pass:
                self._say(f"  {k}. pass")
            elif m.end < 0:
                self._say(f"  {k}. lead {tiles[m.tile]}{_count_after(view, m)}")
            else:
                self._say(
                    f"  {k}. play {tiles[m.tile]} on the {m.value} (end {m.end})"
                    + _count_after(view, m)
                )
        while True:
            self.out.write(f"Move [1-{len(moves)}]: ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                raise InputError(
                    "the input ended before the game did",
                    where="standard input",
                    fix="type the number of a move and press Enter",
                )
            text = line.strip()
            if text.isdigit() and 1 <= int(text) <= len(moves):
                return moves[int(text) - 1]
            self._say(f"Please type a number from 1 to {len(moves)}.")


def _count_after(view: PlayerView, move: Move) -> str:
    """Where the open ends count (All Fives): what they count after ``move`` and what it
    scores, so that two ends of one number (a spinner's side, a long side) can be told
    apart; empty otherwise."""
    state = view.round
    if getattr(state, "endcount", None) is None:
        return ""
    after = state.copy()  # type: ignore[attr-defined]  # a RoundState (PlayerView.round)
    after.step(move)
    count: int = after.endcount.count(after.layout.ends)
    side = view.tables.side_of[view.seat]
    scored: int = after.play_points[side] - state.play_points[side]  # type: ignore[attr-defined]
    return f": the ends count {count}" + (f", scores {scored}" if scored else "")
