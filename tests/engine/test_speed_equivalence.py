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
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from deckgen.engine import Engine, make_bots, play_match, simulate_rounds
from deckgen.engine.record import match_record, record_json
from deckgen.rulespec import RuleSpec, list_rules, load_rules, rules_from_data

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
