"""What the check counts from a batch of fast-path rounds beyond the statistics.

Takes the rounds of a batch of whole matches (numpy arrays of the fast path: how each
round ended, its turns, draws, passes, winners and points, the match it belongs to)
and the rules; adds to a :class:`~deckgen.rulecheck.tally.PlayTally` what the
reference engine's tally counts round by round: the clauses that follow from those
arrays (:func:`fast_clauses`), rounds that drained the stock, rounds ending in a tie
for the lowest hand, the distribution of turns, and per match the lead changes and
when the winner took the lead for good (as :func:`~deckgen.rulecheck.tally.lead_story`
defines them). So clause coverage is counted over every round played, and never
contradicts the fast path's own statistics.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from deckgen.engine.backends.rounds import REPORTED, clause_bit
from deckgen.rulecheck.feasibility import drawable_tiles
from deckgen.rulecheck.stats import Mean, mean_of
from deckgen.rulecheck.tally import PlayTally
from deckgen.rulespec import RuleSpec

if TYPE_CHECKING:
    from deckgen.engine.backends.arrays import Flags, Floats, Ints
    from deckgen.engine.backends.rounds import Rounds

END_OUT, END_BLOCKED, END_RESERVE = 0, 1, 2
"""The fast path's end codes (``rounds.END_CODES`` order)."""


def fast_clauses(spec: RuleSpec) -> tuple[str, ...]:
    """The decision clauses the fast path counts over all its rounds (from its round
    arrays, or reported by its engine); the others are counted by the reference engine
    alone."""
    out = ["setup.deal", "setup.rest", "end.out", "end.blocked", "end.reserve"]
    out += ["score.out", "score.blocked", "play.draw", "play.pass", "play.match", "start.first"]
    p = spec.params
    if p.opening.later_starter is not None:  # else a later round's start is a gap
        out.append("start.later")
    sc = p.scoring
    if sc.method != "penalty":
        out.append("score.tie")
    if sc.out_bonus and sc.method == "penalty":
        out.append("score.bonus")
    if sc.bands is not None:
        out.append("score.bands")
    if p.players.teams != "none":
        out.append("setup.teams")
    if p.board.shape in ("trains", "chicken_foot"):
        out += ["lead.station", "play.doubles", "play.play_drawn", "play.draw_limit"]
    if p.board.shape == "trains":
        out += ["play.open_train", "play.satisfy_double"]
    if p.board.shape == "chicken_foot":
        out.append("play.chicken_foot")
    if sc.ends_multiple is not None:
        out.append("score.ends")
    if sc.round_to is not None:
        out.append("score.rounding")
    return tuple(out)


def clause_masks(spec: RuleSpec, players: int, rounds: Rounds, first: Flags) -> dict[str, Flags]:
    """Per clause of :func:`fast_clauses`, which rounds of a fast batch decided it, as
    the reference engine counts it (``first``: the rounds that open their match;
    ``tests/engine/test_conformance.py`` holds every mask to the kernel's clauses
    round for round)."""
    import numpy as np

    end = np.asarray(rounds.end)
    g = int(end.shape[0])
    nwin = np.asarray(rounds.winners).sum(axis=1)
    sc = spec.params.scoring
    out = end == END_OUT
    every = np.ones(g, dtype=bool)
    passes = np.asarray(rounds.passes) > 0
    masks: dict[str, Flags] = {
        "setup.deal": every,
        "setup.rest": every,
        "end.out": out,
        "end.blocked": end == END_BLOCKED,
        "end.reserve": end == END_RESERVE,
        "score.out": out,
        "score.blocked": ~out,
        "play.draw": np.asarray(rounds.draws) > 0,
        "play.pass": passes,
        "play.match": np.asarray(rounds.played) > 0,
        "lead.station": every,
        "start.first": first,
        "start.later": ~first,
        "play.open_train": passes,  # a pass opens the seat's train; only then is one open
    }
    if sc.method != "penalty":
        masks["score.tie"] = ~out & (nwin != 1)
    if sc.out_bonus and sc.method == "penalty":
        masks["score.bonus"] = out
    if sc.bands is not None:
        masks["score.bands"] = out | ((nwin >= 1) if sc.method != "penalty" else False)
    partners = len(spec.teams(players)[0]) > 1  # setup.teams: only with partners
    masks["setup.teams"] = every if partners else ~every
    reported = [cid for cid in fast_clauses(spec) if cid in REPORTED]
    if reported:
        assert rounds.clauses is not None, f"the fast engine reports no {reported}"
        bits = np.asarray(rounds.clauses)
        for cid in reported:
            masks[cid] = (bits & clause_bit(cid)) != 0
    return {cid: masks.get(cid, ~every) for cid in fast_clauses(spec)}


class MatchBatch(Protocol):
    """What :func:`count_batch` reads of a batch of whole matches (the fast path's
    :class:`~deckgen.engine.backends.matches.Matches`)."""

    @property
    def rounds(self) -> Rounds: ...

    @property
    def match_of(self) -> Ints: ...

    @property
    def count(self) -> int: ...

    @property
    def winners(self) -> Flags: ...


def count_batch(tally: PlayTally, spec: RuleSpec, ms: MatchBatch) -> None:
    """Add the clause counts and the other round facts of a batch of matches to ``tally``.

    ``ms`` is the fast path's ``Matches``: ``rounds`` (arrays ``end``, ``turns``,
    ``draws``, ``passes``, ``winners`` (rounds, sides), ``points`` (rounds, sides)),
    ``match_of`` (each round's match, 0 .. ``count`` - 1; a match's rounds in playing
    order), ``count`` and ``winners`` (matches, sides).
    """
    import numpy as np

    rounds = ms.rounds
    draws = np.asarray(rounds.draws)
    first = np.zeros(len(draws), dtype=bool)
    first[np.unique(np.asarray(ms.match_of), return_index=True)[1]] = True
    masks = clause_masks(spec, tally.players, rounds, first)
    for cid, mask in masks.items():
        k = int(mask.sum())
        if k:
            tally.clause_rounds[cid] = tally.clause_rounds.get(cid, 0) + k
    if "score.tie" in masks:
        tally.ties += int(masks["score.tie"].sum())
    tally.drawable = drawable_tiles(spec, tally.players)
    if tally.drawable:
        tally.stock_drained += int((draws >= tally.drawable).sum())
    hist = np.bincount(np.asarray(rounds.turns, dtype=np.int64))
    for turns in np.nonzero(hist)[0]:
        tally.turn_hist[int(turns)] = tally.turn_hist.get(int(turns), 0) + int(hist[turns])
    changes, leader, decided = lead_arrays(
        np.asarray(rounds.points), np.asarray(ms.match_of), ms.count
    )
    mw = np.asarray(ms.winners)
    single = mw.sum(axis=1) == 1
    at = np.where(leader == mw.argmax(axis=1), decided, 1.0)[single]
    tally.lead_changes.merge(mean_of(changes))
    part = Mean()
    part.merge(mean_of(at))
    tally.decided_at.merge(part)


def lead_arrays(points: Ints, match_of: Ints, matches: int) -> tuple[Ints, Ints, Floats]:
    """Per match: lead changes, the sole leader after the last round (-1: none), and
    the share of rounds until that leader led alone for good.

    The same definitions as :func:`~deckgen.rulecheck.tally.lead_story`, for a batch.
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
