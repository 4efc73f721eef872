"""Every fast engine of the registry equals the kernel round for round.

For every rules file of the shared fixtures (the bundled files, the benchmark anchors and
variants), every player count and bot line-up, the kernel plays its rounds, and every
engine of :data:`~deckgen.engine.backends.registry.ENGINES` that supports the case
plays them again from the kernel's deals and decision numbers
(:meth:`~deckgen.engine.backends.protocol.FastEngine.replay`); every round must come
out equal, and the clauses the check counts from the fast rounds too. A failure names
the case, the engine, the round, its seeds and the first action where they part. A new
engine registered in ``ENGINES`` is picked up here without a line of test.
"""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType

import pytest

from deckgen.engine.backends.jit import HAVE_JIT
from deckgen.engine.backends.registry import ENGINES, Backend
from deckgen.engine.tables import compile_tables
from tests.engine.kernel_rounds import (
    LINEUPS,
    SPECS,
    compare,
    kernel_rounds,
    player_counts,
    replay_of,
)

CASES = [(rid, n, lineup) for rid in SPECS for n in player_counts(rid) for lineup in LINEUPS]


def _supporting(rid: str, n: int, lineup: tuple[str, ...]) -> list[Backend]:
    spec = SPECS[rid]
    kinds = tuple(lineup[min(s, len(lineup) - 1)] for s in range(n))
    t = compile_tables(spec, n)
    return [b for b in ENGINES if b.supports(spec, t, kinds) is None]


def _play(backend: Backend, rid: str, n: int, lineup: tuple[str, ...], count: int | None) -> None:
    spec = SPECS[rid]
    rounds = kernel_rounds(spec, n, lineup, count)
    kinds = tuple(lineup[min(s, len(lineup) - 1)] for s in range(n))
    engine = backend.make(spec, compile_tables(spec, n))
    out = engine.replay(replay_of(spec, rounds), kinds)
    compare(f"{rid}, {n} players, {'+'.join(lineup)}", backend.name, spec, n, rounds, out)


@pytest.mark.parametrize(
    ("rid", "n", "lineup"), CASES, ids=[f"{r}-{n}-{'+'.join(b)}" for r, n, b in CASES]
)
def test_every_engine_equals_the_kernel(rid: str, n: int, lineup: tuple[str, ...]) -> None:
    spec = SPECS[rid]
    rounds = kernel_rounds(spec, n, lineup)
    given = replay_of(spec, rounds)
    kinds = tuple(lineup[min(s, len(lineup) - 1)] for s in range(n))
    case = f"{rid}, {n} players, {'+'.join(lineup)}"
    t = compile_tables(spec, n)
    for backend in _supporting(rid, n, lineup):
        out = backend.make(spec, t).replay(given, kinds)
        compare(case, backend.name, spec, n, rounds, out)


def test_every_engine_and_every_case_is_covered() -> None:
    """Each registered engine plays some case; with numba, every case of the bundled
    files has a batch engine (without it, trains, feet and All Fives play on the kernel)."""
    played = {b.name for case in CASES for b in _supporting(*case)}
    if HAVE_JIT:
        assert played == {b.name for b in ENGINES}
        for rid, n, lineup in CASES:
            assert any(b.batch for b in _supporting(rid, n, lineup)), (rid, n, lineup)
    else:
        assert played == {b.name for b in ENGINES if "compiled" not in b.name}


def _compiled_module(backend: Backend) -> ModuleType:
    import importlib

    return importlib.import_module(f"deckgen.engine.backends.{backend.module}")


@pytest.fixture
def as_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every compiled function of the compiled engines replaced by its Python source."""
    for backend in ENGINES:
        if "compiled" in backend.name:
            module = _compiled_module(backend)
            for name, fn in list(vars(module).items()):
                if hasattr(fn, "py_func"):
                    monkeypatch.setattr(module, name, fn.py_func)


PY_CASES = [
    ("compiled board", "two-player", 2, ("random", "greedy")),
    ("compiled board", "v-twelve-line", 3, ("random",)),
    ("compiled board", "v-may", 2, ("random",)),
    ("compiled board", "double-twelve", 3, ("random", "greedy")),
    ("compiled board", "all-fives", 4, ("random", "greedy")),
    ("compiled board", "v-spinner", 2, ("random", "greedy")),
    ("compiled trains", "mexican-train", 3, ("random", "greedy")),
    ("compiled trains", "chicken-foot", 6, ("random",)),
]


@pytest.mark.parametrize(("name", "rid", "n", "lineup"), PY_CASES)
@pytest.mark.usefixtures("as_python")
def test_the_compiled_source_as_python_equals_the_kernel(
    name: str, rid: str, n: int, lineup: tuple[str, ...]
) -> None:
    """The compiled engines' source run as plain Python (as it runs without numba)."""
    import numpy as np

    backend = next(b for b in ENGINES if b.name == name)
    with np.errstate(over="ignore"):
        _play(backend, rid, n, lineup, 4 if "trains" in name else 6)


@pytest.mark.parametrize("backend", ENGINES, ids=[b.name for b in ENGINES])
def test_a_differing_engine_is_named_with_its_round_and_action(backend: Backend) -> None:
    rid, n = next(
        (rid, n)
        for rid, n, lineup in CASES
        if lineup == ("random",) and backend in _supporting(rid, n, lineup)
    ) if any(backend in _supporting(*c) for c in CASES) else ("", 0)  # fmt: skip
    if not rid:
        pytest.skip(f"{backend.name} plays nothing here (numba is off)")
    spec = SPECS[rid]
    rounds = kernel_rounds(spec, n, ("random",), 6)
    other = [replace(r, stream_seed=r.stream_seed + 1) for r in rounds]
    engine = backend.make(spec, compile_tables(spec, n))
    out = engine.replay(replay_of(spec, other), ("random",) * n)
    with pytest.raises(AssertionError, match=rf"{backend.name} differs from the kernel in round "):
        compare(rid, backend.name, spec, n, rounds, out)
    with pytest.raises(
        AssertionError, match=r"they part at (action \d+ \(|after the kernel.s last action)"
    ):
        compare(rid, backend.name, spec, n, rounds, out)
