"""What playing many matches of a rules file produced, as one mergeable accumulator.

Takes engine results (:class:`~deckgen.engine.MatchResult` with its rounds), or the
arrays of the batched fast path; gives :class:`PlayTally`: the statistics of rounds
and matches (with 95 % intervals through :mod:`deckgen.rulecheck.stats`), how often
each clause decided something, the gaps met with the seed of a first example match,
and any engine failure. Worker processes fill one each; the parent merges them in
chunk order, so the result does not depend on the number of workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from deckgen.engine import MatchResult, RoundResult
from deckgen.rulecheck.decisions import DecisionCount
from deckgen.rulecheck.stats import Mean, Proportion, Tally

DEFAULT_SECONDS_PER_TURN = 10.0
"""Assumed seconds for one turn (a tile laid, or the draws and a pass)."""
DEFAULT_SETUP_SECONDS_PER_ROUND = 60.0
"""Assumed seconds per round to shuffle, deal and count the points."""


@dataclass
class GapCount:
    """How often a situation the file leaves open occurred, and where first."""

    description: str
    fallback: str
    events: int = 0
    matches: int = 0
    example_seed: int = -1
    """Seed of the first match (in chunk order) that met it."""

    def merge(self, other: GapCount) -> None:
        self.events += other.events
        self.matches += other.matches
        if self.example_seed < 0:
            self.example_seed = other.example_seed


@dataclass
class Failure:
    """An engine failure (an invariant broken, an exception) in one match."""

    seed: int
    kind: str
    message: str


@dataclass
class PlayTally:
    """Everything the check counts while matches are played; merge chunks in order."""

    players: int
    sides: int
    seconds_per_turn: float = DEFAULT_SECONDS_PER_TURN
    setup_seconds: float = DEFAULT_SETUP_SECONDS_PER_ROUND
    rounds: int = 0
    matches: int = 0
    turns: Mean = field(default_factory=Mean)
    draws: Mean = field(default_factory=Mean)
    passes: Mean = field(default_factory=Mean)
    tiles_played: Mean = field(default_factory=Mean)
    redeals: Mean = field(default_factory=Mean)
    ends: Tally = field(default_factory=Tally)
    round_winner: Tally = field(default_factory=Tally)
    """Keys: the winning side's index, ``shared`` (several) or ``none``."""
    winner_from_starter: Tally = field(default_factory=Tally)
    """Single-winner rounds by the winner's side counted from the starter's (0 = starter)."""
    starter_wins: Proportion = field(default_factory=Proportion)
    points: list[Mean] = field(default_factory=list)
    """Points per round for each side."""
    winner_points: Mean = field(default_factory=Mean)
    match_rounds: Mean = field(default_factory=Mean)
    match_turns: Mean = field(default_factory=Mean)
    match_minutes: Mean = field(default_factory=Mean)
    match_winner: Tally = field(default_factory=Tally)
    clause_rounds: dict[str, int] = field(default_factory=dict)
    clause_matches: dict[str, int] = field(default_factory=dict)
    gaps: dict[str, GapCount] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    invariant_rounds: int = 0
    """Rounds played with the engine's invariant checks on."""
    engine_rounds: int = 0
    """Rounds played by the reference engine (the judge of coverage and gaps)."""
    drawable: int = 0
    """Tiles a round can draw at most (0: nothing is drawn); set by whoever fills it."""
    stock_drained: int = 0
    """Rounds that drew every drawable tile (``drawable`` > 0)."""
    ties: int = 0
    """Rounds that ended with a tie for the lowest hand (decided by a rule or a gap)."""
    turn_hist: dict[int, int] = field(default_factory=dict)
    """Rounds by their number of turns."""
    lead_changes: Mean = field(default_factory=Mean)
    """Per match: how often the sole leader of the running totals changed."""
    decided_at: Mean = field(default_factory=Mean)
    """Per match with one winner: the share of its rounds played until the winner led
    for good (1.0: only the last round decided it)."""
    decisions: DecisionCount | None = None
    """Decision moves and branching factor, counted on the rounds played with invariant
    checks (None: no such rounds)."""

    def __post_init__(self) -> None:
        if not self.points:
            self.points = [Mean() for _ in range(self.sides)]

    # ------------------------------------------------------------ filling
    def add_match(
        self,
        m: MatchResult,
        seed: int,
        side_of: tuple[int, ...],
        *,
        checked: bool,
    ) -> None:
        """Count one match of the reference engine played from ``seed``."""
        self.matches += 1
        turns = 0
        seen: set[str] = set()
        for r in m.rounds:
            self._add_round(r, side_of)
            turns += r.turns
            for cid in r.clauses:
                self.clause_rounds[cid] = self.clause_rounds.get(cid, 0) + 1
            for g in r.gaps:
                self._gap(g.situation, g.description, g.fallback, seed, seen)
        n = len(m.rounds)
        changes, decided = lead_story([r.points for r in m.rounds], m.winners)
        self.lead_changes.add(changes)
        if decided is not None:
            self.decided_at.add(decided)
        self.engine_rounds += n
        if checked:
            self.invariant_rounds += n
        for cid in m.clauses:
            self.clause_matches[cid] = self.clause_matches.get(cid, 0) + 1
        for g in m.gaps:
            self._gap(g.situation, g.description, g.fallback, seed, seen)
        self._add_match_totals(n, turns, m.winners)

    def _gap(self, situation: str, desc: str, fallback: str, seed: int, seen: set[str]) -> None:
        gc = self.gaps.get(situation)
        if gc is None:
            gc = self.gaps[situation] = GapCount(desc, fallback, example_seed=seed)
        gc.events += 1
        if situation not in seen:
            seen.add(situation)
            gc.matches += 1

    def _add_match_totals(self, rounds: int, turns: int, winners: tuple[int, ...]) -> None:
        self.match_rounds.add(rounds)
        self.match_turns.add(turns)
        self.match_minutes.add((turns * self.seconds_per_turn + rounds * self.setup_seconds) / 60.0)
        if len(winners) == 1:
            self.match_winner.add(str(winners[0]))
        else:
            self.match_winner.add("shared" if winners else "none")

    def _add_round(self, r: RoundResult, side_of: tuple[int, ...]) -> None:
        self.rounds += 1
        self.turns.add(r.turns)
        self.draws.add(r.draws)
        self.passes.add(r.passes)
        self.tiles_played.add(r.tiles_played)
        self.redeals.add(r.redeals)
        self.ends.add(r.end)
        self.turn_hist[r.turns] = self.turn_hist.get(r.turns, 0) + 1
        if self.drawable and r.draws >= self.drawable:
            self.stock_drained += 1
        if "score.tie" in r.clauses or any(g.situation == "score.tie" for g in r.gaps):
            self.ties += 1
        for i, p in enumerate(r.points):
            self.points[i].add(p)
        if len(r.winners) == 1:
            w = r.winners[0]
            self.round_winner.add(str(w))
            own = side_of[r.starter]
            self.winner_from_starter.add(str((w - own) % self.sides))
            self.starter_wins.add(w == own)
            self.winner_points.add(r.points[w])
        else:
            self.round_winner.add("shared" if r.winners else "none")

    # ------------------------------------------------------------ merging
    def merge(self, other: PlayTally) -> None:
        """Add ``other`` (a later chunk) to this tally."""
        self.rounds += other.rounds
        self.matches += other.matches
        for name in (
            "turns",
            "draws",
            "passes",
            "tiles_played",
            "redeals",
            "winner_points",
            "match_rounds",
            "match_turns",
            "match_minutes",
            "lead_changes",
            "decided_at",
        ):
            getattr(self, name).merge(getattr(other, name))
        for name in ("ends", "round_winner", "winner_from_starter", "match_winner"):
            getattr(self, name).merge(getattr(other, name))
        self.starter_wins.merge(other.starter_wins)
        for mine, theirs in zip(self.points, other.points, strict=True):
            mine.merge(theirs)
        for cid, k in other.clause_rounds.items():
            self.clause_rounds[cid] = self.clause_rounds.get(cid, 0) + k
        for cid, k in other.clause_matches.items():
            self.clause_matches[cid] = self.clause_matches.get(cid, 0) + k
        for sit, gc in other.gaps.items():
            if sit in self.gaps:
                self.gaps[sit].merge(gc)
            else:
                self.gaps[sit] = GapCount(
                    gc.description, gc.fallback, gc.events, gc.matches, gc.example_seed
                )
        self.failures.extend(other.failures)
        self.drawable = max(self.drawable, other.drawable)
        self.stock_drained += other.stock_drained
        self.ties += other.ties
        for turns, k in other.turn_hist.items():
            self.turn_hist[turns] = self.turn_hist.get(turns, 0) + k
        self.invariant_rounds += other.invariant_rounds
        self.engine_rounds += other.engine_rounds
        if other.decisions is not None:
            if self.decisions is None:
                self.decisions = DecisionCount()
            self.decisions.merge(other.decisions)


def lead_story(points: Sequence[Sequence[int]], winners: Sequence[int]) -> tuple[int, float | None]:
    """(lead changes, decided at) of one match from its rounds' points per side.

    After each round the side with the highest running total leads if it is alone
    there. A lead change is a round after which a side leads alone that is not the last
    side that led alone (a tie in between does not count as a change). ``decided at``
    is, for a match with one winner, the share of its rounds played until the winner
    led alone for good: ``k / rounds`` when it leads alone after round ``k`` and every
    later round (1.0 when it does not lead alone after the last round); None for a
    match without one winner.

    >>> lead_story([(5, 0), (0, 9), (3, 0)], (1,))
    (1, 0.6666666666666666)
    """
    totals = [0] * (len(points[0]) if points else 0)
    last = -1
    changes = 0
    now = -1
    streak = 0
    for k, pts in enumerate(points):
        for i, p in enumerate(pts):
            totals[i] += p
        best = max(totals)
        top = [i for i, t in enumerate(totals) if t == best]
        was = now
        now = top[0] if len(top) == 1 else -1
        if now >= 0:
            if last >= 0 and now != last:
                changes += 1
            last = now
            if now != was:
                streak = k
    if len(winners) != 1 or not points:
        return changes, None
    if now != winners[0]:
        return changes, 1.0
    return changes, (streak + 1) / len(points)


def merged(parts: list[PlayTally]) -> PlayTally:
    """One tally of ``parts``, merged in order (``parts`` must not be empty)."""
    first = parts[0]
    total = PlayTally(first.players, first.sides, first.seconds_per_turn, first.setup_seconds)
    for part in parts:
        total.merge(part)
    return total
