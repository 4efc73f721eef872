"""Which fast engine a check plays: the compiled one where numba pays for its start,
numpy's for small runs of a line game (numba's start costs about half a second per
process, numpy starts at once), the compiled one always where numpy has no fast engine."""

from __future__ import annotations

import pytest

from deckgen.rulecheck import fastmatch
from deckgen.rulecheck.check import CheckOptions, run_check
from deckgen.rulecheck.fastline import FastLine
from deckgen.rulecheck.fastmatch import JIT_MIN_ROUNDS, make_fast, numpy_line
from deckgen.rulecheck.jit import HAVE_JIT
from deckgen.rulespec import load_rules

needs_jit = pytest.mark.skipif(not HAVE_JIT, reason="numba is not installed")


def test_numpy_plays_small_lines_only() -> None:
    assert numpy_line(load_rules("two-player"))
    assert numpy_line(load_rules("card-domino"))
    assert not numpy_line(load_rules("double-twelve"))  # crossed doubles
    assert not numpy_line(load_rules("all-fives"))  # points during play
    assert not numpy_line(load_rules("mexican-train"))
    assert numpy_line(load_rules("partnership"))  # to a target: a few rounds at a time


@needs_jit
def test_make_fast_follows_the_choice() -> None:
    from deckgen.rulecheck.jit_board import JitBoard
    from deckgen.rulecheck.jit_line import JitLine

    two = load_rules("two-player")
    assert type(make_fast(two, 2)) is JitLine
    assert type(make_fast(two, 2, compiled=False)) is FastLine
    twelve = load_rules("double-twelve")  # numpy's board engine is 40x slower: compiled
    assert type(make_fast(twelve, 3, compiled=False)) is JitBoard


@needs_jit
def test_the_check_takes_numpy_for_a_small_run_and_compiled_for_a_large_one() -> None:
    spec = load_rules("two-player")
    fastmatch._LINES.clear()
    run_check(spec, CheckOptions(rounds=5000, workers=1, judge_rounds=200))
    assert {key[2] for key in fastmatch._LINES} == {False}
    fastmatch._LINES.clear()
    big = JIT_MIN_ROUNDS  # one worker: every fast round is this process's
    run_check(spec, CheckOptions(rounds=big, workers=1, judge_rounds=200))
    assert {key[2] for key in fastmatch._LINES} == {True}
