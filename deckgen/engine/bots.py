"""The bots by name: the registry ``--bots`` reads, and the bots of a match's seats.

Apart from :mod:`deckgen.engine.players` (what a player is, and the simple bots) so that
the strong ``pimc`` bot, which plays rounds out on the kernel's state, can be listed
here without an import cycle.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from deckgen.engine.pimc import PimcBot, parse_options
from deckgen.engine.players import GreedyBot, Player, RandomBot, SmartBot
from deckgen.errors import InputError, did_you_mean

BotFactory = Callable[[random.Random, str], Player]
"""Makes a bot from its random stream and the options after its name (``pimc:worlds=50``)."""


T = TypeVar("T")


def _pimc(rng: random.Random, options: str) -> Player:
    return PimcBot(rng, parse_options(options))


def _plain(cls: type[RandomBot] | type[GreedyBot] | type[SmartBot]) -> BotFactory:
    def make(rng: random.Random, options: str) -> Player:
        if options:
            raise InputError(
                f"bot '{cls.name}' takes no options (got ':{options}')",
                where="option --bots",
                fix=f"write just '{cls.name}'",
            )
        return cls(rng)

    return make


BOTS: dict[str, BotFactory] = {
    "random": _plain(RandomBot),
    "greedy": _plain(GreedyBot),
    "smart": _plain(SmartBot),
    "pimc": _pimc,
}
"""Every bot by name, weakest first."""


def bot_rng(seed: int, seat: int) -> random.Random:
    """The random stream of the bot in ``seat`` for a match seeded with ``seed``."""
    return random.Random(f"deckgen-bot:{seed}:{seat}")


def per_seat(lineup: Sequence[T], players: int) -> list[T]:
    """Each seat's entry of a line-up (``lineup`` not empty): a line-up shorter than the
    table repeats its last entry for the remaining seats."""
    return [lineup[min(seat, len(lineup) - 1)] for seat in range(players)]


def make_bots(names: Sequence[str], players: int, seed: int) -> list[Player]:
    """Bots for every seat from names (:func:`per_seat`)."""
    if not names:
        names = ["random"]
    out: list[Player] = []
    for seat, given in enumerate(per_seat(names, players)):
        name, _, options = given.strip().lower().partition(":")
        if name not in BOTS:
            hint = did_you_mean(name, BOTS)
            raise InputError(
                f"unknown bot '{name}'" + (f"; {hint}" if hint else ""),
                where="option --bots",
                fix="use a comma-separated list of " + ", ".join(BOTS),
            )
        out.append(BOTS[name](bot_rng(seed, seat), options))
    return out
