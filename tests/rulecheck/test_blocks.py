"""Matches to a target on the fast path, several rounds of each match per batch.

A block plays the next rounds of every running match at once and keeps, for a match
that ended inside it, only the rounds up to the one it ended in. These tests replay
each kept match round by round through the engine's own
:func:`~deckgen.engine.match.match_over` (the one place the match end is decided), so
a block that keeps a round too many or too few, or names the wrong winner, is caught
with the match and round it happened in.
"""

from __future__ import annotations

import numpy as np
import pytest

from deckgen.engine.backends.matches import Matches, block_for
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
        rows = np.nonzero(ms.match_of == i)[0]  # blocks append a match's rounds in order
        assert len(rows), f"{where}: match {i} kept no round"
        totals = [0] * ms.winners.shape[1]
        for j, row in enumerate(rows):
            totals = [t + int(p) for t, p in zip(totals, ms.rounds.points[row], strict=True)]
            over = match_over(engine, totals, j + 1, set(), [])
            if j < len(rows) - 1:
                assert over is None, (
                    f"{where}: match {i} ended in round {j + 1} (totals {totals}), "
                    f"but the block kept {len(rows)} rounds"
                )
            else:
                assert over is not None, (
                    f"{where}: match {i} is not over after its last kept round {j + 1} "
                    f"(totals {totals})"
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
@pytest.mark.parametrize("block", [1, 3, 7])
def test_a_block_keeps_each_match_up_to_the_round_it_ended_in(
    rid: str, players: int, block: int
) -> None:
    spec = _rules(rid)
    m = spec.params.match
    assert m.end == "target" or m.tie == "play_on"  # matches of varying length
    kinds = ("random",) * players
    why = unsupported(spec, compile_tables(spec, players), kinds)
    if why:
        pytest.skip(why)
    for name, line in _engines(spec, players):
        ms = line.play_matches(np.random.default_rng(block), 150, kinds, block)
        assert sorted(set(ms.match_of.tolist())) == list(range(150))
        _replay(spec, players, ms, f"{rid} {players}p, {name}, block {block}")


def test_blocks_play_the_game_that_round_by_round_plays() -> None:
    """Mean match length and seat 0's match wins, one round at a time against five:
    within 4.5 standard errors (fixed seeds, so this cannot flake)."""
    spec = load_rules("partnership")
    line = make(spec, compile_tables(spec, 4), "numpy line")
    kinds = ("random",) * 4
    one = line.play_matches(np.random.default_rng(1), 3000, kinds, 1)
    five = line.play_matches(np.random.default_rng(2), 3000, kinds, 5)
    for label, fig in (
        ("rounds a match", lambda ms: np.bincount(ms.match_of).astype(float)),
        ("side 0 wins the match", lambda ms: ms.winners[:, 0].astype(float)),
    ):
        a, b = fig(one), fig(five)
        se = np.sqrt(a.var() / len(a) + b.var() / len(b))
        assert abs(a.mean() - b.mean()) < 4.5 * se, (
            f"{label}: {a.mean():.3f} round by round, {b.mean():.3f} in blocks of five"
        )


def test_a_block_is_about_a_quarter_of_a_match() -> None:
    assert block_for(16.2) == 4
    assert block_for(1.0) == 1
    assert block_for(0.2) == 1


def test_a_chunk_of_rounds_tops_up_with_whole_matches() -> None:
    spec = load_rules("partnership")
    base = ChunkTask(spec.raw, None, spec.sha256, 4, ("random",), 5, 0, 0, False, 10.0, 60.0)
    task = FastTask(base, 3, 10, "numpy line", block=4, rounds=4000)  # 10 is far too few
    parts = run_fast_chunk(task)
    rounds = sum(p.rounds for p in parts)
    matches = sum(p.matches for p in parts)
    assert rounds >= 4000
    assert matches > 10
    assert rounds < 4000 * 1.2  # one top-up, sized from the first matches
    again = run_fast_chunk(task)
    assert [p.rounds for p in again] == [p.rounds for p in parts]  # the same chunk, always
