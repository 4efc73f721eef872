"""Decision moves and the branching factor are counted on the judge's own rounds (those
played with invariant checks), from the moves the engine offers at each decision: the
matches are the same as without counting, and the counts agree with the legal moves of
the rounds played."""

from __future__ import annotations

from collections.abc import Sequence

from deckgen.engine import Engine, make_bots, play_match
from deckgen.engine.moves import Move
from deckgen.engine.players import Player, PlayerView
from deckgen.rulecheck.check import CheckOptions, run_check
from deckgen.rulecheck.chunks import ChunkTask, match_seed, run_chunk
from deckgen.rulecheck.decisions import DecisionCount, count_match
from deckgen.rulecheck.stats import Mean
from deckgen.rulespec import load_rules


def _task(rules: str, players: int, bots: tuple[str, ...], checked: bool) -> ChunkTask:
    spec = load_rules(rules)
    return ChunkTask(
        spec.raw, str(spec.path) if spec.path else None, spec.sha256, players, bots, 7, 0, 12,
        checked, 10.0, 60.0,
    )  # fmt: skip


def test_counting_does_not_change_the_matches() -> None:
    for rules, players, bots in (
        ("two-player", 2, ("random",)),
        ("double-twelve", 3, ("greedy", "random")),
    ):
        counted = run_chunk(_task(rules, players, bots, True))
        plain = run_chunk(_task(rules, players, bots, False))
        assert counted.decisions is not None
        assert plain.decisions is None
        assert counted.rounds == plain.rounds
        assert counted.turns.to_json() == plain.turns.to_json()
        assert [p.to_json() for p in counted.points] == [p.to_json() for p in plain.points]
        assert counted.match_winner.to_json() == plain.match_winner.to_json()
        assert counted.decisions.rounds == counted.rounds


class _Recorder:
    """A random bot that writes down how many distinct moves it was offered."""

    name = "random"

    def __init__(self, inner: Player, seen: list[int]) -> None:
        self.inner = inner
        self.seen = seen

    def choose(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        self.seen.append(len({(m.tile, m.value) for m in moves}))
        return self.inner.choose(view, moves)


def test_counts_agree_with_the_moves_offered() -> None:
    """A second count, by a wrapper around the same bots (the engine asks them, instead
    of choosing for a random bot itself), of the same matches."""
    spec = load_rules("card-domino")
    task = _task("card-domino", 3, ("random",), True)
    tally = run_chunk(task)
    count = tally.decisions
    assert count is not None
    engine = Engine(spec, 3, check_invariants=True)
    seen: list[int] = []
    turns = 0
    for k in range(task.count):
        seed = match_seed(task.seed, k)
        bots: list[Player] = [_Recorder(b, seen) for b in make_bots(["random"], 3, seed)]
        result = play_match(engine, bots, seed)
        turns += sum(r.turns for r in result.rounds)
    assert count.turns == turns
    assert count.choices == sum(1 for k in seen if k >= 2)
    unasked = turns - len(seen)
    assert count.options.count == turns
    assert abs(count.options.mean - (sum(seen) + unasked) / turns) < 1e-9


def test_the_check_reports_decisions_from_the_judge() -> None:
    spec = load_rules("two-player")
    result = run_check(spec, CheckOptions(rounds=3000, workers=1, judge_rounds=1000))
    (run,) = result.runs
    assert run.path == "fast"
    assert run.decisions is not None
    assert run.decisions.rounds == run.judge.invariant_rounds >= 400
    assert 0 < run.decisions.choices < run.decisions.turns


def test_counts_merge() -> None:
    a, b = DecisionCount(), DecisionCount()
    a.turns, a.offered, a.rounds = 10, {1: 6, 2: 3, 3: 1}, 2
    b.turns, b.offered, b.rounds = 5, {1: 4, 4: 1}, 1
    a.merge(b)
    assert (a.turns, a.choices, a.rounds) == (15, 5, 3)
    assert a.offered == {1: 10, 2: 3, 3: 1, 4: 1}
    assert a.options.count == 15
    assert a.options.mean == (10 + 6 + 3 + 4) / 15


def test_the_partnership_clause_is_no_warning_where_nobody_has_a_partner() -> None:
    """All Fives forms pairs only with four players: with two or three, ``setup.teams``
    never decides anything, and that is not a rule that almost never matters."""
    from deckgen.rulecheck.diagnostics import applies_at
    from deckgen.rulecheck.report import build_report

    spec = load_rules("all-fives")
    assert not applies_at(spec, 2, "setup.teams")
    assert applies_at(spec, 4, "setup.teams")
    assert applies_at(spec, 2, "end.out")
    result = run_check(spec, CheckOptions(rounds=3000, players=(2,), workers=1))
    report = build_report(result)
    texts = [w["message"] for w in report["warnings"]]
    assert not any("setup.teams" in t for t in texts), texts


def test_no_invariant_rounds_when_asked_for_none() -> None:
    # the confirmation with skilled players asks for none: the check itself ran them
    spec = load_rules("two-player")
    opts = CheckOptions(rounds=600, workers=1, fast=False, bots=("smart",), invariant_rounds=0)
    (run,) = run_check(spec, opts).runs
    assert run.judge.rounds >= 600
    assert run.judge.invariant_rounds == 0
    assert run.decisions is None


def test_turns_without_a_question_offer_one_option() -> None:
    """A match of 10 turns in which the players were asked 4 times: 6 turns offered one
    option; the count starts afresh for the next match."""
    count = DecisionCount()
    for k in (3, 1, 2, 5):
        count.offer([Move(tile, 0, 1) for tile in range(k)] + [Move(0, 1, 1)])  # one twice
    count_match(count, 10)
    assert (count.turns, count.choices, count.asked) == (10, 3, 0)
    assert count.options.count == 10
    assert count.options.mean == (3 + 1 + 2 + 5 + 6) / 10
    assert (count.options.minimum, count.options.maximum) == (1, 5)
    one_by_one = Mean()
    for x in (3, 1, 2, 5, 1, 1, 1, 1, 1, 1):
        one_by_one.add(x)
    assert abs(count.options.variance - one_by_one.variance) < 1e-12
