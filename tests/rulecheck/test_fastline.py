"""The fast path against the reference engine: same deals and deterministic bots give
identical rounds; random bots give the same statistics within sampling error."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from deckgen.engine import Engine, make_bots
from deckgen.engine.tables import compile_tables
from deckgen.rulecheck.chunks import ChunkTask, run_chunk
from deckgen.rulecheck.fastboard import FastBoard
from deckgen.rulecheck.fastline import END_CODES, Deals, unsupported
from deckgen.rulecheck.fastmatch import FastTask, make_fast, run_fast_chunk
from deckgen.rulecheck.stats import Mean, Proportion
from deckgen.rulecheck.tally import merged
from deckgen.rulespec import RuleSpec, load_rules

LINE_VARIANTS = [
    ("two-player", 2),
    ("card-domino", 2),
    ("card-domino", 3),
    ("card-domino", 4),
    ("block-classic", 3),
    ("draw-classic", 2),
    ("draw-classic", 4),
    ("partnership", 4),
]


def _spec(rid: str) -> RuleSpec:
    """A bundled file, or ``file:key=value`` for a variant of it (e.g. another board)."""
    if ":" not in rid:
        return load_rules(rid)
    base, change = rid.split(":")
    key, value = change.split("=")
    return load_rules(base).with_changes({key: value})


def _same_deals(
    rid: str, n: int, bots: tuple[str, ...], count: int, later: bool, board: bool = False
) -> int:
    """Play ``count`` recorded reference rounds again on the fast path; return mismatches.

    ``board`` forces the general :class:`FastBoard` even where :class:`FastLine` applies.
    """
    spec = _spec(rid)
    engine = Engine(spec, n)
    seats = make_bots(list(bots), n, 11)
    rng = random.Random(hash((rid, n, later)) & 0xFFFF)
    kw = {"round_no": 2, "prev_starter": 1} if later else {}
    ref = [engine.play_round(rng, seats, record=True, **kw) for _ in range(count)]  # type: ignore[arg-type]
    line = FastBoard(spec, compile_tables(spec, n)) if board else make_fast(spec, n)
    tiles = len(spec.dset)
    if isinstance(line, FastBoard):
        hands = np.zeros((count, n, tiles), dtype=bool)
    else:
        hands = np.zeros((count, n), dtype=line.dtype)
    width = len(ref[0].deal.stock) + len(ref[0].deal.dead)  # type: ignore[union-attr]
    rest = np.zeros((count, width), dtype=np.int64)
    for g, r in enumerate(ref):
        assert r.deal is not None
        for s, h in enumerate(r.deal.hands):
            if isinstance(line, FastBoard):
                hands[g, s, h] = True
            else:
                hands[g, s] = sum(1 << i for i in h)
        rest[g] = r.deal.stock + r.deal.dead
    lead_any = np.full(count, later and spec.params.opening.later_lead == "any")
    starter, lead = line.first_rule(hands, lead_any=bool(lead_any[0]))
    if later and spec.params.opening.later_starter == "next_seat":
        starter[:] = 2 % n
        lead[:] = -1
    kinds = tuple(bots[min(s, len(bots) - 1)] for s in range(n))
    out = line.play(Deals(hands, rest), starter, lead, lead_any, kinds, np.random.default_rng(1))
    bad = 0
    for g, r in enumerate(ref):
        got = (
            END_CODES[out.end[g]],
            int(out.out_seat[g]),
            int(out.starter[g]),
            int(out.turns[g]),
            int(out.draws[g]),
            int(out.passes[g]),
            int(out.played[g]),
            tuple(out.hand_values[g].tolist()),
            tuple(out.points[g].tolist()),
            tuple(np.nonzero(out.winners[g])[0].tolist()),
        )
        want = (
            r.end,
            r.out_seat,
            r.starter,
            r.turns,
            r.draws,
            r.passes,
            r.tiles_played,
            r.hand_values,
            r.points,
            r.winners,
        )
        bad += got != want
    return bad


@pytest.mark.parametrize(("rid", "n"), LINE_VARIANTS)
def test_greedy_on_the_same_deals_gives_identical_rounds(rid: str, n: int) -> None:
    assert _same_deals(rid, n, ("greedy",), 300, later=False) == 0
    assert _same_deals(rid, n, ("greedy",), 150, later=True) == 0


BOARD_VARIANTS = [
    ("double-twelve", 2),  # every double crosswise, 91 tiles
    ("double-twelve", 4),
    ("draw-classic:board.shape=spinner", 3),
    ("card-domino:board.shape=cross_doubles", 3),  # limited draws, reserve, turned up
    ("card-domino:turn.play_drawn=may", 3),
]


@pytest.mark.parametrize(("rid", "n"), BOARD_VARIANTS)
def test_greedy_identical_on_any_board(rid: str, n: int) -> None:
    assert _same_deals(rid, n, ("greedy",), 200, later=False) == 0
    assert _same_deals(rid, n, ("greedy",), 100, later=True) == 0


@pytest.mark.parametrize(("rid", "n"), [("two-player", 2), ("partnership", 4)])
def test_the_general_board_agrees_on_lines_too(rid: str, n: int) -> None:
    assert _same_deals(rid, n, ("greedy",), 200, later=False, board=True) == 0


def test_the_comparison_can_fail() -> None:
    # random bots draw from different streams: the same deals must then differ somewhere
    assert _same_deals("card-domino", 3, ("random",), 200, later=False) > 0


def _close(a: Mean | Proportion, b: Mean | Proportion) -> bool:
    if isinstance(a, Mean) and isinstance(b, Mean):
        se = math.hypot(a.stdev / math.sqrt(a.count), b.stdev / math.sqrt(b.count))
        return abs(a.mean - b.mean) <= 4.5 * se + 1e-9
    assert isinstance(a, Proportion)
    assert isinstance(b, Proportion)
    p = (a.hits + b.hits) / (a.trials + b.trials)
    se = math.sqrt(p * (1 - p) * (1 / a.trials + 1 / b.trials))
    return abs(a.value - b.value) <= 4.5 * se + 1e-9


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
    fast = merged(run_fast_chunk(FastTask(task, 0, fast_matches)))
    assert ref.matches == ref_matches
    assert fast.matches == fast_matches
    assert fast.rounds > 4 * ref.rounds
    for name in ("turns", "draws", "passes", "tiles_played", "redeals", "match_turns"):
        assert _close(getattr(ref, name), getattr(fast, name)), name
    assert _close(ref.match_rounds, fast.match_rounds)
    for end in ("out", "blocked", "reserve"):
        assert _close(ref.ends.share(end), fast.ends.share(end)), end
    assert _close(ref.starter_wins, fast.starter_wins)
    for side in range(len(ref.points)):
        assert _close(ref.points[side], fast.points[side]), side
        assert _close(ref.round_winner.share(str(side)), fast.round_winner.share(str(side)))
        assert _close(ref.match_winner.share(str(side)), fast.match_winner.share(str(side)))


def test_fast_path_is_offered_only_where_it_applies() -> None:
    assert unsupported(load_rules("two-player"), ("random",), 2) is None
    assert unsupported(load_rules("card-domino"), ("greedy", "random"), 4) is None
    assert unsupported(load_rules("block-classic"), ("random",), 2) is None
    assert unsupported(load_rules("partnership"), ("random",), 4) is None
    assert unsupported(load_rules("double-twelve"), ("random",), 2) is None
    assert "smart" in (unsupported(load_rules("two-player"), ("smart",), 2) or "")
