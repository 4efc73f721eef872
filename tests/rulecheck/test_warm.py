"""The install compiles the numba engines (``python -m deckgen.rulecheck.warm``, run by the
Makefile's install recipe), so that a new user's first check is as fast as the
second: the warm-up plays every bundled rules file on the engine the check uses."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from deckgen.rulecheck.fastmatch import make_fast, warm
from deckgen.rulecheck.jit import HAVE_JIT
from deckgen.rulespec import list_rules

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not HAVE_JIT, reason="numba is not installed")
def test_warm_plays_every_bundled_file_on_its_compiled_engine() -> None:
    done = warm()
    engines = {
        spec.id: type(make_fast(spec, spec.player_counts[0], compiled=True)).__name__
        for spec in list_rules()
    }
    assert done == [f"{k}: {v}" for k, v in engines.items()]
    assert {"JitBoard", "JitLine", "JitTrains"} <= set(engines.values())


def test_the_install_warms_and_the_command_says_how() -> None:
    recipe = (ROOT / "Makefile").read_text(encoding="utf-8")
    install = recipe.index("install -e '.[test]'")
    assert recipe.index("-m deckgen.rulecheck.warm") > install
    r = subprocess.run(
        [sys.executable, "-m", "deckgen.rulecheck.warm", "--cold"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert r.returncode == 2
    assert "usage: python -m deckgen.rulecheck.warm" in r.stderr
