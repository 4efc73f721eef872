"""The end of a round: hand values, scores and the clauses that decided something.

Takes a :class:`RoundTally` (how the round ended, the final hands and what happened on
the way, from the kernel or a back-end); gives the
:class:`~deckgen.engine.results.RoundResult`. Scoring itself is
:func:`deckgen.engine.scoring.score_round`; this module keeps per-engine memos, as
scores are a pure function of (end, out seat, hand values).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from deckgen.engine.invariants import check_round, check_tiles
from deckgen.engine.results import Action, DealRecord, Gap, RoundEnd, RoundResult
from deckgen.engine.scoring import score_round
from deckgen.engine.tables import Tables

SCORE_MEMO = 1 << 14
"""Scored hands kept per engine (a few MB at most)."""

_PLAY_CLAUSES = (
    (1, "play.match"),
    (2, "play.doubles"),
    (4, "play.draw"),
    (8, "play.play_drawn"),
    (16, "play.draw_limit"),
    (32, "play.pass"),
    (64, "score.values"),
)


@dataclass(slots=True)
class RoundTally:
    """Everything a finished round is scored and described from."""

    end: RoundEnd
    out_seat: int
    """The seat that went out, or -1."""
    starter: int
    hands: list[int]
    fired: set[str]
    """Clause ids that decided something during setup."""
    gaps: list[Gap]
    turns: int
    draws: int
    passes: int
    played: int
    placed_double: bool
    drawn_played: bool
    limit_hit: bool
    first_tile: int
    turned_up: int = -1
    redeals: int = 0
    deal: DealRecord | None = None
    actions: list[Action] | None = None
    stock: list[int] | None = None
    """The stock left (with ``board`` and ``dead``: for the invariant checks)."""
    board: int = 0
    dead: int = 0
    play_points: tuple[int, ...] = ()
    """Points per side scored during play (``score.ends``); empty when the rules have none."""


@functools.lru_cache(maxsize=32)
def _chunk_tables(values: tuple[int, ...]) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """Chunk width and, per chunk of the deck, the value sum of every bit pattern.

    16-tile chunks (two or three tables of 65536 sums) for sets up to 48 tiles, else
    8-tile chunks: a hand's value is then a few table lookups.
    """
    width = 16 if len(values) <= 48 else 8
    tables = []
    for base in range(0, len(values), width):
        row = [0]
        for b in range(width):  # the patterns with bit b set follow those without it
            v = values[base + b] if base + b < len(values) else 0
            row += [x + v for x in row]
        tables.append(tuple(row))
    return width, tuple(tables)


class Finisher:
    """Turns round tallies into results for one rules file and player count."""

    def __init__(self, t: Tables, *, check_invariants: bool = False) -> None:
        self.t = t
        self.check = check_invariants
        self._hv_width, self._hv_tables = _chunk_tables(t.value)
        self._pairs = len(t.sides) < t.players and all(len(side) == 2 for side in t.sides)
        if len(t.sides) < t.players and not self._pairs:
            raise ValueError("sides of partners come in pairs")
        always = {"setup.deal", "setup.rest"}
        if len(t.sides[0]) > 1:
            always.add("setup.teams")
        self._always = frozenset(always)
        self._scores: dict[
            tuple[str, int, tuple[int, ...]],  # (end, side out or -1, values per side)
            tuple[tuple[int, ...], tuple[int, ...], tuple[str, ...], tuple[Gap, ...]],
        ] = {}
        self._clauses: dict[tuple[str, int, tuple[str, ...], tuple[str, ...]], tuple[str, ...]] = {}

    def hand_values(self, hands: list[int]) -> tuple[int, ...]:
        """The scoring value left in each hand, by table lookups per chunk of the deck."""
        tables = self._hv_tables
        if self._hv_width == 16 and len(tables) <= 3:
            if len(tables) == 1:
                r0 = tables[0]
                return tuple([r0[hm] for hm in hands])
            if len(tables) == 2:
                r0, r1 = tables
                return tuple([r0[hm & 0xFFFF] + r1[hm >> 16] for hm in hands])
            r0, r1, r2 = tables
            return tuple([r0[hm & 0xFFFF] + r1[hm >> 16 & 0xFFFF] + r2[hm >> 32] for hm in hands])
        width = self._hv_width
        chunk = (1 << width) - 1
        hv = []
        for hm in hands:
            total = 0
            for row in tables:
                total += row[hm & chunk]
                hm >>= width
            hv.append(total)
        return tuple(hv)

    def _round_clauses(
        self, end: str, flags: int, fired: set[str], sfired: tuple[str, ...]
    ) -> tuple[str, ...]:
        out = set(fired) | self._always
        for bit, clause in _PLAY_CLAUSES:
            if flags & bit:
                out.add(clause)
        out.add("end." + end)
        out.update(sfired)
        return tuple(sorted(out))

    def finish(self, r: RoundTally) -> RoundResult:
        """The result of the round ``r`` (checked when the engine checks invariants)."""
        t = self.t
        hands = r.hands
        hv = self.hand_values(hands)
        held = 0
        if t.special_mask:
            for hm in hands:
                held |= hm
            held &= t.special_mask
        # scores depend on the end, the side that went out and the values per side
        if self._pairs:
            key_values: tuple[int, ...] = tuple([hv[a] + hv[b] for a, b in t.sides])
        else:
            key_values = hv
        score_key = (r.end, t.side_of[r.out_seat] if r.out_seat >= 0 else -1, key_values)
        scored = self._scores.get(score_key)
        if scored is None:
            winners_, points_, sfired_, sgaps_ = score_round(t, t.scoring, r.end, r.out_seat, hv)
            scored = (winners_, points_, tuple(sfired_), tuple(sgaps_))
            if len(self._scores) < SCORE_MEMO:
                self._scores[score_key] = scored
        winners, points, sfired, sgaps = scored
        flags = (
            (1 if r.played else 0)
            | (2 if r.placed_double else 0)
            | (4 if r.draws else 0)
            | (8 if r.drawn_played else 0)
            | (16 if r.limit_hit else 0)
            | (32 if r.passes else 0)
            | (64 if held else 0)
        )
        # equal keys mean equal clause sets (a set's order may differ: then two entries)
        key = (r.end, flags, tuple(r.fired), sfired)
        clauses = self._clauses.get(key)
        if clauses is None:
            clauses = self._clauses[key] = self._round_clauses(r.end, flags, r.fired, sfired)
        gaps = r.gaps
        if sgaps:
            gaps.extend(sgaps)
        if r.play_points:  # scored during play (score.ends): added to the round's points
            points = tuple([a + b for a, b in zip(points, r.play_points, strict=True)])
            if any(r.play_points):
                clauses = tuple(sorted({*clauses, "score.ends"}))
        result = RoundResult(
            r.end,
            r.starter,
            r.out_seat,
            winners,
            points,
            hv,
            r.turns,
            r.draws,
            r.passes,
            r.played,
            r.redeals,
            clauses,
            tuple(gaps),
            r.turned_up,
            r.first_tile,
            r.deal,
            r.actions,
            r.play_points,
        )
        if self.check:
            check_tiles(t, hands, r.stock or [], r.board, r.dead)
            check_round(t, result, hands, r.dead)
        return result
