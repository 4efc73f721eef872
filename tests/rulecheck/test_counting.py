"""The check counts its statistics one way (issue 27): from the arrays of whole matches
(:func:`deckgen.rulecheck.tally.count_matches`), for the reference engine's chunks and
the fast path's alike.

A second way lives here, written plainly: round by round and match by match, as the
check once counted the reference engine's matches (:func:`plain_tally`, with the lead
story of one match in :func:`lead_story`). The same matches counted both ways must give
every field of the tally alike: the counts exactly, the means and their spread up to
rounding (one adds a number at a time, the other sums an array)."""

from __future__ import annotations

import math
import random
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any, cast

import numpy as np
import pytest

from deckgen.engine import InvariantError, MatchResult, make_bots, play_match
from deckgen.engine.backends.matches import Matches
from deckgen.engine.backends.registry import choose, make
from deckgen.engine.backends.rounds import END_CODES, Rounds
from deckgen.engine.moves import Move
from deckgen.engine.players import Player, PlayerView
from deckgen.rulecheck.chunks import ChunkTask, engine_for, match_seed, run_chunk
from deckgen.rulecheck.decisions import DecisionCount
from deckgen.rulecheck.feasibility import drawable_tiles
from deckgen.rulecheck.stats import Mean, Proportion, Tally
from deckgen.rulecheck.tally import (
    Failure,
    GapCount,
    PlayTally,
    count_matches,
    lead_arrays,
    merged,
)
from deckgen.rulespec import RuleSpec, load_rules

# ---------------------------------------------------------------- the plain way


@dataclass
class PlainDecisions:
    """Decisions counted one at a time (the check keeps a histogram instead)."""

    turns: int = 0
    choices: int = 0
    options: Mean = field(default_factory=Mean)
    rounds: int = 0


class PlainCounting:
    """A bot that counts the distinct moves it is offered, then lets the real bot
    choose (the check's engine shows it its decisions instead)."""

    def __init__(self, inner: Player, count: PlainDecisions) -> None:
        self.inner = inner
        self.name = inner.name
        self.count = count
        self.asked = 0

    def choose(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        k = len({(m.tile, m.value) for m in moves})
        self.asked += 1
        self.count.options.add(k)
        if k >= 2:
            self.count.choices += 1
        return self.inner.choose(view, moves)


def plain_count_match(wrapped: Sequence[PlainCounting], turns: int, count: PlainDecisions) -> None:
    """The turns on which no bot was asked offered one option, added one by one."""
    asked = sum(w.asked for w in wrapped)
    for _ in range(max(0, turns - asked)):
        count.options.add(1)
    count.turns += max(turns, asked)


@dataclass(frozen=True)
class PlainRound:
    """What the plain count reads of one round."""

    end: str
    starter: int
    turns: int
    draws: int
    passes: int
    played: int
    redeals: int
    winners: tuple[int, ...]
    points: tuple[int, ...]
    clauses: tuple[str, ...] = ()
    gaps: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True)
class PlainMatch:
    rounds: list[PlainRound]
    winners: tuple[int, ...]
    seed: int = -1
    clauses: tuple[str, ...] = ()
    gaps: tuple[tuple[str, str, str], ...] = ()


def lead_story(points: Sequence[Sequence[int]], winners: Sequence[int]) -> tuple[int, float | None]:
    """(lead changes, decided at) of one match from its rounds' points per side.

    After each round the side with the highest running total leads if it is alone
    there. A lead change is a round after which a side leads alone that is not the last
    side that led alone (a tie in between does not count as a change). ``decided at``
    is, for a match with one winner, the share of its rounds played until the winner
    led alone for good: ``k / rounds`` when it leads alone after round ``k`` and every
    later round (1.0 when it does not lead alone after the last round); None for a
    match without one winner.
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


def test_the_plain_lead_story() -> None:
    assert lead_story([(5, 0), (0, 9), (3, 0)], (1,)) == (1, 2 / 3)
    assert lead_story([(5, 5), (0, 1)], (1,)) == (0, 1.0)
    assert lead_story([(5, 0), (0, 9), (9, 0)], (0,)) == (2, 1.0)
    assert lead_story([(1, 1)], ()) == (0, None)


def _plain_gap(t: PlayTally, gap: tuple[str, str, str], seed: int, seen: set[str]) -> None:
    situation, description, fallback = gap
    if situation not in t.gaps:
        t.gaps[situation] = GapCount(description, fallback, example_seed=seed)
    t.gaps[situation].events += 1
    if situation not in seen:
        seen.add(situation)
        t.gaps[situation].matches += 1


def plain_tally(
    t: PlayTally,
    matches: list[PlainMatch],
    side_of: Sequence[int],
    *,
    judged: bool = False,
    checked: bool = False,
) -> PlayTally:
    """Count ``matches`` into the fresh tally ``t`` (its ``drawable`` set) one number at
    a time: the second way. ``judged``: played by the reference engine (its rounds count
    as the judge's); ``checked``: with its invariant checks."""
    for m in matches:
        t.matches += 1
        turns = 0
        seen: set[str] = set()
        for r in m.rounds:
            t.rounds += 1
            turns += r.turns
            t.turns.add(r.turns)
            t.draws.add(r.draws)
            t.passes.add(r.passes)
            t.tiles_played.add(r.played)
            t.redeals.add(r.redeals)
            t.ends.add(r.end)
            t.turn_hist[r.turns] = t.turn_hist.get(r.turns, 0) + 1
            if t.drawable and r.draws >= t.drawable:
                t.stock_drained += 1
            if "score.tie" in r.clauses or any(g[0] == "score.tie" for g in r.gaps):
                t.ties += 1
            for i, p in enumerate(r.points):
                t.points[i].add(p)
            if len(r.winners) == 1:
                w = r.winners[0]
                t.round_winner.add(str(w))
                own = side_of[r.starter]
                t.winner_from_starter.add(str((w - own) % t.sides))
                t.starter_wins.add(w == own)
                t.winner_points.add(r.points[w])
            else:
                t.round_winner.add("shared" if r.winners else "none")
            for cid in r.clauses:
                t.clause_rounds[cid] = t.clause_rounds.get(cid, 0) + 1
            for g in r.gaps:
                _plain_gap(t, g, m.seed, seen)
        changes, decided = lead_story([r.points for r in m.rounds], m.winners)
        t.lead_changes.add(changes)
        if decided is not None:
            t.decided_at.add(decided)
        if judged:
            t.engine_rounds += len(m.rounds)
        if checked:
            t.invariant_rounds += len(m.rounds)
        for cid in m.clauses:
            t.clause_matches[cid] = t.clause_matches.get(cid, 0) + 1
        for g in m.gaps:
            _plain_gap(t, g, m.seed, seen)
        n = len(m.rounds)
        t.match_rounds.add(n)
        t.match_turns.add(turns)
        t.match_minutes.add((turns * t.seconds_per_turn + n * t.setup_seconds) / 60.0)
        if len(m.winners) == 1:
            t.match_winner.add(str(m.winners[0]))
        else:
            t.match_winner.add("shared" if m.winners else "none")
    return t


def _gaps(gs: Sequence[Any]) -> tuple[tuple[str, str, str], ...]:
    return tuple((g.situation, g.description, g.fallback) for g in gs)


def plain_match(m: MatchResult, seed: int) -> PlainMatch:
    rounds = [
        PlainRound(
            r.end,
            r.starter,
            r.turns,
            r.draws,
            r.passes,
            r.tiles_played,
            r.redeals,
            tuple(r.winners),
            tuple(r.points),
            tuple(r.clauses),
            _gaps(r.gaps),
        )
        for r in m.rounds
    ]
    return PlainMatch(rounds, tuple(m.winners), seed, tuple(m.clauses), _gaps(m.gaps))


def plain_matches_of(ms: Matches) -> list[PlainMatch]:
    """The fast path's arrays read back round by round (a match's rounds in order)."""
    r = ms.rounds
    rounds: list[list[PlainRound]] = [[] for _ in range(ms.count)]
    for g, k in enumerate(ms.match_of.tolist()):
        rounds[k].append(
            PlainRound(
                END_CODES[int(r.end[g])],
                int(r.starter[g]),
                int(r.turns[g]),
                int(r.draws[g]),
                int(r.passes[g]),
                int(r.played[g]),
                int(r.redeals[g]),
                tuple(int(s) for s in np.nonzero(r.winners[g])[0]),
                tuple(int(p) for p in r.points[g]),
            )
        )
    return [
        PlainMatch(rs, tuple(int(s) for s in np.nonzero(ms.winners[k])[0]))
        for k, rs in enumerate(rounds)
    ]


def plain_chunk(task: ChunkTask) -> PlayTally:
    """The reference engine's chunk counted the plain way (as ``run_chunk`` once did)."""
    spec = load_rules(task.path) if task.path else None
    assert spec is not None
    engine = engine_for(task, task.check_invariants)
    played: list[PlainMatch] = []
    failures: list[Failure] = []
    decisions = PlainDecisions() if task.check_invariants else None
    for k in range(task.first, task.first + task.count):
        seed = match_seed(task.seed, k)
        bots: list[Player] = make_bots(list(task.bots), task.players, seed)
        counting: list[PlainCounting] = []
        if decisions is not None:
            counting = [PlainCounting(b, decisions) for b in bots]
            bots = list(counting)
        try:
            result = play_match(engine, bots, seed)
        except InvariantError as exc:
            failures.append(Failure(seed, "invariant", str(exc)))
            continue
        except Exception as exc:
            last = traceback.format_exception_only(type(exc), exc)[-1].strip()
            failures.append(Failure(seed, "exception", last))
            continue
        played.append(plain_match(result, seed))
        if decisions is not None:
            plain_count_match(counting, sum(r.turns for r in result.rounds), decisions)
            decisions.rounds += len(result.rounds)
    t = PlayTally(task.players, len(engine.t.sides), task.seconds_per_turn, task.setup_seconds)
    t.drawable = drawable_tiles(spec, task.players)
    plain_tally(t, played, engine.t.side_of, judged=True, checked=task.check_invariants)
    t.failures = failures
    t.decisions = cast(DecisionCount, decisions)  # compared field by field
    return t


# ---------------------------------------------------------------- comparing


def _same_mean(a: Mean, b: Mean, where: str) -> None:
    assert a.count == b.count, f"{where}: {a.count} numbers counted, the plain way {b.count}"
    if not a.count:
        return
    assert (a.minimum, a.maximum) == (b.minimum, b.maximum), (
        f"{where}: range {a.minimum}..{a.maximum}, the plain way {b.minimum}..{b.maximum}"
    )
    assert math.isclose(a.mean, b.mean, rel_tol=1e-12, abs_tol=1e-12), (
        f"{where}: mean {a.mean!r}, the plain way {b.mean!r}"
    )
    assert math.isclose(a.m2, b.m2, rel_tol=1e-9, abs_tol=1e-9), (
        f"{where}: spread {a.m2!r}, the plain way {b.m2!r}"
    )


def assert_same_tally(got: PlayTally, plain: PlayTally, where: str) -> None:
    """Every field of ``got`` as the plain way counted it (a field added to the tally
    is compared here without being named)."""
    for f in fields(PlayTally):
        a, b = getattr(got, f.name), getattr(plain, f.name)
        at = f"{where}: {f.name}"
        if isinstance(a, Mean):
            _same_mean(a, b, at)
        elif f.name == "points":
            assert len(a) == len(b), at
            for side, (x, y) in enumerate(zip(a, b, strict=True)):
                _same_mean(x, y, f"{at}[{side}]")
        elif isinstance(a, Tally):
            assert (a.counts, a.total) == (b.counts, b.total), f"{at}: {a.counts}, plain {b.counts}"
        elif isinstance(a, Proportion):
            assert (a.hits, a.trials) == (b.hits, b.trials), f"{at}: {a}, plain {b}"
        elif isinstance(a, DecisionCount):
            assert (a.turns, a.choices, a.rounds) == (b.turns, b.choices, b.rounds), at
            _same_mean(a.options, b.options, f"{at}.options")
        else:
            assert a == b, f"{at}: {a!r}, the plain way {b!r}"


# ---------------------------------------------------------------- the reference engine

REF_CASES = [
    # (rules, players, matches, invariant checks): fixed rounds with a lean kernel; a
    # target with teams at 4; trains (drawable tiles, many rounds a match); a board; a
    # file that leaves the score tie open (ties counted from the gap)
    ("two-player", 2, 40, False),
    ("two-player", 2, 12, True),
    ("all-fives", 4, 6, False),
    ("mexican-train", 4, 2, False),
    ("double-twelve", 3, 3, False),
    ("fixtures/no-score-tie.toml", 2, 12, False),
]


def _spec(rid: str) -> RuleSpec:
    if rid.startswith("fixtures/"):
        from pathlib import Path

        return load_rules(str(Path(__file__).parent / rid))
    return load_rules(rid)


@pytest.mark.parametrize(("rid", "players", "matches", "checked"), REF_CASES)
def test_a_reference_chunk_counts_as_the_plain_way(
    rid: str, players: int, matches: int, checked: bool
) -> None:
    spec = _spec(rid)
    task = ChunkTask(
        spec.raw, str(spec.path), spec.sha256, players, ("random",), 3, 5, matches, checked,
        10.0, 60.0,
    )  # fmt: skip
    got = run_chunk(task)
    plain = plain_chunk(task)
    assert got.matches == matches, got.failures
    assert_same_tally(got, plain, f"{rid} at {players}")
    if rid.startswith("fixtures/no-score-tie"):
        assert got.ties > 0, "the fixture should meet tied rounds"


def test_merged_chunks_count_as_one_plain_run() -> None:
    """Chunks merged in order: the same figures as one plain count of all their matches."""
    spec = load_rules("two-player")
    tasks = [
        ChunkTask(spec.raw, str(spec.path), spec.sha256, 2, ("random",), 4, f, c, False, 8.0, 45.0)
        for f, c in ((0, 7), (7, 1), (8, 20))
    ]
    got = merged([run_chunk(t) for t in tasks])
    whole = ChunkTask(
        spec.raw, str(spec.path), spec.sha256, 2, ("random",), 4, 0, 28, False, 8.0, 45.0
    )
    assert_same_tally(got, plain_chunk(whole), "two-player, three chunks")


# ---------------------------------------------------------------- the fast path

FAST_CASES = [
    # fixed rounds (one batch), a target played in waves (a match's rounds interleaved
    # with the others'), partners (a seat's side is not the seat), trains
    ("two-player", 2),
    ("all-fives", 3),
    ("partnership", 4),
    ("mexican-train", 3),
]


@pytest.mark.parametrize(("rid", "players"), FAST_CASES)
def test_fast_matches_count_as_the_plain_way(rid: str, players: int) -> None:
    spec = load_rules(rid)
    kinds = ("random",) * players
    task = ChunkTask(
        spec.raw, str(spec.path), spec.sha256, players, kinds, 1, 0, 0, False, 10.0, 60.0
    )
    tables = engine_for(task).t
    chosen = choose(spec, tables, kinds)
    if chosen is None:
        pytest.skip(f"no fast engine plays {rid} here")
    line = make(spec, tables, chosen.name)
    ms = line.play_matches(np.random.default_rng(11), 40, kinds, 2)
    got, plain = (PlayTally(players, line.nsides, 10.0, 60.0) for _ in range(2))
    got.drawable = plain.drawable = drawable_tiles(spec, players)
    count_matches(got, ms, line.side_of)
    plain_tally(plain, plain_matches_of(ms), list(line.side_of))
    assert_same_tally(got, plain, f"{rid} at {players}, {chosen.name}")


def test_made_up_matches_count_as_the_plain_way() -> None:
    """Rounds and matches no game gives often: won by nobody, by several sides, with
    partners, rounds of matches interleaved (random arrays, a fixed seed)."""
    rng = np.random.default_rng(5)
    count, ns, seats = 40, 2, 4
    match_of = rng.permutation(np.repeat(np.arange(count), 7))  # interleaved
    g = len(match_of)
    rounds = Rounds(
        end=rng.integers(0, len(END_CODES), g),
        out_seat=rng.integers(-1, seats, g),
        starter=rng.integers(0, seats, g),
        turns=rng.integers(1, 40, g),
        draws=rng.integers(0, 12, g),
        passes=rng.integers(0, 5, g),
        played=rng.integers(1, 28, g),
        hand_values=rng.integers(0, 50, (g, seats)),
        points=rng.choice([0, 0, 5, 10, 25], (g, ns)),
        winners=rng.random((g, ns)) < 0.45,  # none, one or both sides
        redeals=rng.integers(0, 2, g),
    )
    winners = rng.random((count, ns)) < 0.45
    ms = Matches(rounds, match_of, count, winners)
    side_of = [0, 1, 0, 1]
    got, plain = (PlayTally(seats, ns, 7.5, 40.0) for _ in range(2))
    got.drawable = plain.drawable = 10
    count_matches(got, ms, side_of)
    plain_tally(plain, plain_matches_of(ms), side_of)
    assert {"shared", "none"} <= set(got.round_winner.counts) & set(got.match_winner.counts)
    assert got.stock_drained > 0
    assert_same_tally(got, plain, "made-up matches")


# ---------------------------------------------------------------- the lead story


def test_lead_changes_agree_with_the_plain_story() -> None:
    """The batch lead story equals the plain one, match by match, rounds interleaved."""
    rng = random.Random(7)
    matches: list[list[tuple[int, ...]]] = []
    for _ in range(400):
        ns = rng.choice([2, 3, 4])
        rounds = rng.randint(1, 7)
        matches.append(
            [tuple(rng.choice([0, 0, 1, 3, 5]) for _ in range(ns)) for _ in range(rounds)]
        )
    for ns in (2, 3, 4):
        group = [m for m in matches if len(m[0]) == ns]
        # interleave rounds as the waves of the fast path do (round 1 of all, then 2, ...)
        order = sorted(
            ((k, i) for i, m in enumerate(group) for k in range(len(m))), key=lambda x: x
        )
        points = np.array([group[i][k] for k, i in order])
        match_of = np.array([i for _, i in order])
        changes, leader, decided = lead_arrays(points, match_of, len(group))
        for i, m in enumerate(group):
            totals = [sum(c) for c in zip(*m, strict=True)]
            top = [s for s, t in enumerate(totals) if t == max(totals)]
            story = lead_story(m, tuple(top[:1]))
            assert story[0] == changes[i], (i, m)
            if len(top) == 1:
                assert leader[i] == top[0]
                assert story[1] == pytest.approx(decided[i]), (i, m)
