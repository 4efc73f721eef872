"""Many seeded matches of every bundled variant, with the run-time invariants on."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from deckgen.engine import END_OUT, Engine, make_bots, play_match, simulate_rounds
from deckgen.engine.players import RandomBot
from deckgen.engine.setup import deal_tiles
from deckgen.rulespec import list_rules, load_rules

SPECS = {s.id: s for s in list_rules()}
CASES = [(rid, n) for rid, s in SPECS.items() for n in s.player_counts]


@pytest.mark.parametrize(("rid", "players"), CASES)
def test_many_seeded_matches_keep_every_invariant(rid: str, players: int) -> None:
    spec = SPECS[rid]
    engine = Engine(spec, players, check_invariants=True)
    ends: Counter[str] = Counter()
    fired: Counter[str] = Counter()
    for seed in range(40):
        bots = ["random", "greedy", "smart", "random"][seed % 3 :]
        m = play_match(engine, make_bots(bots, players, seed), seed)
        assert m.winners, "every match has a winner"
        assert not m.all_gaps(), f"{rid} left a situation open: {m.all_gaps()[0]}"
        for r in m.rounds:
            ends[r.end] += 1
            fired.update(r.clauses)
            if r.end == END_OUT:
                assert r.winners == (engine.t.side_of[r.out_seat],)
            assert set(r.clauses) <= set(spec.clause_ids()), "only stated clauses decide"
        assert list(m.totals) == [sum(r.points[i] for r in m.rounds) for i in range(len(m.sides))]
        assert m.totals_after[-1] == m.totals
        fired.update(m.clauses)
    assert ends[END_OUT] > 0
    assert {"setup.deal", "play.match", "score.out", "match.end"} <= set(fired)


def test_same_seed_same_match_and_deal_does_not_depend_on_bots() -> None:
    spec = load_rules("draw-classic")
    e = Engine(spec, 3)
    a = play_match(e, make_bots(["random"], 3, 11), 11, record=True)
    b = play_match(e, make_bots(["random"], 3, 11), 11, record=True)
    assert a.summary() == b.summary()
    assert a.rounds[0].actions == b.rounds[0].actions
    c = play_match(e, make_bots(["greedy"], 3, 11), 11, record=True)
    assert a.rounds[0].deal == c.rounds[0].deal


def test_random_bot_inline_path_equals_player_object_path() -> None:
    """The engine's inline random choice draws exactly as RandomBot.choose would."""

    class Wrapped(RandomBot):
        pass  # not ``type(p) is RandomBot``: goes through choose()

    for rid in SPECS:
        spec = SPECS[rid]
        n = spec.player_counts[-1]
        e = Engine(spec, n)
        fast = [e.play_round(random.Random(s), make_bots(["random"], n, s)) for s in range(60)]
        slow = [
            e.play_round(random.Random(s), [Wrapped(p.rng) for p in make_bots(["random"], n, s)])  # type: ignore[attr-defined]
            for s in range(60)
        ]
        assert [(r.end, r.points, r.turns, r.draws, r.clauses) for r in fast] == [
            (r.end, r.points, r.turns, r.draws, r.clauses) for r in slow
        ]


def test_random_moves_are_distinct_placements() -> None:
    spec = SPECS["block-classic"]
    e = Engine(spec, 2)
    t = e.t
    idx = {str(tile): i for i, tile in enumerate(t.tiles)}
    hand = (1 << idx["3-5"]) | (1 << idx["5-5"]) | (1 << idx["1-2"])
    moves = e.legal_moves(hand, [5, 5])
    assert sorted((t.tiles[m.tile].low, t.tiles[m.tile].high) for m in moves) == [(3, 5), (5, 5)]
    moves = e.legal_moves(hand | (1 << idx["3-4"]), [3, 5])
    assert len(moves) == 4  # 3-5 on either end gives different boards, 3-4 and 5-5 once


def test_simulate_rounds_is_reproducible() -> None:
    spec = SPECS["two-player"]
    a = [(r.end, r.points) for r in simulate_rounds(spec, 2, 3, 200)]
    b = [(r.end, r.points) for r in simulate_rounds(spec, 2, 3, 200)]
    assert a == b
    ends = Counter(e for e, _ in a)
    assert set(ends) == {"out", "reserve"}


def test_turned_up_start_tile_is_never_a_double_when_skipped() -> None:
    spec = SPECS["two-player"]
    e = Engine(spec, 2, check_invariants=True)
    rng = random.Random(5)
    for _ in range(300):
        r = e.play_round(rng, make_bots(["random"], 2, 1), record=True)
        assert not e.t.is_double[r.turned_up]
        assert r.deal is not None
        assert r.turned_up in r.deal.stock


def test_partnership_first_round_opens_with_double_six_and_redeals_five_doubles() -> None:
    spec = SPECS["partnership"]
    e = Engine(spec, 4, check_invariants=True)
    six = e.t.double_index[6]
    redeals = 0
    rng = random.Random(2)
    for _ in range(400):
        r = e.play_round(rng, make_bots(["random"], 4, 0), record=True)
        assert r.actions is not None
        assert r.actions[0].kind == "lead"
        assert r.actions[0].tile == six
        assert r.deal is not None
        assert all(sum(e.t.is_double[i] for i in h) < 5 for h in r.deal.hands)
        redeals += r.redeals
    later = e.play_round(rng, make_bots(["random"], 4, 0), round_no=2, prev_starter=3, record=True)
    assert later.starter == 0
    assert "start.later" in later.clauses
    assert "lead.any" in later.clauses
    assert redeals >= 0


def test_double_twelve_doubles_open_new_directions() -> None:
    spec = SPECS["double-twelve"]
    e = Engine(spec, 2, check_invariants=True)
    rng = random.Random(1)
    r = e.play_round(rng, make_bots(["random"], 2, 1), record=True)
    assert r.actions is not None
    first = r.actions[0]
    assert first.kind == "lead"
    assert e.t.is_double[first.tile]
    # the highest double dealt opens
    assert r.deal is not None
    dealt = {i for h in r.deal.hands for i in h}
    assert max(e.t.lo[i] for i in dealt if e.t.is_double[i]) == e.t.lo[first.tile]
    assert max(a.end for a in r.actions if a.kind == "play") >= 2


@pytest.mark.parametrize(("rid", "players"), [("partnership", 4), ("block-classic", 2)])
def test_deal_is_uniform(rid: str, players: int) -> None:
    """Every tile lands in every seat (and the rest) about equally often."""
    e = Engine(SPECS[rid], players)
    rng = random.Random(7)
    count = 4000
    seen = [[0] * len(e.t.tiles) for _ in range(players)]
    for _ in range(count):
        hands, _, dead = deal_tiles(e.t, rng)
        assert dead & e.t.full_mask == dead
        assert sum(h.bit_count() for h in hands) + dead.bit_count() == len(e.t.tiles)
        for s, h in enumerate(hands):
            for i in range(len(e.t.tiles)):
                seen[s][i] += h >> i & 1
    p = e.t.hand_size / len(e.t.tiles)
    sd = (count * p * (1 - p)) ** 0.5
    for row in seen:
        assert all(abs(c - count * p) < 5 * sd for c in row)


def _variant(rid: str, changes: dict, clauses: list[dict]) -> object:  # type: ignore[type-arg]
    import copy

    from deckgen.rulespec import rules_from_data

    raw = copy.deepcopy(SPECS[rid].raw)
    for key, value in changes.items():
        section, name = key.split(".")
        raw[section][name] = value
    raw["clause"] = raw["clause"] + clauses
    return rules_from_data(raw, path=f"{rid}-variant.toml")


def test_special_tile_values_count_in_hands() -> None:
    clause = {
        "id": "score.values",
        "section": "scoring",
        "text": {"de": "Der 0-0 zählt {tile_values}.", "en": "The blank counts {tile_values}."},
    }
    spec = _variant("block-classic", {"scoring.tile_values": {"0-0": 25}}, [clause])
    assert "0/0 = 25" in spec.clause_text("score.values", "en")  # type: ignore[attr-defined]
    e = Engine(spec, 2, check_invariants=True)  # type: ignore[arg-type]
    blank = e.t.double_index[0]
    rng = random.Random(4)
    seen = 0
    for _ in range(300):
        r = e.play_round(rng, make_bots(["random"], 2, 0), record=True)
        assert r.deal is not None
        assert r.actions is not None
        played = {a.tile for a in r.actions if a.kind in ("lead", "play")}
        holders = [s for s, h in enumerate(r.deal.hands) if blank in h and blank not in played]
        if holders:
            seen += 1
            assert "score.values" in r.clauses
            assert r.hand_values[holders[0]] >= 25
    assert seen > 0


def test_spinner_board_opens_four_ways_once() -> None:
    spec = _variant("draw-classic", {"board.shape": "spinner"}, [])
    e = Engine(spec, 3, check_invariants=True)  # type: ignore[arg-type]
    rng = random.Random(8)
    from deckgen.engine.board import board_after

    for _ in range(200):
        r = e.play_round(rng, make_bots(["random", "smart"], 3, 1), record=True)
        b = board_after(spec, r)  # type: ignore[arg-type]
        crossed = [p for p in b.tiles if p.crosswise]
        assert len(crossed) <= 1
        assert len(b.ends) == (4 if crossed else 2)
