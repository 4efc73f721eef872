"""The skill ladder: how much does playing well matter in this game?

Takes a :class:`~deckgen.rulespec.RuleSpec`, a player count and a number of rounds;
gives a JSON-ready dict: for every pairing of the bots ``random``, ``greedy``,
``smart`` and ``pimc`` (weakest first), how often the stronger bot's side wins a round
against sides played by the weaker one, with a 95 % Wilson interval and the fair share
(what it would win if skill did not matter: the rounds with a single winner shared
equally among the sides), and its mean points margin per round (its side's points
minus the mean of the other sides'). Each deal is played once per side, that side taking the
stronger bot, so the cards favour nobody. First rounds of a match, scored as the rules
file scores them; ``pimc`` thinks with :data:`LADDER_WORLDS` worlds to stay cheap.

:func:`ladder_markdown` and :func:`ladder_summary` render it for the Markdown report
and the terminal.
"""

from __future__ import annotations

import random
import time
from typing import Any

from deckgen.engine import Engine, make_bots
from deckgen.engine.players import Player
from deckgen.rulecheck.stats import wilson
from deckgen.rulespec import RuleSpec

LADDER_BOTS = ("random", "greedy", "smart", "pimc")
LADDER_WORLDS = 30
"""Worlds per decision of ``pimc`` in the ladder (its default is 100)."""
LADDER_ROUNDS = 100
"""Rounds per pairing by default."""
MAX_LADDER_ROUNDS = 100_000


def _bot(name: str, worlds: int) -> str:
    return f"pimc:worlds={worlds}" if name == "pimc" else name


def run_ladder(
    spec: RuleSpec, players: int, *, rounds: int = LADDER_ROUNDS, seed: int = 0,
    worlds: int = LADDER_WORLDS,
) -> dict[str, Any]:  # fmt: skip
    """Play every pairing of :data:`LADDER_BOTS` for ``rounds`` rounds each."""
    engine = Engine(spec, players)
    sides = engine.t.sides
    ns = len(sides)
    start = time.perf_counter()
    pairings: list[dict[str, Any]] = []
    for hi in range(len(LADDER_BOTS) - 1, 0, -1):
        for lo in range(hi):
            strong, weak = LADDER_BOTS[hi], LADDER_BOTS[lo]
            wins = decided = 0
            margin = 0.0
            for r in range(rounds):
                deal, hero = divmod(r, ns)
                names = [weak] * players
                for seat in sides[hero]:
                    names[seat] = _bot(strong, worlds)
                bots: list[Player] = make_bots(names, players, seed * 1_000_003 + deal)
                res = engine.play_round(random.Random(f"ladder:{seed}:{deal}"), bots)
                pts = res.points
                margin += pts[hero] - (sum(pts) - pts[hero]) / max(ns - 1, 1)
                if len(res.winners) == 1:
                    decided += 1
                    wins += res.winners[0] == hero
            low, high = wilson(wins, rounds)
            pairings.append(
                {
                    "bot": strong,
                    "against": weak,
                    "rounds": rounds,
                    "wins": wins,
                    "share": wins / rounds,
                    "ci95": [low, high],
                    "fair_share": decided / rounds / ns,
                    "stronger": low > decided / rounds / ns,
                    "margin": margin / rounds,
                }
            )
    top = pairings[0]  # pimc against random
    return {
        "bots": list(LADDER_BOTS),
        "pimc_worlds": worlds,
        "rounds_per_pairing": rounds,
        "sides": ns,
        "pairings": pairings,
        "skill_gap": top["share"] - top["fair_share"],
        "seconds": round(time.perf_counter() - start, 3),
    }


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def ladder_markdown(key: str, ladder: dict[str, Any]) -> list[str]:
    """The ladder of one player count as a Markdown section."""
    out = [
        f"### Skill ladder, {key} players",
        "",
        f"How much playing well matters: each bot's side against sides played by a "
        f"weaker bot, {ladder['rounds_per_pairing']:,} rounds per pairing (every deal "
        f"played once per side; pimc with {ladder['pimc_worlds']} worlds). The fair share "
        f"is what a side would win if skill did not matter; the margin is its points per "
        f"round minus the other sides' mean.",
        "",
        "| bot | against | wins | share [95 %] | fair share | margin |",
        "| --- | --- | ---: | --- | ---: | ---: |",
    ]
    for p in ladder["pairings"]:
        low, high = p["ci95"]
        mark = " (better)" if p["stronger"] else ""
        out.append(
            f"| {p['bot']} | {p['against']} | {p['wins']:,} of {p['rounds']:,} | "
            f"{_pct(p['share'])} [{_pct(low)}, {_pct(high)}]{mark} | {_pct(p['fair_share'])} | "
            f"{p['margin']:+.1f} |"
        )
    out += ["", ladder_headline(ladder), ""]
    return out


def ladder_headline(ladder: dict[str, Any]) -> str:
    top = ladder["pairings"][0]
    low, high = top["ci95"]
    return (
        f"Skill gap: {top['bot']} wins {_pct(top['share'])} [{_pct(low)}, {_pct(high)}] of "
        f"rounds against {top['against']}, where an equal player would win "
        f"{_pct(top['fair_share'])}."
    )


def ladder_summary(report: dict[str, Any]) -> list[str]:
    """Terminal lines: the skill gap per player count (empty without a ladder)."""
    lines = []
    for key, sec in report["players"].items():
        ladder = sec.get("skill_ladder")
        if ladder:
            lines.append(f"  {key} players, skill ladder: {ladder_headline(ladder)}")
    return lines


def add_ladder(report: dict[str, Any], spec: RuleSpec, rounds: int, seed: int) -> None:
    """Put a ladder into every player-count section of ``report`` (``skill_ladder``)."""
    for key, sec in report["players"].items():
        sec["skill_ladder"] = run_ladder(spec, int(key), rounds=rounds, seed=seed)
