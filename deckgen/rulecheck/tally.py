"""What playing many matches of a rules file produced, as one mergeable accumulator.

Takes whole matches as arrays (:class:`MatchBatch`: the fast path's ``Matches``, or the
reference engine's matches turned into the same arrays by
:mod:`deckgen.rulecheck.chunks`), and the reference engine's
:class:`~deckgen.engine.MatchResult` for what only it tells; gives :class:`PlayTally`:
the statistics of rounds and matches (with 95 % intervals through
:mod:`deckgen.rulecheck.stats`), counted one way for both paths by
:func:`count_matches`; how often each clause decided something, the gaps met with the
seed of a first example match, and any engine failure (:meth:`PlayTally.judge_match`).
Worker processes fill one each; the parent merges them in chunk order, so the result
does not depend on the number of workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from deckgen.engine import MatchResult
from deckgen.engine.backends.rounds import END_CODES
from deckgen.rulecheck.decisions import DecisionCount
from deckgen.rulecheck.stats import Mean, Proportion, Tally, mean_of

if TYPE_CHECKING:
    from deckgen.engine.backends.arrays import Flags, Floats, Ints
    from deckgen.engine.backends.rounds import Rounds

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
    def judge_match(self, m: MatchResult, seed: int, *, checked: bool) -> None:
        """Count what only the reference engine tells of one match played from
        ``seed``: the clauses that decided something per round and per match, the gaps
        met, and the rounds that ended in a tie (the ``score.tie`` clause or gap). Its
        statistics are counted with the rest of its chunk by :func:`count_matches`."""
        seen: set[str] = set()
        for r in m.rounds:
            for cid in r.clauses:
                self.clause_rounds[cid] = self.clause_rounds.get(cid, 0) + 1
            for g in r.gaps:
                self._gap(g.situation, g.description, g.fallback, seed, seen)
            if "score.tie" in r.clauses or any(g.situation == "score.tie" for g in r.gaps):
                self.ties += 1
        n = len(m.rounds)
        self.engine_rounds += n
        if checked:
            self.invariant_rounds += n
        for cid in m.clauses:
            self.clause_matches[cid] = self.clause_matches.get(cid, 0) + 1
        for g in m.gaps:
            self._gap(g.situation, g.description, g.fallback, seed, seen)

    def _gap(self, situation: str, desc: str, fallback: str, seed: int, seen: set[str]) -> None:
        gc = self.gaps.get(situation)
        if gc is None:
            gc = self.gaps[situation] = GapCount(desc, fallback, example_seed=seed)
        gc.events += 1
        if situation not in seen:
            seen.add(situation)
            gc.matches += 1

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


class MatchBatch(Protocol):
    """Whole matches as arrays, as :func:`count_matches` reads them: the fast path's
    :class:`~deckgen.engine.backends.matches.Matches`, or the reference engine's
    matches of a chunk in the same form."""

    @property
    def rounds(self) -> Rounds:
        """Every round (arrays, one entry per round)."""

    @property
    def match_of(self) -> Ints:
        """Each round's match, 0 .. ``count`` - 1 (a match's rounds in playing order)."""

    @property
    def count(self) -> int:
        """The number of matches."""

    @property
    def winners(self) -> Flags:
        """(matches, sides) booleans: each match's winning sides."""


def count_matches(tally: PlayTally, ms: MatchBatch, side_of: Sequence[int] | Ints) -> None:
    """Count the statistics of a batch of whole matches into ``tally``: the one place
    they are counted, for the fast path and the reference engine alike.

    Per round: turns, draws, passes, tiles played, redeals, how it ended, the winning
    side (``shared``: several, ``none``), the winner counted from the starter's side
    (``side_of``: each seat's side) and whether the starter won, the points of each
    side and of the single winner, the turns histogram and the rounds that drew every
    drawable tile (``tally.drawable``, set by whoever fills the tally). Per match:
    rounds, turns, playing time, the winner, the lead changes and when the winner led
    for good (:func:`lead_arrays`).
    """
    import numpy as np

    r = ms.rounds
    g = r.end.shape[0]
    ns = tally.sides
    part = PlayTally(tally.players, ns, tally.seconds_per_turn, tally.setup_seconds)
    part.rounds = g
    part.turns = mean_of(r.turns)
    part.draws = mean_of(r.draws)
    part.passes = mean_of(r.passes)
    part.tiles_played = mean_of(r.played)
    part.redeals = mean_of(r.redeals)
    _count_into(part.ends, np.bincount(r.end, minlength=len(END_CODES)), END_CODES)
    sides = [str(side) for side in range(ns)]
    nwin = r.winners.sum(axis=1)
    single = nwin == 1
    none, one, several = np.bincount(np.minimum(nwin, 2), minlength=3).tolist()
    w = r.winners.argmax(axis=1)
    _count_into(part.round_winner, np.bincount(w[single], minlength=ns), sides)
    _count_into(part.round_winner, [several, none], ("shared", "none"))
    own = np.asarray(side_of)[r.starter]
    rel = np.bincount(((w - own) % ns)[single], minlength=ns)
    _count_into(part.winner_from_starter, rel, sides)
    part.starter_wins = Proportion(int(rel[0]), one)
    part.points = [mean_of(r.points[:, k]) for k in range(ns)]
    part.winner_points = mean_of(r.points[np.nonzero(single)[0], w[single]])
    part.drawable = tally.drawable
    if part.drawable:
        part.stock_drained = int((np.asarray(r.draws) >= part.drawable).sum())
    hist = np.bincount(np.asarray(r.turns, dtype=np.int64))
    for length in np.nonzero(hist)[0]:
        part.turn_hist[int(length)] = int(hist[length])
    mcount = ms.count
    rounds = np.bincount(ms.match_of, minlength=mcount)
    turns = np.bincount(ms.match_of, weights=r.turns, minlength=mcount)
    part.matches = mcount
    part.match_rounds = mean_of(rounds)
    part.match_turns = mean_of(turns)
    part.match_minutes = mean_of(
        (turns * tally.seconds_per_turn + rounds * tally.setup_seconds) / 60.0
    )
    nl = ms.winners.sum(axis=1)
    lw = ms.winners.argmax(axis=1)
    none, _, several = np.bincount(np.minimum(nl, 2), minlength=3).tolist()
    _count_into(part.match_winner, np.bincount(lw[nl == 1], minlength=ns), sides)
    _count_into(part.match_winner, [several, none], ("shared", "none"))
    changes, leader, decided = lead_arrays(np.asarray(r.points), np.asarray(ms.match_of), mcount)
    part.lead_changes = mean_of(changes)
    part.decided_at = mean_of(np.where(leader == lw, decided, 1.0)[nl == 1])
    tally.merge(part)


def _count_into(tally: Tally, counts: Ints | list[int], keys: Sequence[str]) -> None:
    """Add ``counts[i]`` of ``keys[i]`` to ``tally``, each that is not 0, in order."""
    for key, k in zip(keys, list(counts), strict=False):
        if k:
            tally.add(key, int(k))


def lead_arrays(points: Ints, match_of: Ints, matches: int) -> tuple[Ints, Ints, Floats]:
    """Per match: lead changes, the sole leader after the last round (-1: none), and
    the share of rounds until that leader led alone for good.

    After each round the side with the highest running total leads if it is alone
    there. A lead change is a round after which a side leads alone that is not the last
    side that led alone (a tie in between does not count as a change). A match's
    winner, if it has one, led for good after round ``k`` of its ``rounds`` when it
    leads alone after round ``k`` and every later round: ``k / rounds`` (1.0 when it
    does not lead alone after the last round). ``points``: (rounds, sides) per round;
    ``match_of``: each round's match (a match's rounds in playing order).

    >>> import numpy as np
    >>> changes, leader, decided = lead_arrays(np.array([[5, 0], [0, 9], [3, 0]]),
    ...                                        np.array([0, 0, 0]), 1)
    >>> int(changes[0]), int(leader[0]), round(float(decided[0]), 4)
    (1, 1, 0.6667)
    """
    import numpy as np

    order = np.argsort(match_of, kind="stable")
    mo = match_of[order]
    pts = points[order].astype(np.int64)
    g = mo.shape[0]
    changes = np.zeros(matches, dtype=np.int64)
    leader = np.full(matches, -1, dtype=np.int64)
    decided = np.ones(matches)
    if g == 0:
        return changes, leader, decided
    idx = np.arange(g)
    start = np.ones(g, dtype=bool)
    start[1:] = mo[1:] != mo[:-1]
    first = np.maximum.accumulate(np.where(start, idx, 0))  # first round of each match
    cum = np.cumsum(pts, axis=0)
    base = np.where(first[:, None] > 0, cum[np.maximum(first - 1, 0)], 0)
    totals = cum - base
    best = totals.max(axis=1)
    alone = (totals == best[:, None]).sum(axis=1) == 1
    lead = np.where(alone, totals.argmax(axis=1), -1)
    # the last sole leader before each round, within its match (-1: none yet)
    at = np.where(alone, idx, -1)
    last_at = np.maximum.accumulate(at)
    prev_at = np.concatenate(([-1], last_at[:-1]))
    prev_ok = (prev_at >= first) & ~start
    prev_lead = np.where(prev_ok, lead[np.maximum(prev_at, 0)], -1)
    change = alone & (prev_lead >= 0) & (lead != prev_lead)
    np.add.at(changes, mo, change.astype(np.int64))
    # streaks: a round starts a streak when its sole leader differs from the round before
    before = np.concatenate(([-2], lead[:-1]))
    new_streak = alone & ((lead != before) | start)
    streak_at = np.maximum.accumulate(np.where(new_streak, idx, -1))
    last = np.ones(g, dtype=bool)
    last[:-1] = mo[1:] != mo[:-1]
    ends = np.nonzero(last)[0]
    rounds = ends - first[ends] + 1
    k = streak_at[ends] - first[ends] + 1
    decided[mo[ends]] = np.where(alone[ends], k / rounds, 1.0)
    leader[mo[ends]] = lead[ends]
    return changes, leader, decided


def merged(parts: list[PlayTally]) -> PlayTally:
    """One tally of ``parts``, merged in order (``parts`` must not be empty)."""
    first = parts[0]
    total = PlayTally(first.players, first.sides, first.seconds_per_turn, first.setup_seconds)
    for part in parts:
        total.merge(part)
    return total
