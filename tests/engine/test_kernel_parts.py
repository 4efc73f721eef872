"""The kernel's parts on their own: the deal and the scoring against plain first
versions, the set-bits table, and the step API (legal moves, apply, copy)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from deckgen.engine import Engine, IllegalMove, RoundState, make_bots
from deckgen.engine.backends.lean import set_bits
from deckgen.engine.layouts import LAYOUTS, new_layout
from deckgen.engine.moves import PASS
from deckgen.engine.results import Gap
from deckgen.engine.scoring import score_round
from deckgen.engine.setup import deal_tiles
from deckgen.engine.tables import Tables, compile_tables
from deckgen.rulespec import GAP_SITUATIONS, list_rules, load_rules
from deckgen.rulespec.model import Scoring

BENCH = Path(__file__).resolve().parents[2] / "bench"
SPECS = {s.id: s for s in list_rules()}


# ---------------------------------------------------------------- plain references
def _plain_deal(engine: Engine, rng: random.Random) -> tuple[list[int], list[int], int]:
    """The deal as first written: a partial Fisher-Yates over deck indices, int()."""
    t = engine.t
    pool = list(range(len(t.tiles)))
    m = len(pool)
    hands = []
    for _ in range(engine.players):
        hm = 0
        if m == t.hand_size:
            for i in pool[:m]:
                hm |= 1 << i
            m = 0
        for _ in range(min(t.hand_size, m)):
            j = int(rng.random() * m)
            m -= 1
            hm |= 1 << pool[j]
            pool[j] = pool[m]
        hands.append(hm)
    if not t.stock_rest:
        dead = t.full_mask
        for hm in hands:
            dead ^= hm
        return hands, [], dead
    stock = []
    while m:
        j = int(rng.random() * m)
        m -= 1
        stock.append(pool[j])
        pool[j] = pool[m]
    return hands, stock, 0


@pytest.mark.parametrize("name", ["draw-classic", "block-classic", "double-twelve"])
def test_deal_equals_the_plain_deal(name: str) -> None:
    """Same hands, stock and dead tiles, and the same random draws, for every count and
    for hand sizes where the last hand takes the rest."""
    variants = [
        SPECS[name],
        SPECS[name].with_changes({"deal.hand_size": {2: 14, 3: 9, 4: 7}}),
    ]
    for spec in variants:
        for n in spec.player_counts:
            engine = Engine(spec, n)
            a, b = random.Random(n), random.Random(n)
            for _ in range(300):
                assert deal_tiles(engine.t, a) == _plain_deal(engine, b)
                assert a.random() == b.random()


def _plain_score(
    t: Tables, sc: Scoring, end: str, out_seat: int, hv: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...], list[str], list[Gap]]:
    """Scoring as first written: every sum over the others spelled out."""
    sides = t.sides
    ns = len(sides)
    sv = list(hv) if ns == len(hv) else [sum(hv[s] for s in side) for side in sides]
    total = sum(sv)
    fired: list[str] = []
    gaps: list[Gap] = []
    pts = [0] * ns
    winners: tuple[int, ...] = ()

    def band(pips: int) -> int:
        return pips if sc.bands is None else pips // sc.bands + 1

    if end == "out":
        fired.append("score.out")
        w = t.side_of[out_seat]
        winners = (w,)
        if sc.method == "penalty":
            pts = [-v for v in sv]
            if sc.out_bonus:
                pts[w] += sc.out_bonus
                fired.append("score.bonus")
        elif sc.method == "winner_takes":
            raw = total - hv[out_seat] if sc.out_points == "all" else total - sv[w]
            pts[w] = band(raw)
        else:
            pts[w] = sum(v - sv[w] for i, v in enumerate(sv) if i != w)
    else:
        fired.append("score.blocked")
        if sc.method == "penalty":
            pts = [-v for v in sv]
        else:
            low = min(sv)
            lows = [i for i in range(ns) if sv[i] == low]
            if len(lows) > 1:
                tie = sc.tie
                if tie is None:
                    gaps.append(
                        Gap(
                            "score.tie",
                            f"sides {lows} tie for the lowest hand with {low}",
                            GAP_SITUATIONS["score.tie"].split("fallback: ")[1],
                        )
                    )
                    tie = "nobody_scores"
                else:
                    fired.append("score.tie")
                if tie == "nobody_scores":
                    lows = []
            winners = tuple(lows)
            for w in lows:
                if sc.method == "winner_takes":
                    others = sum(v for i, v in enumerate(sv) if i not in lows)
                    pts[w] = band(total if sc.blocked_points == "all" else others)
                else:
                    pts[w] = sum(v - low for v in sv)
    if sc.bands is not None and winners:
        fired.append("score.bands")
    return winners, tuple(pts), fired, gaps


def test_scoring_equals_the_plain_scoring() -> None:
    """Every scoring method and option, every end, ties included, teams and not."""
    rng = random.Random(5)
    options = itertools.product(
        ["winner_takes", "penalty", "lowest_takes_differences"],
        ["others", "all"],
        ["others", "all"],
        [None, 5],
        [None, "nobody_scores", "all_lowest_score"],
        [0, 20],
    )
    scorings = [
        Scoring.model_validate(
            {
                "method": m,
                "out_points": o,
                "blocked_points": b,
                "bands": bd,
                "tie": tie,
                "out_bonus": bonus,
            }
        )
        for m, o, b, bd, tie, bonus in options
    ]
    tables = [
        compile_tables(SPECS[name], n)
        for name in ("block-classic", "partnership")
        for n in SPECS[name].player_counts
    ]
    for t in tables:
        for sc in scorings:
            for _ in range(40):
                hv = tuple(rng.choice([0, 3, 5, rng.randrange(60)]) for _ in t.side_of)
                end = rng.choice(["out", "blocked", "reserve"])
                out = rng.randrange(len(hv)) if end == "out" else -1
                assert score_round(t, sc, end, out, hv) == _plain_score(t, sc, end, out, hv)


def test_set_bits_table() -> None:
    rng = random.Random(2)
    for _ in range(2000):
        mask = rng.getrandbits(rng.choice([8, 16, 28, 91]))
        count, found = set_bits(mask)
        assert found == tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
        assert count == len(found) == mask.bit_count()


def test_random_bots_follow_a_replaced_generator() -> None:
    """The engine keeps the seats' random methods between rounds, but not stale ones."""
    spec = load_rules(BENCH / "engine_openspiel.toml")
    engine = Engine(spec, 2)
    bots = make_bots(["random"], 2, 3)
    rng = random.Random(1)
    engine.play_round(rng, bots)
    bots[1].rng = random.Random(99)  # type: ignore[attr-defined]
    fresh = make_bots(["random"], 2, 3)
    fresh[0].rng.setstate(bots[0].rng.getstate())  # type: ignore[attr-defined]
    fresh[1].rng = random.Random(99)  # type: ignore[attr-defined]
    state = rng.getstate()
    a = engine.play_round(rng, bots)
    rng.setstate(state)
    b = Engine(spec, 2).play_round(rng, fresh)
    assert a == b


# ---------------------------------------------------------------- the step API
def _play_out(state: RoundState, rng: random.Random) -> None:
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(moves[int(rng.random() * len(moves))])


@pytest.mark.parametrize("rid", sorted(SPECS))
def test_a_copy_plays_on_alone(rid: str) -> None:
    spec = SPECS[rid]
    engine = Engine(spec, spec.player_counts[-1], check_invariants=True)
    state = engine.start_round(random.Random(3))
    for _ in range(5):
        if state.is_over:
            break
        state.apply(state.legal_moves()[0])
    before = state.copy()
    snapshot = (list(state.hands), list(state.stock), list(state.layout.ends), state.seat)
    _play_out(before, random.Random(1))
    assert (list(state.hands), list(state.stock), list(state.layout.ends), state.seat) == snapshot
    again = state.copy()
    _play_out(state, random.Random(1))
    _play_out(again, random.Random(1))
    assert state.result() == again.result() == before.result()


def test_an_illegal_move_changes_nothing() -> None:
    engine = Engine(SPECS["card-domino"], 3)
    state = engine.start_round(random.Random(2))
    hands, stock, ends = list(state.hands), list(state.stock), list(state.layout.ends)
    legal = state.legal_moves()
    wrong = next(m for m in [PASS, *[m._replace(end=m.end + 1) for m in legal]] if m not in legal)
    with pytest.raises(IllegalMove):
        state.apply(wrong)
    assert (state.hands, state.stock, state.layout.ends) == (hands, stock, ends)


def test_apply_returns_the_actions_it_caused() -> None:
    engine = Engine(SPECS["two-player"], 2)
    state = engine.start_round(random.Random(0))
    seen = list(state.actions or [])
    while not state.is_over:
        move = state.legal_moves()[0]
        caused = state.apply(move)
        assert caused[0].tile == move.tile
        assert caused[0].kind in ("lead", "play", "pass")
        seen += caused
    assert seen == state.actions
    assert state.result().actions == seen


def test_every_board_shape_has_a_layout() -> None:
    from typing import get_args

    from deckgen.rulespec.model import Board

    assert set(LAYOUTS) == set(get_args(Board.model_fields["shape"].annotation))
    shapes = {"line", "spinner", "cross_doubles"}  # trains: tests/engine/test_trains.py
    t = compile_tables(SPECS["double-twelve"], 2)
    for shape in shapes:
        layout = new_layout(shape)
        six = t.double_index[6]
        assert layout.start(t, six) == (shape != "line")
        assert len(layout.ends) == (2 if shape == "line" else 4)
