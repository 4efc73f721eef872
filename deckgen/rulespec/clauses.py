"""The clause ids the engine knows: which rule decided what, and which ones a file needs.

Every rule the engine can apply has a fixed id (``score.tie``, ``end.reserve``, ...).
A rules file states each applicable one as a ``[[clause]]`` with text in German and
English; the engine reports, per round, the ids that decided something (for the rules
check's coverage counts) and *gaps*: situations whose rule the file leaves open.

Takes a :class:`~deckgen.rulespec.model.RulesFile`; gives the ids it must state.
Clause ids outside :data:`ENGINE_CLAUSES` are free text (the aim, table manners) and
never decide anything.
"""

from __future__ import annotations

from collections.abc import Callable

from deckgen.rulespec.model import RulesFile

_Pred = Callable[[RulesFile], bool]


def _always(_: RulesFile) -> bool:
    return True


def _draws(r: RulesFile) -> bool:
    return r.turn.draw != "none" and r.deal.rest == "stock"


def _reserve(r: RulesFile) -> bool:
    return _draws(r) and r.deal.stock_reserve > 0


def _blocked(r: RulesFile) -> bool:
    return not _reserve(r)


def _double_start(r: RulesFile) -> bool:
    return r.opening.first_starter != "seat"


def _ties_possible(r: RulesFile) -> bool:
    return r.scoring.method != "penalty"


ENGINE_CLAUSES: dict[str, tuple[str, str, _Pred]] = {
    # id: (section, what it decides, when a file must state it)
    "setup.deal": ("setup", "how many tiles each player gets", _always),
    "setup.rest": ("setup", "what happens to the undealt tiles", _always),
    "setup.teams": ("setup", "who plays with whom", lambda r: r.players.teams != "none"),
    "setup.redeal": (
        "setup",
        "when a deal is shuffled and dealt again",
        lambda r: r.deal.redeal_doubles is not None,
    ),
    "start.first": ("play", "who starts the first round", _always),
    "start.no_double": (
        "play",
        "who starts when nobody holds the double the starter rule asks for",
        lambda r: r.opening.no_double is not None,
    ),
    "start.later": (
        "play",
        "who starts the later rounds",
        lambda r: r.opening.later_starter is not None,
    ),
    "lead.any": (
        "play",
        "the starter leads any tile",
        lambda r: r.opening.lead == "any" or r.opening.later_lead == "any",
    ),
    "lead.double": (
        "play",
        "the starter leads the double that made him starter",
        lambda r: r.opening.lead == "starter_double",
    ),
    "lead.turned_up": (
        "play",
        "a tile of the stock is turned up as the first tile",
        lambda r: r.opening.lead == "turned_up",
    ),
    "lead.skip_double": (
        "play",
        "a double turned up is passed over",
        lambda r: r.opening.lead == "turned_up" and r.opening.turned_up_doubles == "skip",
    ),
    "lead.station": (
        "play",
        "the round's station double is set in the middle",
        lambda r: r.opening.lead == "station",
    ),
    "play.open_train": (
        "play",
        "a player who passes marks their train open to everyone",
        lambda r: r.board.shape == "trains",
    ),
    "play.satisfy_double": (
        "play",
        "a double must be covered before any other play",
        lambda r: r.board.shape == "trains",
    ),
    "play.chicken_foot": (
        "play",
        "the centre double's arms and every double's foot come before other play",
        lambda r: r.board.shape == "chicken_foot",
    ),
    "play.match": ("play", "a tile is placed so that touching halves match", _always),
    "play.doubles": ("play", "how a double is placed", _always),
    "play.draw": ("play", "a player who cannot play draws", _draws),
    "play.draw_limit": (
        "play",
        "how many tiles a player may draw in one turn",
        lambda r: _draws(r) and r.turn.draw == "limited",
    ),
    "play.play_drawn": ("play", "a playable drawn tile is played", _draws),
    "play.pass": ("play", "a player who cannot play passes", _always),
    "end.out": ("scoring", "the round ends when a player has played all tiles", _always),
    "end.blocked": ("scoring", "the round ends when nobody can play", _blocked),
    "end.reserve": (
        "scoring",
        "the round ends when only the reserve is left and the player to move cannot play",
        _reserve,
    ),
    "score.out": ("scoring", "how a round won by going out is scored", _always),
    "score.blocked": ("scoring", "how a round that ends without anyone out is scored", _always),
    "score.tie": ("scoring", "a tie for the lowest hand", lambda r: r.scoring.tie is not None),
    "score.bonus": ("scoring", "the bonus for going out", lambda r: r.scoring.out_bonus > 0),
    "score.bands": ("scoring", "points by bands of pips", lambda r: r.scoring.bands is not None),
    "score.values": (
        "scoring",
        "tiles with a special value",
        lambda r: bool(r.scoring.tile_values),
    ),
    "score.ends": (
        "play",
        "points scored during play when the open ends add up to a multiple",
        lambda r: r.scoring.ends_multiple is not None,
    ),
    "score.rounding": (
        "scoring",
        "a round's points are rounded to a multiple",
        lambda r: r.scoring.round_to is not None,
    ),
    "match.end": ("game_end", "when the match ends and who wins it", _always),
    "match.tie": ("game_end", "a tie at the end of the match", lambda r: r.match.tie is not None),
    "match.several_at_target": (
        "game_end",
        "several sides reach the target in the same round",
        lambda r: r.match.several_at_target is not None,
    ),
}
"""Every clause id the engine can report as deciding something."""

GAP_SITUATIONS: dict[str, str] = {
    "score.tie": "two or more hands tie for the lowest count and the file has no tie rule; "
    "fallback: nobody scores the round",
    "match.tie": "the match ends with equal best totals (or several players pass the "
    "target in the same round with equal totals) and the file has no tie rule; "
    "fallback: a shared win",
    "match.several_at_target": "several sides reach the target score in the same round "
    "and the file does not say who wins; fallback: the highest total wins",
    "start.no_double": "the starter rule asks for a double that nobody holds and the file "
    "gives no fallback; fallback: the holder of the heaviest tile starts",
    "start.later": "a later round starts and the file does not say who starts it; "
    "fallback: the first-round rule again",
    "setup.redeal_limit": "the deal was redealt 100 times in a row; fallback: the last "
    "deal is played",
    "lead.no_tile": "the stock holds no tile that may be turned up; fallback: the "
    "starter leads any tile",
    "match.round_limit": "the match did not end within 1000 rounds; fallback: it ends "
    "with the totals so far",
}
"""Situations the engine may meet that a rules file can leave open, with the neutral
fallback the engine then applies (and records as a gap)."""


def required_clause_ids(rules: RulesFile) -> list[str]:
    """The engine clause ids this file must state, in vocabulary order."""
    return [cid for cid, (_, _, pred) in ENGINE_CLAUSES.items() if pred(rules)]


def is_engine_clause(clause_id: str) -> bool:
    return clause_id in ENGINE_CLAUSES


CLAUSE_PARAMS: dict[str, tuple[str, ...]] = {
    "setup.deal": ("deal.hand_size",),
    "setup.rest": ("deal.rest", "deal.stock_reserve"),
    "setup.teams": ("players.teams",),
    "setup.redeal": ("deal.redeal_doubles",),
    "start.first": ("opening.first_starter", "opening.required_double"),
    "start.no_double": ("opening.no_double",),
    "start.later": ("opening.later_starter",),
    "lead.any": ("opening.lead", "opening.later_lead"),
    "lead.double": ("opening.lead",),
    "lead.turned_up": ("opening.lead",),
    "lead.skip_double": ("opening.turned_up_doubles",),
    "play.match": ("board.shape",),
    "play.doubles": ("board.shape",),
    "play.draw": ("turn.draw", "deal.rest"),
    "play.draw_limit": ("turn.draw", "turn.draw_limit"),
    "play.play_drawn": ("turn.play_drawn",),
    "play.pass": ("turn.draw",),
    "end.out": (),
    "end.blocked": ("turn.draw", "deal.stock_reserve"),
    "end.reserve": ("deal.stock_reserve",),
    "score.out": ("scoring.method", "scoring.out_points", "scoring.out_bonus"),
    "score.blocked": ("scoring.method", "scoring.blocked_points"),
    "score.tie": ("scoring.tie",),
    "score.bonus": ("scoring.out_bonus",),
    "score.bands": ("scoring.bands",),
    "score.values": ("scoring.tile_values",),
    "match.end": ("match.end", "match.rounds", "match.target"),
    "match.tie": ("match.tie",),
    "match.several_at_target": ("match.several_at_target",),
}
"""The parameters each engine clause depends on (``section.key`` of the rules file): a
clause's text must agree with their values. The rules check compares them with the
words a text uses (:data:`VALUE_WORDS`) and with a clause's ``written_for``."""

VALUE_WORDS: dict[str, dict[str, dict[str, tuple[str, ...]]]] = {
    "board.shape": {
        "line": {"en": (), "de": ()},
        "spinner": {
            "en": ("spinner", "two new directions", "short side"),
            "de": ("spinner", "zwei neue richtungen", "schmalseite"),
        },
        "cross_doubles": {
            "en": ("two new directions", "short side"),
            "de": ("zwei neue richtungen", "schmalseite"),
        },
    },
    "turn.draw": {
        "none": {"en": (), "de": ()},
        "until_playable": {
            "en": ("until one fits", "until a tile fits", "until it fits", "until one can"),
            "de": ("bis einer passt", "bis ein stein passt", "bis er passt"),
        },
        "limited": {"en": ("at most",), "de": ("höchstens",)},
    },
    "turn.play_drawn": {
        "must": {
            "en": ("must be laid", "must be played", "must lay", "must play",
                   "has to be laid", "has to be played", "have to lay", "have to play"),
            "de": ("muss",),
        },
        "may": {
            "en": ("may be laid", "may be played", "may lay", "may play", "need not",
                   "does not have to", "do not have to", "may keep"),
            "de": ("darf", "muss aber nicht", "muss nicht", "nicht muss", "behalten"),
        },
    },
    "scoring.tie": {
        "nobody_scores": {
            "en": ("nobody scores", "no one scores", "neither scores", "none of them scores",
                   "score nothing", "scores nothing"),
            "de": ("niemand punkte", "punktet niemand", "bekommt niemand", "keiner punkte",
                   "punktet keiner", "bekommt keiner", "keines punkte", "bekommt keines"),
        },
        "all_lowest_score": {
            "en": ("they all score", "all of them score", "each of them scores", "both score",
                   "each scores", "win the round together"),
            "de": ("punkten alle", "alle punkten", "punkten beide", "beide punkten",
                   "bekommen alle", "bekommt jeder von ihnen", "gewinnen sie die runde gemeinsam"),
        },
    },
}  # fmt: skip
"""Words (lower case) by which a clause text names a parameter's value: a clause that
depends on the parameter and uses words of another value than the file's (and none of
the file's own value) was written for other rules. For the keys of
:data:`WHOLE_WORD_KEYS` a word matches whole words only, and a text that also uses a
word of the file's own value is left alone ("darf man anlegen, muss aber nicht" is a
may). The summary is read for the keys of :data:`SUMMARY_VALUE_KEYS`."""

WHOLE_WORD_KEYS: tuple[str, ...] = ("turn.play_drawn", "scoring.tie")

SUMMARY_VALUE_KEYS: tuple[str, ...] = ("board.shape", "turn.draw", "scoring.tie")
"""The parameters whose :data:`VALUE_WORDS` are read in the summary too (the board, the
draw, the tie): words that name the value wherever they stand. ``turn.play_drawn`` is
not among them: German "muss" and "darf" name it only in its own clause (a summary's
"muss ziehen" is about drawing)."""

NUMERIC_PARAMS: dict[str, str] = {
    "turn.draw_limit": "draw_limit",
    "deal.stock_reserve": "reserve",
    "match.target": "target",
    "match.rounds": "rounds",
}
"""Numeric parameters and their placeholder: a clause depending on one should use the
placeholder, or a number equal to the file's value."""
