"""deckgen: print-ready custom domino card decks, rule booklets, and a rules engine.

The public face, in a few names (each loads its pillar on first use, so ``import
deckgen`` stays light and imports neither reportlab nor WeasyPrint):

- :func:`build_deck`: a deck file in, everything ``deckgen deck build`` writes out;
- :func:`load_rules`, :func:`play_match`, :func:`new_round` (a round stepped move by
  move), :func:`check_rules`: the rules engine and the rules check;
- :func:`make_booklet`, :func:`make_demo`;
- :class:`DeckgenError`: every mistake a user can make (exit code 2 on the CLI).

>>> import deckgen
>>> match = deckgen.play_match("two-player", seed=7)
>>> match.totals == match.result.totals and len(match.winners) >= 1
True

Everything else is reached through its pillar (``deckgen.deck``, ``deckgen.engine``,
``deckgen.rulecheck``, ``deckgen.booklet``) and may change between versions.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from deckgen.errors import DeckgenError

if TYPE_CHECKING:
    from deckgen.api.booklets import BookletOptions, make_booklet
    from deckgen.api.checks import CheckSettings, RulesCheck, check_rules
    from deckgen.api.decks import DeckBuild, DeckOptions, build_deck
    from deckgen.api.games import Match, load_rules, play_match
    from deckgen.api.rounds import RoundSteps, new_round
    from deckgen.demo import make_demo
    from deckgen.progress import Reporter
    from deckgen.rulespec import RuleSpec

_LAZY: dict[str, str] = {
    "build_deck": "deckgen.api.decks",
    "DeckBuild": "deckgen.api.decks",
    "DeckOptions": "deckgen.api.decks",
    "load_rules": "deckgen.api.games",
    "play_match": "deckgen.api.games",
    "Match": "deckgen.api.games",
    "new_round": "deckgen.api.rounds",
    "RoundSteps": "deckgen.api.rounds",
    "check_rules": "deckgen.api.checks",
    "CheckSettings": "deckgen.api.checks",
    "RulesCheck": "deckgen.api.checks",
    "make_booklet": "deckgen.api.booklets",
    "BookletOptions": "deckgen.api.booklets",
    "make_demo": "deckgen.demo",
    "Reporter": "deckgen.progress",
    "RuleSpec": "deckgen.rulespec",
}

__all__ = [
    "BookletOptions",
    "CheckSettings",
    "DeckBuild",
    "DeckOptions",
    "DeckgenError",
    "Match",
    "Reporter",
    "RoundSteps",
    "RuleSpec",
    "RulesCheck",
    "__version__",
    "build_deck",
    "check_rules",
    "load_rules",
    "make_booklet",
    "make_demo",
    "new_round",
    "play_match",
]


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use (PEP 562)."""
    if name == "__version__":  # package metadata: read on first use (about 20 ms)
        globals()[name] = _version()
        return globals()[name]
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'deckgen' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("deckgen")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0.0.0+source"


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
