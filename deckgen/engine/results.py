"""What a round and a match produce: small, flat result objects that aggregate cheaply.

A :class:`RoundResult` says how the round ended (``out``, ``blocked``, ``reserve``),
who won it, the points of each side, the counts (turns, draws, passes, tiles played,
redeals), the clause ids that decided something and the :class:`Gap` events met.
A :class:`MatchResult` holds its rounds and the totals. Both are plain dataclasses of
ints, strings and tuples, so they pickle fast from worker processes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Literal

RoundEnd = Literal["out", "blocked", "reserve"]
"""How a round ended: someone went out, nobody could play, only the reserve was left."""
ActionKind = Literal["lead", "play", "draw", "pass"]

END_OUT: Final = "out"
END_BLOCKED: Final = "blocked"
END_RESERVE: Final = "reserve"
ROUND_ENDS: tuple[RoundEnd, ...] = (END_OUT, END_BLOCKED, END_RESERVE)


class InvariantError(AssertionError):
    """The engine broke one of its invariants: a bug in deckgen, never a user error.

    Defined here, not beside the checks (:mod:`deckgen.engine.invariants`): mypyc
    compiles the checks, and a compiled class cannot extend ``AssertionError``."""


@dataclass(frozen=True, slots=True)
class Gap:
    """A situation whose rule the rules file does not state, and what the engine did.

    ``situation`` is an id from :data:`deckgen.rulespec.GAP_SITUATIONS`.
    """

    situation: str
    description: str
    fallback: str


@dataclass(frozen=True, slots=True)
class Action:
    """One step of a round: ``lead``, ``play``, ``draw`` or ``pass`` by ``seat``.

    ``tile`` is a deck index (-1 for a pass); ``end`` the index of the open end played
    on (-1 for a lead, a draw or a pass); ``value`` the number matched (-1 if none).
    """

    kind: ActionKind
    seat: int
    tile: int = -1
    end: int = -1
    value: int = -1


@dataclass(slots=True)
class DealRecord:
    """The deal a round was played from: hands and stock as deck indices.

    ``stock`` is in draw order (the first tile drawn first), before the start tile was
    turned up (after any turned-up double was put back: see ``lead.skip_double``);
    ``dead`` the tiles out of play. ``redeals``: how many deals the rules threw in
    before this one (a replayed deal at the redeal limit is kept, as it was in play).
    """

    hands: list[list[int]]
    stock: list[int]
    dead: list[int]
    redeals: int = field(default=0, repr=False)


@dataclass(slots=True)
class RoundResult:
    """The outcome of one round."""

    end: RoundEnd
    starter: int
    out_seat: int
    """The seat that went out, or -1."""
    winners: tuple[int, ...]
    """The winning sides (seats, or teams with partnerships); empty when nobody won."""
    points: tuple[int, ...]
    """Points scored per side in this round."""
    hand_values: tuple[int, ...]
    """Value left in each seat's hand at the end."""
    turns: int
    draws: int
    passes: int
    tiles_played: int
    redeals: int
    clauses: tuple[str, ...]
    """The clause ids that decided something in this round, each once, sorted."""
    gaps: tuple[Gap, ...] = ()
    turned_up: int = -1
    lead_tile: int = -1
    """The first tile on the board (turned up or led)."""
    deal: DealRecord | None = None
    actions: list[Action] | None = None
    play_points: tuple[int, ...] = ()
    """Of ``points``, what each side scored during play (``score.ends``); empty when
    the rules score nothing during play."""


@dataclass(slots=True)
class MatchResult:
    """The outcome of a match: its rounds, final totals and winning sides."""

    players: int
    sides: tuple[tuple[int, ...], ...]
    rounds: list[RoundResult]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    clauses: tuple[str, ...]
    """Match-level clause ids that decided something (match end, ties)."""
    gaps: tuple[Gap, ...] = ()
    totals_after: list[tuple[int, ...]] = field(default_factory=list)

    def all_gaps(self) -> list[Gap]:
        out = [g for r in self.rounds for g in r.gaps]
        out.extend(self.gaps)
        return out

    def summary(self) -> dict[str, Any]:
        return {
            "rounds": len(self.rounds),
            "totals": list(self.totals),
            "winners": list(self.winners),
            "ends": [r.end for r in self.rounds],
        }
