"""``deckgen.load_rules`` and ``deckgen.play_match``: a rules file, and one match of it.

Thin wrappers over :mod:`deckgen.rulespec` and :mod:`deckgen.engine`: a rules
reference (id, alias, German or English name, or a path) and keyword options in, a
:class:`Match` out, which carries the engine's result, the game record
(docs/game-record.md) and the readable course that ``deckgen rules play`` prints.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen.errors import InputError

if TYPE_CHECKING:
    from deckgen.engine import MatchResult, Player
    from deckgen.rulespec import RuleSpec


def load_rules(rules: str | PathLike[str] | RuleSpec) -> RuleSpec:
    """The rules file ``rules`` names (an id, an alias, a name or a path), validated.

    >>> load_rules("Karten-Domino").id
    'card-domino'
    """
    from deckgen.rulespec import RuleSpec
    from deckgen.rulespec import load_rules as load

    if isinstance(rules, RuleSpec):
        return rules
    return load(rules if isinstance(rules, str) else Path(rules))


@dataclass(frozen=True)
class Match:
    """One match played to its end."""

    rules: RuleSpec
    players: int
    seed: int
    bots: tuple[str, ...]
    """The player's name per seat (``random``, ``greedy``, ``smart``, ``human`` ...)."""
    result: MatchResult
    """The engine's result: rounds (with deals and actions), totals, winners, gaps."""

    @property
    def totals(self) -> tuple[int, ...]:
        """Each side's points at the end."""
        return self.result.totals

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning sides (one, or several on a shared win)."""
        return self.result.winners

    def winner_names(self) -> list[str]:
        """``seat 2`` or ``team 0+2`` for each winning side."""
        from deckgen.engine.course import side_name

        return [side_name(self.result.sides, w) for w in self.result.winners]

    def record(self) -> dict[str, Any]:
        """The game record (JSON-ready; docs/game-record.md)."""
        from deckgen.engine.record import match_record

        return match_record(self.rules, self.result, seed=self.seed, bots=self.bots)

    def write_record(self, path: str | PathLike[str]) -> Path:
        """Write the game record to ``path`` (atomically) and return the path."""
        from deckgen import atomic
        from deckgen.engine.record import record_json

        target = Path(path)
        atomic.write_text(target, record_json(self.record()))
        return target

    def lines(self) -> list[str]:
        """The course of the match, readable, as ``deckgen rules play`` prints it."""
        from deckgen.engine.course import match_lines

        return match_lines(self.rules, self.result, bots=list(self.bots))


def play_match(
    rules: str | PathLike[str] | RuleSpec,
    *,
    players: int | None = None,
    bots: Sequence[str | Player] = ("random",),
    seed: int | None = None,
    check_invariants: bool = False,
) -> Match:
    """Play one match of ``rules`` to its end (every round recorded).

    ``players``: the player count (default: the smallest the rules allow). ``bots``:
    per seat a bot name (``random``, ``greedy``, ``smart``) or any object with a
    ``name`` and ``choose(view, moves)`` (:class:`deckgen.engine.Player`); the last
    repeats for the remaining seats. ``seed``: the same seed plays the same match
    (default: a random one, kept in :attr:`Match.seed`).
    """
    from deckgen.engine import Engine, make_bots
    from deckgen.engine import play_match as play
    from deckgen.engine.bots import per_seat

    spec = load_rules(rules)
    n = players if players is not None else spec.player_counts[0]
    spec.hand_size(n)  # validates the player count
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    if seed < 0:
        raise InputError(
            "the seed must not be negative", where="option --seed", fix="use 0 or more"
        )
    if not bots:
        bots = ("random",)
    chosen = per_seat(bots, n)
    names = [b if isinstance(b, str) else "random" for b in chosen]
    seats = make_bots(names, n, seed)
    for seat, player in enumerate(chosen):
        if not isinstance(player, str):
            seats[seat] = player
    labels = tuple(p.name for p in seats)
    result = play(Engine(spec, n, check_invariants=check_invariants), seats, seed, record=True)
    return Match(rules=spec, players=n, seed=seed, bots=labels, result=result)
