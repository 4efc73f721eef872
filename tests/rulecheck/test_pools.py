"""Matches to a target on the fast path, their rounds played in advance in pools.

The rounds every match will need are played in one batch and handed to the matches in
order, each match ending after the round it ended in. These tests replay each match
round by round through the engine's own :func:`~deckgen.engine.match.match_over` (the
one place the match end is decided), so a match given a round too many or too few, or
the wrong winner, is caught with the match and round it happened in; and they compare
the matches with the reference engine's, played match by match.
"""

from __future__ import annotations

import numpy as np
import pytest

from deckgen.engine import make_bots, play_match
from deckgen.engine.backends.matches import Matches
from deckgen.engine.backends.protocol import BatchEngine
from deckgen.engine.backends.registry import ENGINES, make, unsupported
from deckgen.engine.core import Engine
from deckgen.engine.match import match_over
from deckgen.engine.tables import compile_tables
from deckgen.rulecheck.chunks import ChunkTask
from deckgen.rulecheck.fastmatch import FastTask, run_fast_chunk
from deckgen.rulespec import RuleSpec, load_rules

# (rules, players): next-seat starters (partnership), the first rule every round
# (block-classic, draw-classic), points during play and playing on after a tie
# (all-fives), a board (double-twelve), four rounds and then on while tied (card-domino
# changed: no match may end before its fourth round)
TARGET_CASES = [
    ("partnership", 4),
    ("block-classic", 2),
    ("draw-classic", 3),
    ("all-fives", 2),
    ("double-twelve", 3),
    ("card-domino+play_on", 3),
]


def _rules(rid: str) -> RuleSpec:
    if rid == "card-domino+play_on":
        return load_rules("card-domino").with_changes({"match.tie": "play_on"})
    return load_rules(rid)


def _engines(spec: RuleSpec, players: int) -> list[tuple[str, BatchEngine]]:
    """Every batch engine that plays the file here."""
    t = compile_tables(spec, players)
    kinds = ("random",) * players
    return [
        (b.name, make(spec, t, b.name))
        for b in ENGINES
        if b.batch and b.supports(spec, t, kinds) is None
    ]


def _replay(spec: RuleSpec, players: int, ms: Matches, where: str) -> None:
    engine = Engine(spec, players)
    n = players
    next_seat = spec.params.opening.later_starter == "next_seat"
    for i in range(ms.count):
        rows = np.nonzero(ms.match_of == i)[0]  # a match's rounds come in order
        assert len(rows), f"{where}: match {i} has no round"
        totals = [0] * ms.winners.shape[1]
        for j, row in enumerate(rows):
            totals = [t + int(p) for t, p in zip(totals, ms.rounds.points[row], strict=True)]
            over = match_over(engine, totals, j + 1, set(), [])
            if j < len(rows) - 1:
                assert over is None, (
                    f"{where}: match {i} ended in round {j + 1} (totals {totals}), "
                    f"but it was given {len(rows)} rounds"
                )
            else:
                assert over is not None, (
                    f"{where}: match {i} is not over after its last round {j + 1} (totals {totals})"
                )
                got = tuple(int(s) for s in np.nonzero(ms.winners[i])[0])
                assert got == over, f"{where}: match {i} won by {got}, the engine says {over}"
            if next_seat and j:
                first = int(ms.rounds.starter[rows[0]])
                assert int(ms.rounds.starter[row]) == (first + j) % n, (
                    f"{where}: match {i} round {j + 1} started by seat "
                    f"{int(ms.rounds.starter[row])}, the next seat is {(first + j) % n}"
                )


@pytest.mark.parametrize(("rid", "players"), TARGET_CASES)
@pytest.mark.parametrize("per_match", [1.0, 3.0, 7.0, 40.0])
def test_each_match_gets_its_rounds_up_to_the_one_it_ended_in(
    rid: str, players: int, per_match: float
) -> None:
    """However well the pools are sized (a match lasts 1, 3, 7 or 40 rounds, the
    estimate says): the pools run dry and are topped up, or rounds are left over."""
    spec = _rules(rid)
    m = spec.params.match
    assert m.end == "target" or m.tie == "play_on"  # matches of varying length
    kinds = ("random",) * players
    why = unsupported(spec, compile_tables(spec, players), kinds)
    if why:
        pytest.skip(why)
    for name, line in _engines(spec, players):
        ms = line.play_matches(np.random.default_rng(int(per_match)), 150, kinds, per_match)
        assert sorted(set(ms.match_of.tolist())) == list(range(150))
        _replay(spec, players, ms, f"{rid} {players}p, {name}, {per_match} rounds a match")


def test_pooled_matches_are_the_reference_engines_matches() -> None:
    """Partnership's mean match length and side 0's match wins from the pools against
    the reference engine's matches played one by one: within 4.5 standard errors (fixed
    seeds, so this cannot flake)."""
    spec = load_rules("partnership")
    line = make(spec, compile_tables(spec, 4), "numpy line")
    kinds = ("random",) * 4
    pooled = line.play_matches(np.random.default_rng(1), 3000, kinds, 16.0)
    engine = Engine(spec, 4)
    played = [play_match(engine, make_bots(["random"], 4, seed), seed) for seed in range(1500)]
    figures = (
        (
            "rounds a match",
            np.bincount(pooled.match_of).astype(float),
            np.array([len(r.rounds) for r in played], dtype=float),
        ),
        (
            "side 0 wins the match",
            pooled.winners[:, 0].astype(float),
            np.array([0 in r.winners for r in played], dtype=float),
        ),
    )
    for label, a, b in figures:
        se = np.sqrt(a.var() / len(a) + b.var() / len(b))
        assert abs(a.mean() - b.mean()) < 4.5 * se, (
            f"{label}: {a.mean():.3f} from the pools, {b.mean():.3f} match by match"
        )


def _counting_batches(spec: RuleSpec, players: int) -> tuple[BatchEngine, list[int]]:
    """The numpy line engine for ``spec``, and the list it adds each batch's size to."""
    from deckgen.engine.backends.numpy_line import FastLine

    line = FastLine(spec, compile_tables(spec, players))
    batches: list[int] = []
    play = line.play

    def counted(deals, *args):  # type: ignore[no-untyped-def]
        batches.append(len(deals.hands))
        return play(deals, *args)

    line.play = counted  # type: ignore[method-assign]
    return line, batches


def test_well_sized_pools_play_few_rounds_nobody_uses() -> None:
    """With the rounds a match lasts known (as the check's pilot tells it), the pools
    are played in at most three batches and at most a tenth of their rounds go unused."""
    spec = load_rules("partnership")
    line, batches = _counting_batches(spec, 4)
    ms = line.play_matches(np.random.default_rng(3), 940, ("random",) * 4, 16.2)
    assert len(batches) <= 3, batches
    assert sum(batches) <= 1.1 * len(ms.match_of), (sum(batches), len(ms.match_of))


@pytest.mark.parametrize(("per_match", "most"), [(4.0, 20), (16.0, 3), (40.0, 3)])
def test_more_matches_follow_until_they_hold_the_rounds(per_match: float, most: int) -> None:
    """Asked for 3,000 rounds of whole matches, 50 matches first (far too few): more
    follow, as many as the first ones' length calls for; every match still ends where it
    should, however far off the estimate of a match's length (16 rounds) was. Few
    batches with the estimate right or too long; many small ones with it far too short
    (4: the pools run dry every few rounds)."""
    spec = load_rules("partnership")
    line, batches = _counting_batches(spec, 4)
    ms = line.play_matches(np.random.default_rng(5), 50, ("random",) * 4, per_match, 3000)
    assert 3000 <= len(ms.match_of) < 3000 * 1.1
    assert ms.count > 100
    assert sorted(set(ms.match_of.tolist())) == list(range(ms.count))
    assert len(batches) <= most, batches
    _replay(spec, 4, ms, f"partnership, {per_match} rounds a match, 3,000 rounds")


def test_a_chunk_of_rounds_tops_up_with_whole_matches() -> None:
    spec = load_rules("partnership")
    base = ChunkTask(spec.raw, None, spec.sha256, 4, ("random",), 5, 0, 0, False, 10.0, 60.0)
    task = FastTask(base, 3, 10, "numpy line", per_match=16.0, rounds=4000)  # 10: too few
    parts = run_fast_chunk(task)
    rounds = sum(p.rounds for p in parts)
    matches = sum(p.matches for p in parts)
    assert rounds >= 4000
    assert matches > 10
    assert rounds < 4000 * 1.2  # one top-up, sized from the first matches
    again = run_fast_chunk(task)
    assert [p.rounds for p in again] == [p.rounds for p in parts]  # the same chunk, always
