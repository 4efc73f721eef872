"""The install compiles the numba engines (``python -m deckgen.engine.backends.warm``, run by the
Makefile's install recipe), so that a new user's first check is as fast as the
second: the warm-up plays every bundled rules file on the engine the check uses."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from deckgen.engine.backends.jit import HAVE_JIT
from deckgen.engine.backends.registry import choose
from deckgen.engine.backends.warm import warm
from deckgen.engine.tables import compile_tables
from deckgen.rulespec import list_rules

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not HAVE_JIT, reason="numba is not installed")
def test_warm_plays_every_bundled_file_on_its_compiled_engine() -> None:
    done = warm()
    engines = {}
    for spec in list_rules():
        n = spec.player_counts[0]
        chosen = choose(spec, compile_tables(spec, n), ("random",) * n, 1 << 62)
        assert chosen is not None, spec.id
        engines[spec.id] = chosen.name
    assert done == [f"{k}: {v}" for k, v in engines.items()]
    assert {"compiled board", "compiled trains"} <= set(engines.values())


def test_the_install_warms_and_the_command_says_how() -> None:
    recipe = (ROOT / "Makefile").read_text(encoding="utf-8")
    install = recipe.index("install -e '.[test]'")
    assert recipe.index("-m deckgen.engine.backends.warm") > install
    r = subprocess.run(
        [sys.executable, "-m", "deckgen.engine.backends.warm", "--cold"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert r.returncode == 2
    assert "usage: python -m deckgen.engine.backends.warm" in r.stderr
