"""Whole matches on the fast path: deals for a chunk of matches, every round of every
match played in one batch by :class:`~deckgen.rulecheck.fastline.FastLine`, counted into
a :class:`~deckgen.rulecheck.tally.PlayTally` (statistics only: coverage and gaps come
from the reference engine).

Takes a :class:`FastTask`; each chunk has its own numpy stream seeded from
``(seed, players, chunk)``, so the result does not depend on the number of workers.
Only for files whose matches last a fixed number of rounds (see
:func:`~deckgen.rulecheck.fastline.unsupported`), so all rounds of a chunk are known in
advance: the starter of a later round depends only on the deals, never on play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from deckgen.engine.tables import compile_tables
from deckgen.rulecheck.chunks import ChunkTask, _spec
from deckgen.rulecheck.fastline import END_CODES, FastLine, Rounds
from deckgen.rulecheck.stats import Proportion, mean_of
from deckgen.rulecheck.tally import PlayTally


@dataclass(frozen=True)
class FastTask:
    """``count`` matches of chunk ``chunk`` of one (player count, bots) run."""

    chunk: ChunkTask
    index: int
    count: int


_LINES: dict[tuple[str, int], FastLine] = {}


def fast_line(task: ChunkTask) -> FastLine:
    key = (task.sha256, task.players)
    line = _LINES.get(key)
    if line is None:
        spec = _spec(task)
        line = _LINES[key] = FastLine(spec, compile_tables(spec, task.players))
    return line


def play_matches(line: FastLine, rng: Any, matches: int, kinds: tuple[str, ...]) -> Rounds:
    """Play ``matches`` matches; rounds come out match by match (match-major order)."""
    import numpy as np

    p = line.spec.params
    per = p.match.rounds or 1
    n = line.n
    g = matches * per
    deals = line.deal(rng, g)
    rno = np.tile(np.arange(per), matches)
    later = rno > 0
    lead_any = later & (p.opening.later_lead == "any")
    starter, lead = line.first_rule(deals.hands, lead_any=False)
    if later.any():
        s_later, l_later = line.first_rule(deals.hands[later], lead_any=True)
        if p.opening.later_lead != "any":
            _, l_later = line.first_rule(deals.hands[later], lead_any=False)
        starter[later] = s_later
        lead[later] = l_later
        if p.opening.later_starter == "next_seat":
            first = starter[~later]
            starter[later] = (np.repeat(first, per)[later] + rno[later]) % n
            lead[later] = -1
    return line.play(deals, starter, lead, lead_any, kinds, rng)


def tally_rounds(tally: PlayTally, r: Rounds, per_match: int, side_of: Any) -> None:
    """Count a batch of whole matches (``per_match`` rounds each) into ``tally``."""
    import numpy as np

    g = r.end.shape[0]
    ns = tally.sides
    part = PlayTally(tally.players, ns, tally.seconds_per_turn, tally.setup_seconds)
    part.rounds = g
    part.turns = mean_of(r.turns)
    part.draws = mean_of(r.draws)
    part.passes = mean_of(r.passes)
    part.tiles_played = mean_of(r.played)
    part.redeals = mean_of(np.zeros(g))
    for code, name in enumerate(END_CODES):
        k = int((r.end == code).sum())
        if k:
            part.ends.add(name, k)
    nwin = r.winners.sum(axis=1)
    single = nwin == 1
    w = r.winners.argmax(axis=1)
    for side in range(ns):
        k = int((single & (w == side)).sum())
        if k:
            part.round_winner.add(str(side), k)
    for key, mask in (("shared", nwin > 1), ("none", nwin == 0)):
        k = int(mask.sum())
        if k:
            part.round_winner.add(key, k)
    own = np.asarray(side_of)[r.starter]
    rel = (w - own) % ns
    for off in range(ns):
        k = int((single & (rel == off)).sum())
        if k:
            part.winner_from_starter.add(str(off), k)
    part.starter_wins = Proportion(int((single & (rel == 0)).sum()), int(single.sum()))
    part.points = [mean_of(r.points[:, k]) for k in range(ns)]
    part.winner_points = mean_of(r.points[np.nonzero(single)[0], w[single]])
    m = g // per_match
    totals = r.points.reshape(m, per_match, ns).sum(axis=1)
    turns = r.turns.reshape(m, per_match).sum(axis=1)
    part.matches = m
    part.match_rounds = mean_of(np.full(m, per_match))
    part.match_turns = mean_of(turns)
    part.match_minutes = mean_of(
        (turns * tally.seconds_per_turn + per_match * tally.setup_seconds) / 60.0
    )
    best = totals.max(axis=1)
    leaders = totals == best[:, None]
    nl = leaders.sum(axis=1)
    lw = leaders.argmax(axis=1)
    for side in range(ns):
        k = int(((nl == 1) & (lw == side)).sum())
        if k:
            part.match_winner.add(str(side), k)
    k = int((nl > 1).sum())
    if k:
        part.match_winner.add("shared", k)
    tally.merge(part)


def run_fast_chunk(task: FastTask) -> PlayTally:
    """Play the task's matches on the fast path and count them."""
    import numpy as np

    c = task.chunk
    line = fast_line(c)
    rng = np.random.default_rng([c.seed, c.players, task.index, 0xDEC6])
    per = line.spec.params.match.rounds or 1
    kinds = tuple(c.bots[min(s, len(c.bots) - 1)] for s in range(c.players))
    r = play_matches(line, rng, task.count, kinds)
    tally = PlayTally(c.players, line.nsides, c.seconds_per_turn, c.setup_seconds)
    tally_rounds(tally, r, per, line.side_of)
    return tally
