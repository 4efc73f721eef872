"""Rules files that used to make the check hang get a clear verdict in seconds (#24.11).

Each runs as a user runs it, in a subprocess with a timeout:

- International partnership with ``deal.redeal_doubles = 2``: four hands of seven take
  the whole double-six set, so some hand always holds two of its seven doubles and no
  deal ever stands. The file is refused (exit 2) with the exact odds, by ``rules check``
  and ``rules play`` alike; the redeal loops of the engines are bounded too.
- Mexican Train with ``deal.rest = "dead"`` and its draw clauses kept: the station double
  is often among the unused tiles; it is taken from them (it used to stop ``rules play``
  with a traceback and make the check wait forever for rounds that all failed).
"""

from __future__ import annotations

import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

from deckgen.engine import Engine, make_bots, play_match
from deckgen.rulespec import load_rules
from deckgen.rulespec.odds import p_deal_stands

RULES = Path(__file__).resolve().parents[2] / "rules"


def _variant(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = (RULES / f"{name}.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / f"{name}-variant.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _deckgen(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deckgen", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


def test_a_deal_that_never_stands_is_refused(tmp_path: Path) -> None:
    path = _variant(tmp_path, "partnership", "redeal_doubles = 5", "redeal_doubles = 2")
    assert p_deal_stands(28, 7, 4, 7, 2) == 0  # seven doubles in four hands of seven
    for args in (("rules", "check", str(path), "--quiet"), ("rules", "play", str(path))):
        r = _deckgen(*args)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert "Traceback" not in r.stderr
        assert "no deal ever stands" in r.stderr, r.stderr
        assert "deal.redeal_doubles" in r.stderr


def test_redeal_odds_are_exact() -> None:
    """The odds the refusal quotes, against a count over every way the doubles fall."""
    from itertools import combinations

    # a double-two set (6 tiles, 3 doubles), two hands of two: count every deal
    tiles = range(6)
    doubles = {0, 3, 5}
    stands = total = 0
    for a in combinations(tiles, 2):
        for b in combinations([x for x in tiles if x not in a], 2):
            total += 1
            stands += all(len(doubles & set(h)) < 2 for h in (a, b))
    assert p_deal_stands(6, 3, 2, 2, 2) == Fraction(stands, total)


def test_mexican_train_with_unused_tiles_plays_and_checks(tmp_path: Path) -> None:
    path = _variant(tmp_path, "mexican-train", 'rest = "stock"', 'rest = "dead"')
    spec = load_rules(path)
    m = play_match(Engine(spec, 2, check_invariants=True), make_bots(["random"], 2, 1), 1)
    assert len(m.rounds) == 13  # every station double, wherever it lay
    r = _deckgen("rules", "play", str(path), "--players", "2", "--seed", "1")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    r = _deckgen("rules", "check", str(path), "--players", "2", "--rounds", "1000", "--quiet")
    assert r.returncode not in (2, 4), (r.returncode, r.stdout, r.stderr)  # a verdict, not broken
    assert r.stdout.startswith("mexican-train: "), r.stdout


def test_every_engine_keeps_the_deal_after_100_redeals() -> None:
    """Past the validation (a spec built around it): no deal of the engines' stands, and
    each keeps the one after the 100th redeal in a row, as the kernel does."""
    import numpy as np

    from deckgen.engine.backends.jit_board import JitBoard
    from deckgen.engine.backends.numpy_line import FastLine
    from deckgen.engine.setup import MAX_REDEALS
    from deckgen.engine.tables import compile_tables
    from deckgen.rulespec import RuleSpec

    base = load_rules("partnership")
    p = base.params
    params = p.model_copy(update={"deal": p.deal.model_copy(update={"redeal_doubles": 2})})
    spec = RuleSpec(params, raw=base.raw, path=None)
    t = compile_tables(spec, 4)
    state = Engine(spec, 4).start_round(random.Random(0))
    assert state.setup.redeals == MAX_REDEALS
    assert "setup.redeal_limit" in [g.situation for g in state.gaps]
    for cls in (FastLine, JitBoard):
        deals = cls(spec, t).deal(np.random.default_rng(0), 8)
        assert deals.redeals is not None
        assert (deals.redeals == MAX_REDEALS).all(), cls.__name__
