"""Write a scenario file for each round-level clause id that has none (run by hand).

For each clause id, plays seeded rounds of the bundled rules files with greedy and
random bots and keeps the shortest round in which the clause decided something; writes
its deal, actions, end and points to ``scenarios/<clause>.toml``. Read every file it
writes before committing it: the scenario tests then hold the kernel to them.

Run: ``.venv/bin/python tests/engine/make_scenarios.py``
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from deckgen.engine import Engine, RoundResult, make_bots
from deckgen.rulespec import RuleSpec, list_rules

HERE = Path(__file__).resolve().parent / "scenarios"
ROUND_CLAUSES = [
    "setup.deal", "setup.rest", "setup.teams", "setup.redeal", "start.first",
    "start.no_double", "start.later", "lead.any", "lead.double", "lead.turned_up",
    "play.match", "play.doubles", "play.draw", "play.draw_limit", "play.play_drawn",
    "play.pass", "end.out", "end.blocked", "score.out", "score.blocked", "score.tie",
    "score.bonus", "score.bands",
]  # fmt: skip


def _t(spec: RuleSpec, i: int) -> str:
    return str(spec.dset.tiles[i])


def _describe(spec: RuleSpec, kind: str, seat: int, tile: int, value: int) -> str:
    if kind == "pass":
        return f"{seat} passes"
    if kind == "draw":
        return f"{seat} draws {_t(spec, tile)}"
    if kind == "lead":
        return f"{seat} leads {_t(spec, tile)}"
    return f"{seat} plays {_t(spec, tile)} on {value}"


def _q(items: list[str]) -> str:
    return "[" + ", ".join(f'"{x}"' for x in items) + "]"


def write(clause: str, spec: RuleSpec, n: int, seed: int, later: bool, r: RoundResult) -> str:
    assert r.deal is not None
    assert r.actions is not None
    lines = [
        f"# The shortest seeded round of {spec.id} ({n} players) where {clause} decided",
        "# something; written by tests/engine/make_scenarios.py from the kernel, then read.",
        f'clause = "{clause}"',
        f'rules = "{spec.id}"',
        f"players = {n}",
    ]
    if later:
        lines.append("round_no = 2\nprev_starter = 0\nprev_winner = 0")
    seeded = r.redeals > 0
    if seeded:
        lines.append(f"seed = {seed}  # the deal comes from random.Random(seed): it is redealt")
    lines.append("")
    if not seeded:
        lines.append("[deal]")
        lines.append("hands = [")
        lines += [f"  {_q([_t(spec, i) for i in h])}," for h in r.deal.hands]
        lines.append("]")
        lines.append(f"stock = {_q([_t(spec, i) for i in r.deal.stock])}")
        if r.deal.dead:
            lines.append(f"dead = {_q([_t(spec, i) for i in r.deal.dead])}")
        lines.append("")
    lines.append("[expect]")
    if r.turned_up >= 0:
        lines.append(f'turned_up = "{_t(spec, r.turned_up)}"')
    lines.append(f"starter = {r.starter}")
    lines.append("actions = [")
    lines += [f'  "{_describe(spec, a.kind, a.seat, a.tile, a.value)}",' for a in r.actions]
    lines.append("]")
    lines.append(f'end = "{r.end}"')
    lines.append(f"points = {list(r.points)}")
    lines.append(f'clauses = ["{clause}"]')
    return "\n".join(lines) + "\n"


def main() -> int:
    have = {p.stem.split("-")[0] for p in HERE.glob("*.toml")}
    specs = list_rules()
    for clause in ROUND_CLAUSES:
        if clause in have:
            continue
        best: tuple[int, str] | None = None
        for spec in specs:
            if clause not in spec.clause_ids():
                continue
            for n in spec.player_counts:
                engine = Engine(spec, n)
                for seed in range(150):
                    later = clause == "start.later"
                    bots = make_bots(["greedy", "random"][seed % 2 :], n, seed)
                    r = engine.play_round(
                        random.Random(seed),
                        bots,
                        record=True,
                        **({"round_no": 2, "prev_starter": 0, "prev_winner": 0} if later else {}),  # type: ignore[arg-type]
                    )
                    redealt = r.redeals > 0 and clause not in ("setup.redeal", "start.no_double")
                    if clause in r.clauses and r.actions is not None and not redealt:
                        size = len(r.actions)
                        if best is None or size < best[0]:
                            best = (size, write(clause, spec, n, seed, later, r))
        if best is None:
            print(f"{clause}: no round found", file=sys.stderr)
            continue
        (HERE / f"{clause}.toml").write_text(best[1])
        print(f"{clause}: {best[0]} actions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
