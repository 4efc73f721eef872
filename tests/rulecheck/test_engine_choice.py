"""Which fast engine a check plays: the registry's first engine that plays the file,
numpy's line engine for small runs of a line game (numba's start costs about half a
second per process, numpy starts at once), the compiled ones where numba pays for its
start or numpy has no engine; and the reason when no engine plays it."""

from __future__ import annotations

import pytest

from deckgen.engine.backends.jit import HAVE_JIT
from deckgen.engine.backends.registry import (
    ENGINES,
    JIT_MIN_ROUNDS,
    JIT_MIN_ROUNDS_DRAWING,
    choose,
    unsupported,
)
from deckgen.engine.tables import compile_tables
from deckgen.rulecheck import fastmatch
from deckgen.rulecheck.check import CheckOptions, run_check
from deckgen.rulecheck.chunks import ChunkTask, remember
from deckgen.rulespec import load_rules

needs_jit = pytest.mark.skipif(not HAVE_JIT, reason="numba is not installed")


def _chosen(rid: str, n: int, rounds: int, bots: tuple[str, ...] = ("random",)) -> str | None:
    spec = load_rules(rid)
    b = choose(spec, compile_tables(spec, n), bots * n if len(bots) == 1 else bots, rounds)
    return b.name if b else None


def test_numpy_plays_small_lines_only() -> None:
    assert _chosen("two-player", 2, 1000) == "numpy line"
    assert _chosen("card-domino", 3, 1000) == "numpy line"
    assert _chosen("partnership", 4, 1000) == "numpy line"  # to a target: a few at a time
    twelve = _chosen("double-twelve", 3, 1000)  # crossed doubles
    assert twelve == ("compiled board" if HAVE_JIT else None)  # without numba: the kernel
    assert _chosen("all-fives", 2, 1000) == ("compiled board" if HAVE_JIT else None)


@needs_jit
def test_the_compiled_engines_take_large_runs_and_what_numpy_cannot_play() -> None:
    assert _chosen("two-player", 2, JIT_MIN_ROUNDS) == "compiled board"
    assert _chosen("two-player", 2, JIT_MIN_ROUNDS - 1) == "numpy line"
    assert _chosen("mexican-train", 4, 10) == "compiled trains"
    assert _chosen("chicken-foot", 3, 10) == "compiled trains"
    assert _chosen("all-fives", 4, 10 * JIT_MIN_ROUNDS) == "compiled board"


@needs_jit
def test_a_game_drawing_until_a_tile_fits_goes_compiled_sooner() -> None:
    # numpy steps through every draw of every round: compiled from fewer rounds
    assert _chosen("draw-classic", 2, JIT_MIN_ROUNDS_DRAWING) == "compiled board"
    assert _chosen("draw-classic", 2, JIT_MIN_ROUNDS_DRAWING - 1) == "numpy line"
    # card-domino draws a few at most: numpy keeps it up to the general limit
    assert _chosen("card-domino", 2, JIT_MIN_ROUNDS_DRAWING) == "numpy line"
    assert _chosen("card-domino", 2, JIT_MIN_ROUNDS) == "compiled board"


def test_no_engine_plays_smart_bots_and_says_why() -> None:
    spec = load_rules("two-player")
    t = compile_tables(spec, 2)
    assert choose(spec, t, ("smart", "random")) is None
    assert unsupported(spec, t, ("smart", "random")) == "the bot 'smart' has no fast version"
    for b in ENGINES:
        assert b.supports(spec, t, ("smart", "random")) is not None, b.name


def test_the_round_winner_rule_keeps_a_file_on_the_kernel() -> None:
    spec = load_rules("block-classic").with_changes({"opening.later_starter": "round_winner"})
    t = compile_tables(spec, 3)
    assert unsupported(spec, t, ("random",) * 3) == "later rounds start with the previous winner"


@needs_jit
def test_the_check_takes_numpy_for_a_small_run_and_compiled_for_a_large_one() -> None:
    spec = load_rules("two-player")
    fastmatch._ENGINES.clear()
    run_check(spec, CheckOptions(rounds=5000, workers=1, judge_rounds=200))
    assert {key[2] for key in fastmatch._ENGINES} == {"numpy line"}
    fastmatch._ENGINES.clear()
    big = JIT_MIN_ROUNDS  # one worker: every fast round is this process's
    run_check(spec, CheckOptions(rounds=big, workers=1, judge_rounds=200))
    assert {key[2] for key in fastmatch._ENGINES} == {"compiled board"}


class _Spy:
    """A fast engine that counts the matches it is asked to play."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.played = 0

    def play_matches(self, *args: object, **kwargs: object) -> object:
        self.played += 1
        return self.inner.play_matches(*args, **kwargs)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("name", "warm"), [("numpy line", 0), pytest.param("compiled board", 1, marks=needs_jit)]
)
def test_an_engine_made_before_the_fork_plays_a_match_only_to_load_machine_code(
    name: str, warm: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ready`` makes the engine in the parent before the workers fork; only a compiled
    engine plays a match there (to load numba's machine code once for every worker): a
    numpy match would only delay every worker (15 ms for partnership)."""
    spec = load_rules("partnership")
    remember(spec)
    task = ChunkTask(spec.raw, None, spec.sha256, 4, ("random",), 1, 0, 0, False, 0.0, 0.0)
    fastmatch._ENGINES.clear()
    real = fastmatch.engine_for
    spies: list[_Spy] = []

    def spying(t: ChunkTask, engine: str) -> _Spy:
        spies.append(_Spy(real(t, engine)))
        return spies[-1]

    monkeypatch.setattr(fastmatch, "engine_for", spying)
    fastmatch.ready(task, name)
    assert [s.played for s in spies] == [warm]
    assert {key[2] for key in fastmatch._ENGINES} == {name}  # made all the same
