"""The rules file as validated data: the pydantic models behind :class:`RuleSpec`.

Takes the parsed TOML of a ``rules/*.toml`` file; gives typed, validated parameters.
Every key is documented in ``docs/rules-format.md``. Parameters the seed text may leave
open (a tie rule, who starts later rounds, what happens when nobody holds a double) are
optional: when a file leaves one out and play needs it, the engine records a *gap*
instead of inventing a rule.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from deckgen.tiles import MAX_SUPPORTED_PIP, Tile

FORMAT_VERSION = 1
"""The rules-file format this code reads (``format = 1`` at the top of the file)."""

LANGS = ("de", "en")

SECTION_IDS = ("aim", "setup", "play", "scoring", "game_end")
"""Rulebook order: aim, setup, play, end of round and scoring, end of game and ties."""

LayoutShape = Literal["line", "spinner", "cross_doubles", "trains", "chicken_foot"]
"""How tiles are laid out: two open ends; a spinner; every double crosswise."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class I18n(_Strict):
    """A text in German and English; both must be given and non-empty."""

    de: str = Field(min_length=1, max_length=4000)
    en: str = Field(min_length=1, max_length=4000)

    def get(self, lang: str) -> str:
        if lang == "de":
            return self.de
        if lang == "en":
            return self.en
        raise ValueError(f"unknown language '{lang}'; use one of {', '.join(LANGS)}")


class Players(_Strict):
    """How many may play, in teams or not, and which way the turn passes."""

    counts: list[int] = Field(min_length=1)
    teams: Literal["none", "opposite", "opposite_at_4"] = "none"
    """``opposite``: four players, partners sit opposite (seats 0+2 against 1+3);
    ``opposite_at_4``: the same with four players, while two or three play alone."""
    direction: Literal["clockwise", "counterclockwise"] = "clockwise"

    @field_validator("counts")
    @classmethod
    def _counts(cls, v: list[int]) -> list[int]:
        if any(not 2 <= n <= 8 for n in v):
            raise ValueError("player counts must be between 2 and 8")
        if len(set(v)) != len(v) or v != sorted(v):
            raise ValueError("list each player count once, in increasing order")
        return v

    @model_validator(mode="after")
    def _teams(self) -> Players:
        if self.teams == "opposite" and self.counts != [4]:
            raise ValueError("teams = 'opposite' needs exactly four players: counts = [4]")
        if self.teams == "opposite_at_4" and 4 not in self.counts:
            raise ValueError("teams = 'opposite_at_4' needs 4 in counts")
        return self


class Deal(_Strict):
    """How many tiles each player gets, and what happens to the rest."""

    hand_size: dict[int, int]
    """Tiles per player, keyed by the number of players (TOML: ``"2" = 7``)."""
    rest: Literal["stock", "dead"]
    """``stock``: undealt tiles are drawn from; ``dead``: they stay out of play."""
    stock_reserve: int = Field(default=0, ge=0, le=50)
    """Tiles that must stay in the stock: when the player to move cannot play and only
    the reserve is left, the round ends (``end.reserve``)."""
    redeal_doubles: int | None = Field(default=None, ge=2, le=19)
    """A hand dealt with at least this many doubles is shuffled and dealt again."""

    @field_validator("hand_size")
    @classmethod
    def _sizes(cls, v: dict[int, int]) -> dict[int, int]:
        if any(not 1 <= s <= 40 for s in v.values()):
            raise ValueError("a hand holds between 1 and 40 tiles")
        return v


class Opening(_Strict):
    """Who starts a round and what is led."""

    first_starter: Literal["seat", "highest_double", "required_double"]
    """Round 1: ``seat`` (seat 0 starts), ``highest_double`` (holder of the highest
    double), ``required_double`` (holder of the double ``required_double``)."""
    required_double: int | None = Field(default=None, ge=0, le=MAX_SUPPORTED_PIP)
    lead: Literal["any", "starter_double", "turned_up", "station"]
    """``any``: the starter leads any tile; ``starter_double``: the starter must lead the
    double that made him starter; ``turned_up``: a tile of the stock is turned up as the
    first tile and the starter plays onto it; ``station``: the round's station double
    (the highest in round 1, one lower each round) is set in the middle before play
    (``lead.station``; with ``board.shape = "trains"``)."""
    turned_up_doubles: Literal["allowed", "skip"] = "allowed"
    """``skip``: a double turned up is left in the stock and the next tile is turned up."""
    no_double: Literal["heaviest_tile", "redeal"] | None = None
    """When the starter rule needs a double nobody holds (optional: a gap if needed)."""
    later_starter: Literal["same_rule", "next_seat", "round_winner"] | None = None
    """Rounds 2, 3, ...: the first-round rule again, the seat after the previous round's
    starter, or the previous round's winner (optional: a gap if needed)."""
    later_lead: Literal["same", "any"] = "same"
    """What is led in later rounds: as in round 1, or any tile."""

    @model_validator(mode="after")
    def _consistent(self) -> Opening:
        if self.first_starter == "required_double" and self.required_double is None:
            raise ValueError("first_starter = 'required_double' needs required_double = <value>")
        if self.lead == "starter_double" and self.first_starter == "seat":
            raise ValueError("lead = 'starter_double' needs a double starter rule")
        if self.lead == "station" and self.later_lead == "any":
            raise ValueError("later_lead = 'any' cannot follow lead = 'station'")
        if self.lead == "turned_up" and self.later_lead == "any":
            raise ValueError("later_lead = 'any' cannot follow lead = 'turned_up'")
        if (
            self.lead == "starter_double"
            and self.later_lead == "same"
            and self.later_starter in ("next_seat", "round_winner")
        ):
            raise ValueError(
                "a starter chosen by seat or by winning cannot be made to lead his double: "
                "set later_lead = 'any' or later_starter = 'same_rule'"
            )
        return self


class Board(_Strict):
    """The shape of the layout."""

    shape: LayoutShape
    """``line``: two open ends, doubles like any tile; ``spinner``: the first double
    placed lies crosswise and opens two more directions; ``cross_doubles``: every double
    lies crosswise and opens two more directions (its far side and both short sides);
    ``trains``: Mexican Train (a personal train per player from the station double,
    the public Mexican Train, open trains, doubles to satisfy; needs ``lead = "station"``);
    ``chicken_foot``: the station double gets six arms, every later double a foot of
    three toes, before play goes on elsewhere (needs ``lead = "station"``)."""


class Turn(_Strict):
    """Drawing and passing."""

    draw: Literal["none", "until_playable", "limited"]
    draw_limit: int | None = Field(default=None, ge=1, le=40)
    play_drawn: Literal["must", "may"] = "must"
    """Whether a playable tile found by drawing must be played at once."""

    @model_validator(mode="after")
    def _limit(self) -> Turn:
        if (self.draw == "limited") != (self.draw_limit is not None):
            raise ValueError("draw_limit is given exactly when draw = 'limited'")
        return self


class Scoring(_Strict):
    """How a round is scored."""

    method: Literal["winner_takes", "penalty", "lowest_takes_differences"]
    """``winner_takes``: the round's winner (the player or team that went out, else the
    lowest hand) scores the pips left in the others' hands; ``penalty``: everybody loses
    their own hand's pips, a player who goes out gains ``out_bonus``;
    ``lowest_takes_differences``: the lowest hand scores, from each other player, that
    player's pips minus its own."""
    out_bonus: int = Field(default=0, ge=0, le=1000)
    out_points: Literal["others", "all"] = "others"
    """``winner_takes`` after going out: the other sides' pips, or every pip left in
    every other hand (a partner's too)."""
    blocked_points: Literal["others", "all"] = "others"
    """``winner_takes`` after a blocked round: the others' pips or every pip left."""
    bands: int | None = Field(default=None, ge=2, le=100)
    """Points by bands: ``p`` pips give ``p // bands + 1`` points (0-9 -> 1 with 10)."""
    tie: Literal["nobody_scores", "all_lowest_score"] | None = None
    """A tie for the lowest hand (optional: a gap if it happens)."""
    tile_values: dict[str, int] = Field(default_factory=dict)
    """Special values, e.g. ``"0-0" = 25``; other tiles count their pips."""
    ends_multiple: int | None = Field(default=None, ge=2, le=100)
    """Scoring during play (All Fives): after each tile laid, when the open ends add
    up to a multiple of this number, the side that laid it scores that sum at once
    (``score.ends``; see :mod:`deckgen.engine.endcount` for how the ends count)."""
    round_to: int | None = Field(default=None, ge=2, le=100)
    """The points a round's winner scores at its end are rounded to the nearest
    multiple of this number (halves up) (``score.rounding``)."""

    @field_validator("tile_values")
    @classmethod
    def _values(cls, v: dict[str, int]) -> dict[str, int]:
        out: dict[str, int] = {}
        for key, value in v.items():
            tile = Tile.parse(key)
            if not 0 <= value <= 1000:
                raise ValueError(f"the value of {key} must be between 0 and 1000")
            out[str(tile)] = value
        return out


class Match(_Strict):
    """When a match ends and who wins it."""

    end: Literal["rounds", "target"]
    rounds: int | None = Field(default=None, ge=1, le=100)
    target: int | None = Field(default=None, ge=1, le=100000)
    tie: Literal["shared", "play_on"] | None = None
    """Equal best totals at the end: a shared win, or another round until one leads
    (optional: a gap if it happens)."""
    several_at_target: Literal["highest_wins"] | None = None
    """Several sides reach the target in the same round: the highest total wins
    (optional: a gap if it happens)."""

    @model_validator(mode="after")
    def _end(self) -> Match:
        if self.end == "rounds" and self.rounds is None:
            raise ValueError("end = 'rounds' needs rounds = <number>")
        if self.end == "target" and self.target is None:
            raise ValueError("end = 'target' needs target = <points>")
        return self


PARAMETER_PATHS = (
    "players.teams",
    "players.direction",
    "deal.rest",
    "deal.stock_reserve",
    "deal.redeal_doubles",
    "opening.first_starter",
    "opening.required_double",
    "opening.lead",
    "opening.turned_up_doubles",
    "opening.no_double",
    "opening.later_starter",
    "opening.later_lead",
    "board.shape",
    "turn.draw",
    "turn.draw_limit",
    "turn.play_drawn",
    "scoring.method",
    "scoring.out_bonus",
    "scoring.out_points",
    "scoring.blocked_points",
    "scoring.bands",
    "scoring.tie",
    "match.end",
    "match.rounds",
    "match.target",
    "match.tie",
    "match.several_at_target",
)
"""The parameters a clause's ``written_for`` may name (``section.key``)."""


class Clause(_Strict):
    """One rule sentence (or a few) in both languages, with a stable id."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$", max_length=60)
    section: Literal["aim", "setup", "play", "scoring", "game_end"]
    text: I18n
    written_for: dict[str, str | int] = Field(default_factory=dict)
    """The parameter values the text was written for (``{"board.shape" =
    "cross_doubles"}``): the rules check warns when the file's values differ."""

    @field_validator("written_for")
    @classmethod
    def _written_for(cls, v: dict[str, str | int]) -> dict[str, str | int]:
        unknown = sorted(k for k in v if k not in PARAMETER_PATHS)
        if unknown:
            raise ValueError(
                f"written_for names unknown parameters: {', '.join(unknown)} "
                f"(use one of {', '.join(PARAMETER_PATHS)})"
            )
        return v


class CheckLimits(_Strict):
    """Thresholds of the rules check's design diagnostics (``[check]``, all optional;
    the defaults are in ``docs/rules-check.md``)."""

    playing_time_minutes: float | None = Field(default=None, gt=0, le=1440)
    """The promise (as on the box): a match lasts about this many minutes."""
    playing_time_tolerance: float | None = Field(default=None, ge=1, le=10)
    """Warn when a match lasts more than this times the promise on average."""
    draws_per_dealt_max: float | None = Field(default=None, ge=0, le=100)
    """Warn when a round draws more tiles than this times the tiles dealt."""
    stock_drained_max: float | None = Field(default=None, ge=0, le=1)
    """Warn when more than this share of rounds draws the whole stock."""
    blocked_max: float | None = Field(default=None, ge=0, le=1)
    """Warn when more than this share of rounds ends blocked."""
    tie_max: float | None = Field(default=None, ge=0, le=1)
    """Warn when more than this share of rounds has no single winner."""
    first_player_excess_max: float | None = Field(default=None, ge=0, le=1)
    """Warn when the starter wins more rounds than the fair share plus this."""
    seat_match_excess_max: float | None = Field(default=None, ge=0, le=1)
    """Warn when a seat wins more matches than the fair share plus this."""
    significance: float | None = Field(default=None, gt=0, lt=0.5)
    """The significance level of the seat-advantage tests."""
    clause_share_min: float | None = Field(default=None, ge=0, le=1)
    """Warn when a rule (not a fallback) decides fewer than this share of rounds."""


class Note(_Strict):
    """A decision taken where the seed text was unclear, contradictory or silent."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_-]*$", max_length=60)
    kind: Literal["unclear", "contradictory", "silent", "changed"]
    clauses: list[str] = Field(default_factory=list)
    decision: I18n
    reason: I18n


class RulesFile(_Strict):
    """The whole rules file."""

    format: int
    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$", max_length=40)
    aliases: list[str] = Field(default_factory=list)
    set: str
    source: str = ""
    """Where the rules come from (a seed file name or an engine to reproduce)."""
    pieces: Literal["cards", "tiles"] = Field(default="tiles", exclude=True)
    """What the rules call a domino: ``cards`` (Karten) or ``tiles`` (Steine). The
    booklet uses the same word; it does not change play (left out of dumps)."""
    name: I18n
    summary: I18n
    players: Players
    deal: Deal
    opening: Opening
    board: Board
    turn: Turn
    scoring: Scoring
    match: Match
    clause: list[Clause] = Field(min_length=1)
    note: list[Note] = Field(default_factory=list)
    check: CheckLimits = Field(default_factory=CheckLimits, exclude=True)
    """Thresholds of the rules check's design diagnostics (optional). Not a rule of
    play: left out of dumps of the parameters (which hash what decides play)."""

    @field_validator("format")
    @classmethod
    def _format(cls, v: int) -> int:
        if v != FORMAT_VERSION:
            raise ValueError(f"this deckgen reads rules format {FORMAT_VERSION}")
        return v

    @model_validator(mode="after")
    def _deal_table(self) -> RulesFile:
        missing = [n for n in self.players.counts if n not in self.deal.hand_size]
        if missing:
            raise ValueError(
                "deal.hand_size has no entry for "
                + ", ".join(f"{n} players" for n in missing)
                + " (one entry per count in players.counts)"
            )
        extra = [n for n in self.deal.hand_size if n not in self.players.counts]
        if extra:
            raise ValueError(
                "deal.hand_size has entries for player counts not in players.counts: "
                + ", ".join(str(n) for n in extra)
            )
        ids = [c.id for c in self.clause]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError("clause ids must be unique; repeated: " + ", ".join(dup))
        nids = [n.id for n in self.note]
        ndup = sorted({i for i in nids if nids.count(i) > 1})
        if ndup:
            raise ValueError("note ids must be unique; repeated: " + ", ".join(ndup))
        if (self.board.shape in ("trains", "chicken_foot")) != (self.opening.lead == "station"):
            raise ValueError(
                "board.shape = 'trains' or 'chicken_foot' and opening.lead = 'station' go "
                "together: play starts from the round's station double"
            )
        for note in self.note:
            for cid in note.clauses:
                if cid not in ids:
                    raise ValueError(f"note '{note.id}' names an unknown clause '{cid}'")
        return self
