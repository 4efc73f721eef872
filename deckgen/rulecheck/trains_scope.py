"""Which train and chicken-foot rules files the compiled fast path plays.

Takes a rules file, the seats' bots and the player count; gives the reason the compiled
engine (:mod:`deckgen.rulecheck.jit_trains`) cannot play it, or None. Apart from the
engine so that :func:`deckgen.rulecheck.fastline.unsupported` can ask without importing
it (and numba).
"""

from __future__ import annotations

from deckgen.rulecheck.jit import HAVE_JIT
from deckgen.rulespec import RuleSpec

SHAPES = ("trains", "chicken_foot")
"""The layouts the compiled engine plays, by their code in its ``cfg``."""

MAX_TILES = 128
"""Hands are two 64-bit words."""

BOTS = ("random", "greedy")


def unsupported(spec: RuleSpec, bots: tuple[str, ...], players: int) -> str | None:
    """Why this engine cannot play the rules file with these bots (None: it can)."""
    p = spec.params
    if p.board.shape not in SHAPES:
        return "not a train or chicken-foot layout"
    if not HAVE_JIT:
        return "numba is not installed (the kernel plays the trains and feet)"
    if len(spec.dset) > MAX_TILES:
        return f"more than {MAX_TILES} tiles"
    if p.opening.lead != "station" or p.opening.first_starter != "seat":
        return "the round does not start from the station double with seat 0"
    if p.opening.later_starter == "round_winner":
        return "later rounds start with the previous winner"
    if p.deal.rest != "stock" or p.deal.redeal_doubles:
        return "no stock, or deals thrown in"
    if p.turn.play_drawn != "must":
        return "a drawn tile may be kept"
    sc = p.scoring
    if sc.method != "penalty" or sc.round_to is not None or sc.ends_multiple is not None:
        return "scoring other than penalty points"
    if p.match.end != "rounds" or p.match.tie == "play_on":
        return "a match to a target score or played on after a tie"
    for b in bots:
        if b not in BOTS:
            return f"the bot '{b}' has no fast version"
    return None
