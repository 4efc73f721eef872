"""The check's own fast path (deals and decisions from a numpy generator, whole
matches, counted into tallies) against the reference engine: random bots give the same
statistics within sampling error on every batch engine that plays the file. (Round for
round, on the kernel's own deals and numbers, every engine is held to the kernel by
``tests/engine/test_conformance.py``.)"""

from __future__ import annotations

import pytest

from deckgen.engine.backends.jit import HAVE_JIT
from deckgen.engine.backends.registry import ENGINES, unsupported
from deckgen.engine.tables import compile_tables
from deckgen.rulecheck.chunks import ChunkTask, run_chunk
from deckgen.rulecheck.fastmatch import FastTask, run_fast_chunk
from deckgen.rulecheck.tally import PlayTally, merged
from deckgen.rulespec import RuleSpec, load_rules
from tests.engine.kernel_rounds import close


def _spec(rid: str) -> RuleSpec:
    """A bundled file, or ``file:key=value`` for a variant of it (e.g. another board)."""
    if ":" not in rid:
        return load_rules(rid)
    base, change = rid.split(":")
    key, value = change.split("=")
    return load_rules(base).with_changes({key: value})


@pytest.mark.parametrize(("rid", "n", "bots", "ref_matches", "fast_matches"), [
    ("two-player", 2, ("random",), 800, 5000),  # fixed 4 rounds, one batch
    ("card-domino", 4, ("greedy", "random"), 800, 5000),
    ("block-classic", 3, ("random",), 300, 1500),  # to a target score: in waves
    ("partnership", 4, ("random",), 150, 800),  # teams, bands, redeals
    ("double-twelve", 3, ("random",), 100, 600),  # crosswise doubles, no-double redeal
    ("card-domino:turn.play_drawn=may", 3, ("random",), 500, 3000),  # may keep a drawn tile
])  # fmt: skip
def test_random_play_statistics_agree(
    rid: str, n: int, bots: tuple[str, ...], ref_matches: int, fast_matches: int
) -> None:
    spec = _spec(rid)
    task = ChunkTask(
        spec.raw, str(spec.path), spec.sha256, n, bots, 5, 0, ref_matches, False, 10.0, 60.0
    )
    ref = run_chunk(task)
    assert ref.matches == ref_matches
    kinds = tuple(bots[min(s, len(bots) - 1)] for s in range(n))
    for backend in ENGINES:  # every batch engine that plays the case
        if not backend.batch or backend.supports(spec, compile_tables(spec, n), kinds):
            continue
        fast = merged(run_fast_chunk(FastTask(task, 0, fast_matches, backend.name)))
        _agree(ref, fast, backend.name)


def _agree(ref: PlayTally, fast: PlayTally, engine: str) -> None:
    assert fast.rounds > 4 * ref.rounds, engine
    for name in ("turns", "draws", "passes", "tiles_played", "redeals", "match_turns"):
        assert close(getattr(ref, name), getattr(fast, name)), (engine, name)
    assert close(ref.match_rounds, fast.match_rounds), engine
    for end in ("out", "blocked", "reserve"):
        assert close(ref.ends.share(end), fast.ends.share(end)), (engine, end)
    assert close(ref.starter_wins, fast.starter_wins), engine
    for side in range(len(ref.points)):
        assert close(ref.points[side], fast.points[side]), (engine, side)
        for tally in ("round_winner", "match_winner"):
            a, b = getattr(ref, tally).share(str(side)), getattr(fast, tally).share(str(side))
            assert close(a, b), (engine, tally, side)


def _why(rid: str, n: int, bots: tuple[str, ...]) -> str | None:
    spec = load_rules(rid)
    return unsupported(spec, compile_tables(spec, n), bots)


def test_fast_path_is_offered_only_where_it_applies() -> None:
    assert _why("two-player", 2, ("random",)) is None
    assert _why("card-domino", 4, ("greedy", "random")) is None
    assert _why("block-classic", 2, ("random",)) is None
    assert _why("partnership", 4, ("random",)) is None
    twelve = _why("double-twelve", 2, ("random",))  # crossed doubles: compiled only
    assert twelve is None if HAVE_JIT else "numba" in (twelve or "")
    assert "smart" in (_why("two-player", 2, ("smart",)) or "")


@pytest.mark.parametrize(("rid", "players", "changes"), [
    ("partnership", 4, {}),
    ("block-classic", 2, {"set": "double-9"}),
])  # fmt: skip
def test_hand_values_are_the_tiles_values_added_up(
    rid: str, players: int, changes: dict[str, str]
) -> None:
    """The numpy engine adds a hand's value byte by byte from tables: the same as adding
    the value of every tile in it, for a double-6 and a double-9 set, full hands too."""
    import numpy as np

    from deckgen.engine.backends.numpy_line import FastLine

    spec = load_rules(rid).with_changes(changes) if changes else load_rules(rid)
    t = compile_tables(spec, players)
    line = FastLine(spec, t)
    rng = np.random.default_rng(4)
    hands = rng.integers(0, 1 << min(63, line.ntiles), size=(500, players), dtype=np.uint64)
    hands[0, 0] = (1 << line.ntiles) - 1
    hands = hands.astype(line.dtype)
    want = [[sum(t.value[i] for i in range(line.ntiles) if int(h) >> i & 1) for h in row]
            for row in hands]  # fmt: skip
    assert line.hand_values(hands).tolist() == want
