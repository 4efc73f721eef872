"""The compiled hot modules (mypyc) play exactly what their plain Python source plays.

:mod:`deckgen.engine.compiled` names the modules; the build compiles them
(``setup.py``). Here the plain ``.py`` source of each is loaded beside the compiled one
(:func:`~deckgen.engine.compiled.load_plain`) and both play the same rounds from the
same deal seeds and the same random streams, for every bundled rules file (and the
benchmark anchors), every player count and three bot line-ups: through the kernel
(``setup_round``, ``RoundState`` with its layouts and the ``Finisher``, recorded, so
deals and actions are compared too)
and through the lean back-end. Whole round results must be equal; a failure names the
case, the round and the first field that differs.

``DECKGEN_REQUIRE_COMPILED=1`` (set by ``.ci/run``) makes a build without the compiled
modules fail, so CI proves they are really compiled.
"""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from deckgen.engine import Engine, RoundResult, compiled, core
from deckgen.engine.backends import lean
from deckgen.engine.players import GreedyBot, Player, RandomBot
from deckgen.rulespec import RuleSpec, list_rules, load_rules

BENCH = Path(__file__).resolve().parents[2] / "bench"
ROUNDS = 30
LINEUPS: tuple[tuple[str, ...], ...] = (("random",), ("greedy",), ("random", "greedy"))

IS_COMPILED = compiled.STATUS == "compiled"
needs_compiled = pytest.mark.skipif(
    not IS_COMPILED, reason=f"the engine runs its plain source ({compiled.REASON})"
)


def _specs() -> dict[str, RuleSpec]:
    out = {s.id: s for s in list_rules()}
    out["anchor-openspiel"] = load_rules(BENCH / "engine_openspiel.toml")
    out["anchor-dominoes"] = load_rules(BENCH / "engine_dominoes.toml")
    # a line over 91 tiles: hands wider than 64 bits through the lean loop
    out["v-twelve-line"] = out["double-twelve"].with_changes({"board.shape": "line"})
    return out


SPECS = _specs()
CASES = [(rid, n) for rid, s in SPECS.items() for n in s.player_counts]


@pytest.fixture(scope="module")
def plain() -> dict[str, ModuleType]:
    return compiled.load_plain(install=False)


def test_the_engine_says_whether_it_runs_compiled() -> None:
    forms = {m: sys.modules[m].__file__ or "" for m in compiled.MODULES}
    if os.environ.get("DECKGEN_REQUIRE_COMPILED", "") not in ("", "0"):
        assert IS_COMPILED, f"the engine runs its plain source: {compiled.REASON}"
    for module, path in forms.items():
        assert path.endswith(".py") != IS_COMPILED, f"{module} is {path} ({compiled.STATUS})"
    if IS_COMPILED:
        assert lean.__file__ is not None
        assert lean.__file__.endswith(".so")
        assert compiled.REASON == "mypyc extensions built from these sources"


@needs_compiled
def test_the_plain_source_is_plain_and_the_compiled_is_not(
    plain: dict[str, ModuleType],
) -> None:
    for name in compiled.MODULES:
        source = plain[name].__file__
        assert source is not None
        assert source.endswith(".py")
        assert sys.modules[name] is not plain[name]
    # the plain forms call each other, not the compiled ones
    plain_lean = plain["deckgen.engine.backends.lean"]
    assert plain_lean.deal_tiles is plain["deckgen.engine.setup"].deal_tiles
    assert plain_lean.Finisher is plain["deckgen.engine.finish"].Finisher
    assert sys.modules["deckgen.engine.setup"].deal_tiles is not plain_lean.deal_tiles


def _players(lineup: tuple[str, ...], n: int, seed: int) -> list[Player]:
    out: list[Player] = []
    for seat in range(n):
        name = lineup[min(seat, len(lineup) - 1)]
        gen = random.Random(seed * 16 + seat)
        out.append(RandomBot(gen) if name == "random" else GreedyBot(gen))
    return out


def _rounds(engine: Engine, lineup: tuple[str, ...], record: bool) -> list[RoundResult]:
    n = engine.players
    out = []
    for i in range(ROUNDS):
        round_no = 1 if i % 2 == 0 else 2
        prev = (i // 2) % n if round_no > 1 else -1
        out.append(
            engine.play_round(
                random.Random(1000 + i),
                _players(lineup, n, 5000 + i),
                round_no=round_no,
                prev_starter=prev,
                prev_winner=prev,
                record=record,
            )
        )
    return out


def _first_difference(a: RoundResult, b: RoundResult) -> str:
    for f in dataclasses.fields(RoundResult):
        va, vb = getattr(a, f.name), getattr(b, f.name)
        if va != vb:
            if f.name == "actions" and va is not None and vb is not None:
                k = next(
                    (k for k, (x, y) in enumerate(zip(va, vb, strict=False)) if x != y),
                    min(len(va), len(vb)),
                )
                x = va[k] if k < len(va) else "nothing"
                y = vb[k] if k < len(vb) else "nothing"
                return f"action {k + 1}: compiled {x}, plain {y}"
            return f"{f.name}: compiled {va!r}, plain {vb!r}"
    return "nothing"  # pragma: no cover - only called on unequal results


def _compiled_names(module: ModuleType, plain: dict[str, ModuleType]) -> dict[str, Any]:
    """Every name ``module`` took from a compiled module (``setup_round``,
    ``RoundState``, ``DealRejected``, ...), as the plain source defines it: compiled code
    takes only its own classes, so the plain engine must make its states, layouts and
    exceptions from the plain modules throughout."""
    out: dict[str, Any] = {}
    for name, value in vars(module).items():
        source = plain.get(getattr(value, "__module__", "") or "")
        if source is not None and hasattr(source, name):
            out[name] = getattr(source, name)
    return out


def _plain_engine(spec: RuleSpec, n: int, plain: dict[str, ModuleType]) -> Engine:
    """An engine whose finisher and lean back-end are the plain sources' (the rest of
    the kernel's compiled names are swapped in by the caller: :func:`_compiled_names`)."""
    engine = Engine(spec, n)
    finisher: Any = plain["deckgen.engine.finish"].Finisher(engine.t)
    engine.finisher = finisher
    if engine._lean is not None:
        engine._lean = plain["deckgen.engine.backends.lean"].Lean(engine.t, finisher)
    return engine


@needs_compiled
@pytest.mark.parametrize(("rid", "n"), CASES, ids=[f"{r}-{n}" for r, n in CASES])
def test_compiled_rounds_equal_plain_rounds(
    rid: str, n: int, plain: dict[str, ModuleType], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = SPECS[rid]
    compiled_engine = Engine(spec, n)
    plain_engine = _plain_engine(spec, n, plain)
    assert type(plain_engine.finisher) is not type(compiled_engine.finisher)
    modes = [(lineup, True) for lineup in LINEUPS]
    if compiled_engine._lean is not None:
        modes.append((("random",), False))  # not recorded: the lean back-end plays
    for lineup, record in modes:
        want = _rounds(compiled_engine, lineup, record)
        with monkeypatch.context() as m:
            for name, value in _compiled_names(core, plain).items():
                m.setattr(core, name, value)
            got = _rounds(plain_engine, lineup, record)
        for i, (a, b) in enumerate(zip(want, got, strict=True)):
            path = "kernel" if record else "lean back-end"
            assert a == b, (
                f"{rid}, {n} players, {'+'.join(lineup)}, {path}: round {i} differs, "
                f"{_first_difference(a, b)}"
            )


def test_a_difference_is_named_by_its_field_and_action() -> None:
    engine = Engine(SPECS["draw-classic"], 2)
    a = _rounds(engine, ("random",), True)[0]
    assert a.actions is not None
    b = dataclasses.replace(a, actions=[*a.actions[:3], dataclasses.replace(a.actions[3], seat=9)])
    assert _first_difference(a, b).startswith("action 4: compiled Action(")
    c = dataclasses.replace(a, turns=a.turns + 1)
    assert _first_difference(a, c) == f"turns: compiled {a.turns}, plain {a.turns + 1}"


@needs_compiled
def test_a_changed_source_or_the_switch_means_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    assert compiled.decide() == ("compiled", "mypyc extensions built from these sources")
    monkeypatch.setattr(compiled, "source_hash", lambda path: "0" * 64)
    status, reason = compiled.decide()
    assert status == "pure"
    names = ", ".join(m.rsplit(".", 1)[1] + ".py" for m in compiled.MODULES)
    assert names.startswith("turn.py, layouts.py, ")
    assert names.endswith(", state.py, lean.py")
    assert reason.startswith(f"{names} changed since the build")
    monkeypatch.undo()
    monkeypatch.setenv(compiled.OFF_SWITCH, "1")
    assert compiled.decide() == ("pure", "DECKGEN_NO_COMPILED is set")


@needs_compiled
def test_the_switch_imports_the_plain_sources_in_a_fresh_process() -> None:
    probe = (
        "from deckgen.engine import compiled, core, setup;"
        "from deckgen.engine.backends import lean;"
        "print(compiled.STATUS, lean.__file__, setup.__file__, core.setup_round.__module__)"
    )
    env = dict(os.environ, **{compiled.OFF_SWITCH: "1"})
    out = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out[0] == "pure"
    assert out[1].endswith("backends/lean.py")
    assert out[2].endswith("engine/setup.py")
    assert out[3] == "deckgen.engine.setup"
