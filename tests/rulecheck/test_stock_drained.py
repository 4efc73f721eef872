"""``stock_drained`` of the station games (Mexican Train, Chicken Foot) against the kernel.

The station double costs the stock one tile before anyone draws (taken out of it, or a
hand that set it out takes the stock's top tile instead), so a round can draw one tile
fewer than the stock holds after the deal. The check counted a round as draining the
stock only when it drew the whole deal's stock, which never happens: it said 0.0000 at
every player count. Here the rounds in which the stock is drawn empty are counted on
the kernel's own rounds (the stock left when each round ends) and the check's figure
must agree within sampling error.
"""

from __future__ import annotations

import random

import pytest

from deckgen.engine import Engine
from deckgen.engine.players import RandomBot
from deckgen.engine.setup import RoundStart
from deckgen.rulecheck.check import CheckOptions, run_check
from deckgen.rulecheck.report import build_report
from deckgen.rulespec import load_rules


def _kernel_share(rules: str, players: int, matches: int) -> tuple[float, int]:
    """Share of the kernel's rounds (whole matches, random bots) that end with the
    stock drawn empty."""
    spec = load_rules(rules)
    engine = Engine(spec, players)
    per = spec.params.match.rounds or 1
    drained = rounds = 0
    for m in range(matches):
        rng = random.Random(f"drained:{m}")
        bots = [RandomBot(random.Random(f"bot:{m}:{s}")) for s in range(players)]
        prev = -1
        for k in range(1, per + 1):
            state = engine.start_round(rng, start=RoundStart(round_no=k, prev_starter=prev))
            prev = state.setup.starter
            totals = (0,) * len(state.t.sides)
            while not state.is_over:
                moves = state.legal_moves()
                state.step(bots[state.seat].choose(state.view(totals), moves))
            rounds += 1
            drained += not state.stock
    return drained / rounds, rounds


@pytest.mark.parametrize(("rules", "players"), [("mexican-train", 2), ("chicken-foot", 2)])
def test_stock_drained_agrees_with_the_kernel(rules: str, players: int) -> None:
    kernel, n = _kernel_share(rules, players, 40)
    assert n == 40 * (load_rules(rules).params.match.rounds or 1)
    assert kernel > 0.2  # the stock really is drawn empty in many rounds
    result = run_check(load_rules(rules), CheckOptions(rounds=3000, players=(players,), workers=1))
    st = build_report(result)["players"][str(players)]["stats"]
    share = st["stock_drained"]["share"]
    assert abs(share - kernel) < 0.1, (
        f"{rules}: the check says {share:.3f} of rounds drain the stock, the kernel's "
        f"rounds {kernel:.3f}"
    )
