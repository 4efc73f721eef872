"""Whole matches on a fast engine: a batch of matches played to their end.

Takes a batch engine (:class:`~deckgen.engine.backends.protocol.BatchEngine`), a numpy
generator, a number of matches and the seats' bots; gives :class:`Matches`: every round
played and who won each match. A match of a fixed number of rounds whose later starters
follow from the deals alone is played as one batch of all its rounds; any other match
(to a target score, or playing on after a tie) takes its rounds from pools played in
advance (:func:`_pooled`), each match ending after the round it ended in, with the match
end decided as the engine's :func:`~deckgen.engine.match.match_over` decides it
(``tests/rulecheck/test_pools.py`` replays every match through it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from deckgen.engine.backends.rounds import Rounds
from deckgen.engine.match import MAX_ROUNDS

if TYPE_CHECKING:
    import numpy as np

    from deckgen.engine.backends.arrays import Flags, Hands, Ints
    from deckgen.engine.backends.rounds import Deals
    from deckgen.rulespec import RuleSpec


class RoundBatches(Protocol):
    """What the match logic asks of an engine that plays batches of single rounds
    (:class:`~deckgen.engine.backends.numpy_line.FastLine` and its kin)."""

    spec: RuleSpec
    n: int
    nsides: int

    def deal(
        self, rng: np.random.Generator, count: int, first_rule: Flags | None = None
    ) -> Deals: ...

    def first_rule(self, hands: Hands, lead_any: bool) -> tuple[Ints, Ints]: ...

    def play(
        self,
        deals: Deals,
        starter: Ints,
        lead_tile: Ints,
        lead_any: Flags,
        kinds: tuple[str, ...],
        rng: np.random.Generator,
    ) -> Rounds: ...


@dataclass
class Matches:
    """The rounds of a batch of matches and who won each match."""

    rounds: Rounds
    match_of: Ints
    """(rounds,) the match each round belongs to."""
    count: int
    winners: Flags
    """(matches, sides) booleans: the match's winning sides."""

    @staticmethod
    def concat(parts: list[Matches]) -> Matches:
        """One batch from several, in order, matches numbered on."""
        import numpy as np

        offsets = np.cumsum([0] + [p.count for p in parts[:-1]])
        return Matches(
            Rounds.concat([p.rounds for p in parts]),
            np.concatenate([p.match_of + o for p, o in zip(parts, offsets, strict=True)]),
            sum(p.count for p in parts),
            np.concatenate([p.winners for p in parts]),
        )

    def slice(self, first: int, stop: int) -> Matches:
        """Matches ``first .. stop - 1`` with their rounds, renumbered from 0."""
        import numpy as np

        keep = np.nonzero((self.match_of >= first) & (self.match_of < stop))[0]
        rounds = self.rounds.take(keep)
        return Matches(rounds, self.match_of[keep] - first, stop - first, self.winners[first:stop])


POOL_MARGIN = 1.05
"""The pools hold this share more rounds than the matches are expected to need."""
TOP_UP_ROUNDS = 4
"""When a pool runs dry, the pools of later rounds are topped up in one batch, with a
quarter of a match's expected rounds (at least this many) for every match still
running, and at least :data:`TOP_UP_MIN` in all: the matches still running then are
few, and most end within a few rounds. Rounds played and never used cost more than
one more small batch (numpy: 2.7 microseconds a round; a batch of a few rounds 1.5
ms), so the top-up errs on the small side."""
TOP_UP_MIN = 64
COHORT_MARGIN = 1.02
"""Matches that follow to reach a number of rounds are this share more than the
rounds still missing call for, so that one more group is almost always enough."""


def _leaders(totals: Ints, contenders: Flags) -> Flags:
    import numpy as np

    masked = np.where(contenders, totals, np.iinfo(np.int64).min)
    best = masked.max(axis=1)
    leading: Flags = totals == best[:, None]
    return contenders & leading


def play_matches(
    line: RoundBatches,
    rng: np.random.Generator,
    matches: int,
    kinds: tuple[str, ...],
    per_match: float = 4.0,
    rounds: int = 0,
) -> Matches:
    """Play ``matches`` matches to their end, and more until they hold ``rounds`` rounds
    (matches of varying length from pools sized for ``per_match`` rounds a match, see
    :func:`_pooled`; a fixed length: exactly ``matches``)."""
    m = line.spec.params.match
    if m.end == "rounds" and m.tie != "play_on":
        return _fixed(line, rng, matches, kinds)
    return _pooled(line, rng, matches, kinds, per_match, rounds)


def _fixed(
    line: RoundBatches, rng: np.random.Generator, matches: int, kinds: tuple[str, ...]
) -> Matches:
    """Every round of every match in one batch (match-major order)."""
    import numpy as np

    p = line.spec.params
    per = p.match.rounds or 1
    n = line.n
    g = matches * per
    rno = np.tile(np.arange(per), matches)
    later = rno > 0
    next_seat = p.opening.later_starter == "next_seat"
    deals = line.deal(rng, g, first_rule=~later if next_seat else None)
    lead_any = later & (p.opening.later_lead == "any")
    starter, lead = line.first_rule(deals.hands, lead_any=False)
    if later.any():
        s_later, l_later = line.first_rule(deals.hands[later], lead_any=True)
        if p.opening.later_lead != "any":
            _, l_later = line.first_rule(deals.hands[later], lead_any=False)
        starter[later] = s_later
        lead[later] = l_later
        if next_seat:
            first = starter[~later]
            starter[later] = (np.repeat(first, per)[later] + rno[later]) % n
            lead[later] = -1
    return fixed_matches(line.play(deals, starter, lead, lead_any, kinds, rng), matches)


def fixed_matches(r: Rounds, matches: int) -> Matches:
    """Rounds of ``matches`` matches of a fixed length (match-major order) with who won
    each match: the sides with the highest total."""
    import numpy as np

    per = len(r.end) // max(1, matches)
    totals = r.points.reshape(matches, per, -1).sum(axis=1)
    winners = _leaders(totals, np.ones(totals.shape, dtype=bool))
    return Matches(r, np.repeat(np.arange(matches), per), matches, winners)


FIRST = 0
"""Pool of the rounds dealt and started by the first round's rule (:func:`_pooled`)."""
LATER_ANY = 1
"""Pool of later rounds dealt by the first round's rule in which any tile may lead."""
SEAT = 2
"""Pools of later rounds started by the next seat: ``SEAT + s`` for seat ``s``."""


def _pooled(
    line: RoundBatches,
    rng: np.random.Generator,
    matches: int,
    kinds: tuple[str, ...],
    per_match: float,
    rounds: int = 0,
) -> Matches:
    """Matches of varying length, their rounds played in advance and handed out in order.

    A round's deal and starter never depend on the rounds before it on the fast path
    (:func:`~deckgen.engine.backends.registry.unsupported`), only on its number in the
    match: the first round is dealt and started by the first round's rule; a later one
    by that rule too, with any tile leading where the file says so, or started by the
    seat after the last round's starter. So every round of one pool
    (:data:`FIRST`, :data:`LATER_ANY`, :data:`SEAT` + seat) is as good as any other of
    it, and the rounds every match will need can be played before anyone knows how
    long each match lasts: pools for ``per_match`` rounds a match, played in one batch
    (the engine is fastest on large batches). The matches then take their rounds from
    the pools one round at a time, each the next unused round of its pool (whatever a
    round holds, it is not looked at before it is taken, so the rounds of a match are
    independent as if dealt one by one); a pool that runs dry is topped up. Rounds left
    in the pools are never looked at, unless ``rounds`` asks for more: then, once every
    match has ended, more matches follow, as many as the rounds still missing call for
    at the length the finished matches showed, until the matches hold ``rounds``
    rounds."""
    import numpy as np

    p = line.spec.params
    m = p.match
    n = line.n
    ns = line.nsides
    same_rule = p.opening.later_starter in ("same_rule", None)
    later_any = p.opening.later_lead == "any"
    # the pools later rounds come from
    later = np.array([LATER_ANY if later_any else FIRST]) if same_rule else SEAT + np.arange(n)
    parts: list[Rounds] = []
    points: list[Ints] = []
    starters: list[Ints] = []
    free: dict[int, list[Ints]] = {}
    """Each pool's unused rounds (global row numbers), in order."""
    size = 0

    def play(pools: Ints) -> None:
        nonlocal size
        first = pools <= LATER_ANY  # dealt and started by the first round's rule
        any_lead = (pools == LATER_ANY) | ((pools >= SEAT) & later_any)
        deals = line.deal(rng, len(pools), first_rule=first)
        starter = np.zeros(len(pools), dtype=np.int64)
        lead = np.full(len(pools), -1, dtype=np.int64)
        for lead_any in (False, True):
            sel = first & (any_lead == lead_any)
            if sel.all():
                starter, lead = line.first_rule(deals.hands, lead_any=lead_any)
            elif sel.any():
                starter[sel], lead[sel] = line.first_rule(deals.hands[sel], lead_any=lead_any)
        seat = pools >= SEAT
        starter[seat] = pools[seat] - SEAT
        lead[seat] = -1
        r = line.play(deals, starter, lead, any_lead, kinds, rng)
        parts.append(r)
        points.append(r.points)
        starters.append(r.starter)
        for pool in np.flatnonzero(np.bincount(pools)).tolist():
            free.setdefault(pool, []).append(size + np.nonzero(pools == pool)[0])
        size += len(pools)

    def left(pool: int) -> int:
        return sum(len(a) for a in free.get(pool, []))

    def take(pool: int, count: int) -> Ints:
        """The next ``count`` unused rounds of ``pool``."""
        have = free[pool]
        rows = np.concatenate(have) if len(have) > 1 else have[0]
        free[pool] = [rows[count:]]
        return rows[:count]

    def fill(cohort: int, rounds_each: float) -> None:
        """One batch: what the pools lack for ``cohort`` new matches of ``rounds_each``
        rounds (a first round each, and their later rounds)."""
        want = int(np.ceil(max(0.0, rounds_each - 1.0) * cohort * POOL_MARGIN / len(later)))
        need = {FIRST: cohort}
        for q in later.tolist():
            need[q] = need.get(q, 0) + want
        counts = {q: max(0, c - left(q)) for q, c in need.items()}
        if sum(counts.values()):
            play(np.repeat(np.array(list(counts)), list(counts.values())).astype(np.int64))

    fill(matches, per_match)
    size_of = matches  # the arrays below grow with each cohort
    totals = np.zeros((size_of, ns), dtype=np.int64)
    winners = np.zeros((size_of, ns), dtype=bool)
    first_starter = np.zeros(size_of, dtype=np.int64)
    active = np.arange(matches)
    taken: list[Ints] = []
    match_of: list[Ints] = []
    kept = 0
    played = 0  # rounds each running match has played (a cohort starts together)
    while len(active):
        k = len(active)
        if played == 0:
            pool_of = np.full(k, FIRST, dtype=np.int64)
        elif same_rule:
            pool_of = np.full(k, int(later[0]), dtype=np.int64)
        else:  # the seat after the last round's starter
            pool_of = SEAT + (first_starter[active] + played) % n
        pools, need = np.unique(pool_of, return_counts=True)
        short = {int(q): int(c) - left(int(q)) for q, c in zip(pools, need, strict=True)}
        if max(short.values()) > 0:  # one batch tops up every pool of later rounds
            top = max(TOP_UP_MIN, k * max(TOP_UP_ROUNDS, per_match / TOP_UP_ROUNDS)) / len(later)
            play(np.repeat(later, [max(short.get(int(q), 0), int(top)) for q in later]))
        rows = np.empty(k, dtype=np.int64)
        for q in pools.tolist():
            at = np.nonzero(pool_of == q)[0]
            rows[at] = take(q, len(at))
        all_points = np.concatenate(points) if len(points) > 1 else points[0]
        if len(points) > 1:
            points[:] = [all_points]
        if played == 0:
            all_starters = np.concatenate(starters) if len(starters) > 1 else starters[0]
            first_starter[active] = all_starters[rows]
        cum = totals[active] + all_points[rows]
        after = played + 1  # rounds each running match has played
        if m.end == "rounds":
            assert m.rounds is not None
            contenders = np.full(cum.shape, after >= m.rounds)
        else:
            assert m.target is not None
            contenders = cum >= m.target
        leaders = _leaders(cum, contenders)
        someone: Flags = np.asarray(contenders.any(axis=1), dtype=bool)
        over: Flags = someone & ((leaders.sum(axis=1) == 1) | (m.tie != "play_on"))
        if after >= MAX_ROUNDS:  # the engine's limit: the leaders so far
            everyone = _leaders(cum, np.ones(cum.shape, dtype=bool))
            leaders = np.where(someone[:, None], leaders, everyone)
            over = np.ones(k, dtype=bool)
        taken.append(rows)
        match_of.append(active)
        kept += k
        totals[active] = cum
        winners[active[over]] = leaders[over]
        played += 1
        active = active[~over]
        if not len(active) and kept < rounds:  # whole matches until they hold ``rounds``
            mean = kept / size_of  # rounds a match, as these matches played them
            cohort = max(1, int(np.ceil((rounds - kept) / mean * COHORT_MARGIN)))
            fill(cohort, mean)
            active = np.arange(size_of, size_of + cohort)
            size_of += cohort
            totals = np.concatenate([totals, np.zeros((cohort, ns), dtype=np.int64)])
            winners = np.concatenate([winners, np.zeros((cohort, ns), dtype=bool)])
            first_starter = np.concatenate([first_starter, np.zeros(cohort, dtype=np.int64)])
            played = 0
    every = Rounds.concat(parts) if len(parts) > 1 else parts[0]
    return Matches(every.take(np.concatenate(taken)), np.concatenate(match_of), size_of, winners)
