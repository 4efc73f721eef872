"""A move: a tile on an open end, a lead, or a pass (imports nothing of ours, so the
layouts, the state and the players all name it without a cycle)."""

from __future__ import annotations

from typing import NamedTuple


class Move(NamedTuple):
    """Place deck tile ``tile`` on open end ``end`` (matching ``value``), or pass.

    A lead on the empty board has ``end = -1, value = -1``; a pass has ``tile = -1``.
    """

    tile: int
    end: int
    value: int

    @property
    def is_pass(self) -> bool:
        return self.tile < 0


PASS = Move(-1, -1, -1)
