"""The clauses the check counts from a batch of fast-path rounds.

Takes the rounds of a batch of whole matches (numpy arrays of the fast path: how each
round ended, its turns, draws, passes, winners and points, the match it belongs to)
and the rules; adds to a :class:`~deckgen.rulecheck.tally.PlayTally` the clauses that
follow from those arrays (:func:`fast_clauses`), as the reference engine's tally counts
them round by round, and the rounds ending in a tie for the lowest hand (those that
decided ``score.tie``). So clause coverage is counted over every round played, and
never contradicts the fast path's own statistics (which
:func:`~deckgen.rulecheck.tally.count_matches` counts, for both paths).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckgen.engine.backends.rounds import REPORTED, clause_bit
from deckgen.rulecheck.tally import MatchBatch, PlayTally
from deckgen.rulespec import RuleSpec

if TYPE_CHECKING:
    from deckgen.engine.backends.arrays import Flags
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


def count_batch(tally: PlayTally, spec: RuleSpec, ms: MatchBatch) -> None:
    """Add the clauses a batch of whole matches decided, and its ties, to ``tally``.

    ``ms`` is the fast path's ``Matches``: ``rounds`` (arrays ``end``, ``draws``,
    ``passes``, ``played``, ``winners`` (rounds, sides), ``clauses``), ``match_of``
    (each round's match, 0 .. ``count`` - 1; a match's rounds in playing order).
    """
    import numpy as np

    rounds = ms.rounds
    first = np.zeros(len(rounds.end), dtype=bool)
    first[np.unique(np.asarray(ms.match_of), return_index=True)[1]] = True
    masks = clause_masks(spec, tally.players, rounds, first)
    for cid, mask in masks.items():
        k = int(mask.sum())
        if k:
            tally.clause_rounds[cid] = tally.clause_rounds.get(cid, 0) + k
    if "score.tie" in masks:
        tally.ties += int(masks["score.tie"].sum())
