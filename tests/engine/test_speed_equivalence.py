"""The golden corpus: the engine's results, hashed, must never change with speed work.

For every bundled rules file, the two benchmark anchors' rules files and a few changed
variants (spinner, ``play_drawn = "may"``, special tile values, penalty scoring, gaps
left open), for each allowed player count and bot line-up, this plays seeded matches
(plain, recorded and with the run-time invariants on), independent rounds through
:func:`~deckgen.engine.simulate_rounds` and direct ``play_round`` calls (probing the
deal stream after each round, so a changed number of random draws shows at once), and
hashes the ``repr`` of every result and the JSON of every game record. The hashes
were written before any optimisation (``tests/engine/data/speed_golden.json``); a
speed change that alters a single result, record or random draw fails here.

Check it outside pytest (about 25 CPU seconds; lists the changed cases):
``.venv/bin/python tests/engine/test_speed_equivalence.py --check``. Regenerate
(only for a deliberate change of the rules of play, never for speed work):
``... --write``.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from deckgen.engine import Engine, make_bots, play_match, simulate_rounds
from deckgen.engine.backends.lean import set_bits
from deckgen.engine.setup import deal_tiles
from deckgen.engine.record import match_record, record_json
from deckgen.engine.results import Gap
from deckgen.engine.scoring import score_round
from deckgen.engine.tables import Tables, compile_tables
from deckgen.rulespec import GAP_SITUATIONS, RuleSpec, list_rules, load_rules, rules_from_data
from deckgen.rulespec.model import Scoring

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "data" / "speed_golden.json"
BENCH = HERE.parent.parent / "bench"

LINEUPS: tuple[tuple[str, ...], ...] = (
    ("random",),
    ("greedy",),
    ("smart",),
    ("random", "greedy", "smart"),
    ("smart", "random"),
)
MATCHES = 24
RECORDED = 6
CHECKED = 3
ROUNDS = 120
DIRECT = 60


def _values_variant() -> RuleSpec:
    base = load_rules("block-classic")
    raw = copy.deepcopy(base.raw)
    raw["scoring"]["tile_values"] = {"0-0": 25, "6-6": 50}
    raw["clause"] = [
        *raw["clause"],
        {
            "id": "score.values",
            "section": "scoring",
            "text": {"de": "Sonderwerte: {tile_values}.", "en": "Special values: {tile_values}."},
        },
    ]
    return rules_from_data(raw, path="block-classic-values.toml")


def specs() -> dict[str, RuleSpec]:
    """Every rules file of the corpus by a stable name."""
    out = {s.id: s for s in list_rules()}
    out["anchor-openspiel"] = load_rules(BENCH / "engine_openspiel.toml")
    out["anchor-dominoes"] = load_rules(BENCH / "engine_dominoes.toml")
    dc, bc = out["draw-classic"], out["block-classic"]
    out["v-spinner"] = dc.with_changes({"board.shape": "spinner"})
    out["v-may"] = dc.with_changes({"turn.play_drawn": "may"})
    out["v-two-may"] = out["two-player"].with_changes({"turn.play_drawn": "may"})
    out["v-twelve-line"] = out["double-twelve"].with_changes({"board.shape": "line"})
    out["v-penalty"] = bc.with_changes(
        {"scoring.method": "penalty", "match.end": "rounds", "match.rounds": 3}
    )
    out["v-differences"] = bc.with_changes(
        {"scoring.method": "lowest_takes_differences", "scoring.tie": None}
    )
    out["v-gap"] = bc.with_changes(
        {
            "opening.first_starter": "required_double",
            "opening.required_double": 6,
            "opening.no_double": None,
            "opening.later_starter": None,
            "scoring.tie": None,
            "match.tie": None,
        }
    )
    out["v-values"] = _values_variant()
    return out


def _h(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _lineup_name(lineup: tuple[str, ...]) -> str:
    return ",".join(lineup)


def corpus_items(spec: RuleSpec, players: int, lineup: tuple[str, ...]) -> Iterator[str]:
    """The texts whose hashes make the corpus of one rules file, count and line-up."""
    bots = list(lineup)
    engine = Engine(spec, players)
    for seed in range(MATCHES):
        yield "match " + repr(play_match(engine, make_bots(bots, players, seed), seed))
    for seed in range(100, 100 + RECORDED):
        m = play_match(engine, make_bots(bots, players, seed), seed, record=True)
        yield "recorded " + repr(m)
        rec = match_record(spec, m, seed=seed, bots=bots)
        rec["rules"] = {"id": spec.id}  # not the file's path and hash: they vary by checkout
        yield "record " + record_json(rec)
    checked = Engine(spec, players, check_invariants=True)
    for seed in range(200, 200 + CHECKED):
        yield "checked " + repr(play_match(checked, make_bots(bots, players, seed), seed))
    for r in simulate_rounds(spec, players, 7, ROUNDS, bots=bots):
        yield "sim " + repr(r)
    rng = random.Random(31)
    seats = make_bots(bots, players, 31)
    for k in range(DIRECT):
        r = engine.play_round(rng, seats, round_no=1 + k % 3, prev_starter=k % players)
        probes = [rng.getrandbits(32)] + [p.rng.getrandbits(32) for p in seats]  # type: ignore[attr-defined]
        yield f"direct {r!r} {probes}"


def corpus_hash(spec: RuleSpec, players: int, lineup: tuple[str, ...]) -> str:
    h = hashlib.sha256()
    for text in corpus_items(spec, players, lineup):
        h.update(_h(text).encode())
    return h.hexdigest()


def cases() -> list[tuple[str, int]]:
    return [(name, n) for name, s in specs().items() for n in s.player_counts]


def _key(name: str, players: int, lineup: tuple[str, ...]) -> str:
    return f"{name}/{players}/{_lineup_name(lineup)}"


def compute(progress: Callable[[str], None] | None = None) -> dict[str, str]:
    out = {}
    all_specs = specs()
    for name, n in cases():
        for lineup in LINEUPS:
            key = _key(name, n, lineup)
            out[key] = corpus_hash(all_specs[name], n, lineup)
            if progress:
                progress(key)
    return out


def play_params(spec: RuleSpec) -> str:
    """A hash of the parameters that decide play (not the texts) of ``spec``."""
    data = spec.params.model_dump(mode="json")
    for key in ("name", "summary", "source", "clause", "note", "aliases"):
        data.pop(key, None)
    return _h(json.dumps(data, sort_keys=True))


def _golden() -> dict[str, str]:
    data: dict[str, str] = json.loads(GOLDEN.read_text())["hashes"]
    return data


_SPECS = specs()


@pytest.mark.parametrize(("name", "players"), cases())
def test_results_match_the_golden_corpus(name: str, players: int) -> None:
    params = json.loads(GOLDEN.read_text())["params"]
    assert params[name] == play_params(_SPECS[name]), (
        f"the rules of {name} changed since the corpus was written: if that is meant, "
        "regenerate it with --write"
    )
    golden = _golden()
    wrong = []
    for lineup in LINEUPS:
        key = _key(name, players, lineup)
        if corpus_hash(_SPECS[name], players, lineup) != golden[key]:
            wrong.append(key)
    assert not wrong, f"results changed for {wrong}"


def test_golden_corpus_covers_every_case() -> None:
    keys = {_key(name, n, lineup) for name, n in cases() for lineup in LINEUPS}
    golden = _golden()
    assert keys == set(golden)
    # every case plays its own games, except greedy bots under play_drawn = "may":
    # greedy never passes on a drawn tile, so those play as under "must"
    seen: dict[str, str] = {}
    for key, value in sorted(golden.items()):
        other = seen.setdefault(value, key)
        if other != key:
            allowed = key.endswith("/greedy") and "may" in key + other
            assert allowed, f"{key} plays the same games as {other}"


def test_corpus_hash_sees_a_changed_result() -> None:
    """The hash depends on every field: one changed number gives another hash."""
    spec = _SPECS["block-classic"]
    engine = Engine(spec, 2)
    m = play_match(engine, make_bots(["random"], 2, 0), 0)
    before = _h(repr(m))
    m.rounds[0].turns += 1
    assert _h(repr(m)) != before


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
        _SPECS[name],
        _SPECS[name].with_changes({"deal.hand_size": {2: 14, 3: 9, 4: 7}}),
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
        compile_tables(_SPECS[name], n)
        for name in ("block-classic", "partnership")
        for n in _SPECS[name].player_counts
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
    spec = _SPECS["anchor-openspiel"]
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


def main(argv: list[str]) -> int:
    """``--write``: compute and store the corpus; ``--check``: compare with it."""
    if "--write" in argv:
        out = {
            "about": "sha256 per rules/players/bots of the engine's results; see "
            "tests/engine/test_speed_equivalence.py",
            "sizes": {
                "matches": MATCHES,
                "recorded": RECORDED,
                "checked": CHECKED,
                "rounds": ROUNDS,
                "direct": DIRECT,
            },
            "params": {name: play_params(spec) for name, spec in specs().items()},
            "hashes": compute(lambda key: print(key, file=sys.stderr)),
        }
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(out, indent=1) + "\n")
        return 0
    if "--check" in argv:
        golden = _golden()
        got = compute()
        wrong = [k for k in golden if got.get(k) != golden[k]]
        print(f"{len(golden) - len(wrong)} of {len(golden)} cases identical")
        for k in wrong:
            print("CHANGED", k)
        return 1 if wrong else 0
    print("usage: test_speed_equivalence.py --write | --check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
