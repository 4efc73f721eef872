"""A rules file (plus facts, an example round and card pictures) -> a :class:`Booklet`.

Takes a :class:`~deckgen.rulespec.RuleSpec`, a language, and optional extras: the
:class:`~deckgen.booklet.facts.PlayFacts` of the rules check, an
:class:`~deckgen.booklet.example.ExampleRound` played by the engine, and pictures of
printed cards. Gives the booklet's content in rulebook order: title, contents,
components, aim, setup, play, end of round and scoring, end of game, notes, quick
reference. Every sentence that states a rule is the rules file's own clause text;
the catalogs supply only headings, labels and captions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from gettext import GNUTranslations
from typing import Any, Literal

from deckgen.booklet.diagram import BoardView, PlacedTiles, Style, any_diagram, diagram, hand
from deckgen.booklet.example import ExampleRound, Placement
from deckgen.booklet.facts import PlayFacts
from deckgen.booklet.html import PageFormat
from deckgen.booklet.i18n import decimal, translations
from deckgen.booklet.model import (
    Block,
    Booklet,
    Box,
    CardPicture,
    CardRow,
    Figure,
    Para,
    QuickReference,
    Section,
    Sum,
    Table,
    TitlePage,
)
from deckgen.rulespec import RuleSpec
from deckgen.rulespec.text import number_word
from deckgen.tiles import Tile

LEAD_CLAUSES = ("lead.turned_up", "lead.double", "lead.any", "lead.skip_double")
"""The clauses that say how a round opens (a start card turned up, or who leads what)."""

QUICK_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Setting up", ("setup.deal", "start.first", *LEAD_CLAUSES, "lead.station", "setup.teams")),
    (
        "A turn",
        (
            "play.match",
            "play.satisfy_double",
            "play.draw",
            "play.draw_limit",
            "play.open_train",
            "play.chicken_foot",
        ),
    ),
    ("End of a round", ("end.out", "end.reserve", "end.blocked")),
    ("Scoring", ("score.out", "score.bonus", "score.ends", "score.bands", "score.values")),
    ("End of the game", ("match.end",)),
)
"""The quick reference: a heading (catalog text) and the clauses it recalls, each by
its first sentence (a clause states its rule first and explains it after)."""

SHORT_HAND = 6
"""A hand of at most this many tiles is spelled out tile by tile in a worked example."""

OPENING_CLAUSES = ("start.first", *LEAD_CLAUSES, "lead.station")
"""Who begins and how a round opens: the quick reference always keeps it (a lead
clause such as "need not play that double" leans on the one before it)."""

_BAND_WORDS = {"de": ("Augen", "Punkt", "Punkte"), "en": ("pips", "point", "points")}
"""A worked example's step from pips to points by bands: ``36 pips: 4 points``."""

_DEAL_WORDS = {"de": ("bei", "oder", "Spielern"), "en": ("with", "or", "players")}
"""How the quick reference names a player count in its line of hand sizes."""

QUICK_LIMIT: dict[str, int] = {"a5": 3, "a6": 2}
"""At most this many clauses under one heading of the quick reference, per format."""

Edition = Literal["player", "designer"]
EDITIONS: tuple[str, ...] = ("player", "designer")
"""The player's booklet (only the game) and the designer's (the same booklet, then the
notes on every decision and what the rules check found)."""

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-ZÄÖÜ0-9])")


def first_sentence(text: str) -> str:
    """The first sentence of a clause text (its rule; what follows explains it)."""
    return _SENTENCE_END.split(text.strip(), maxsplit=1)[0]


@dataclass(frozen=True)
class Extras:
    """What the booklet shows beyond the rules file itself (all optional)."""

    facts: PlayFacts | None = None
    example: ExampleRound | None = None
    cards: tuple[CardPicture, ...] = ()
    card_count: int | None = None
    age: int | None = None
    style: Style = "pips"
    publisher: str = ""
    ending: ExampleRound | None = None
    """A real round that ended without anyone going out (its scoring is shown too)."""
    edition: Edition = "player"
    report: Mapping[str, Any] | None = None
    """The rules check's report (the designer's edition prints what it found)."""


def _pct(share: float, lang: str) -> str:
    text = f"{100 * share:.0f} %"
    return text.replace(" ", "\u202f") if lang == "de" else text.replace(" ", "")


def _count(value: int, lang: str) -> str:
    """``2,000`` in English, ``2.000`` in German."""
    text = f"{value:,}"
    return text.replace(",", ".") if lang == "de" else text


def players_range(counts: Sequence[int]) -> str:
    """``2–4`` for 2, 3, 4; ``2, 4`` for 2 and 4; ``4`` for 4 alone."""
    if len(counts) > 1 and list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}\u2013{counts[-1]}"
    return ", ".join(str(c) for c in counts)


def signed(value: int) -> str:
    """Points with a true minus sign: ``+5``, ``\u221213``, ``0``."""
    if value > 0:
        return f"+{value}"
    return f"\u2212{-value}" if value < 0 else "0"


def tile_text(tile: Tile | tuple[int, int]) -> str:
    """A tile as printed in running text: ``3/5`` (the rules files write it so)."""
    a, b = (tile.low, tile.high) if isinstance(tile, Tile) else tile
    return f"{a}/{b}"


class _Builder:
    def __init__(self, rules: RuleSpec, lang: str, fmt: PageFormat, extras: Extras) -> None:
        self.rules = rules
        self.lang = lang
        self.fmt = fmt
        self.x = extras
        self.t: GNUTranslations = translations(lang)
        self.width = fmt.text_width_mm

    # helpers ------------------------------------------------------------------
    def _(self, text: str, **values: object) -> str:
        out = self.t.gettext(text)
        return out % values if values else out

    @property
    def cards(self) -> bool:
        """Whether the rules call a domino a card (else a tile): the booklet says the same."""
        return self.rules.params.pieces == "cards"

    def bot_ways(self, names: str) -> str:
        """How the computer players chose their moves (``random,greedy``), as an adverb
        phrase in the booklet's language: ``at random or greedily``."""
        labels = {
            "random": self._("at random"),
            "greedy": self._("greedily (highest pips first)"),
            "smart": self._("with a simple strategy"),
        }
        ways = [labels.get(n.strip(), n.strip()) for n in names.split(",") if n.strip()]
        if len(ways) <= 1:
            return "".join(ways)
        return ", ".join(ways[:-1]) + " " + self._("or") + " " + ways[-1]

    def pieces_count(self, n: int) -> str:
        """``36 cards`` or ``91 tiles`` (``36 Karten``, ``91 Steine``)."""
        if self.cards:
            return self.t.ngettext("%(n)d card", "%(n)d cards", n) % {"n": n}
        return self.t.ngettext("%(n)d tile", "%(n)d tiles", n) % {"n": n}

    def from_seed(self) -> bool:
        """Whether these rules are a bundled file written from one of the project's seed
        descriptions (only then do the notes speak of an older description)."""
        from deckgen.resources import rules_dir

        path = self.rules.path
        if path is None or not self.rules.params.source.startswith("seed "):
            return False
        try:
            return path.resolve().parent == rules_dir().resolve()
        except OSError:
            return False

    def seat(self, seat: int) -> str:
        return self.t.gettext("Player %(n)d") % {"n": seat + 1}

    def clause_blocks(self, section_id: str, *, skip: Sequence[str] = ()) -> list[Block]:
        for s in self.rules.sections(self.lang):
            if s.id == section_id:
                return [Para(c.text, clause=c.id) for c in s.clauses if c.id not in skip]
        return []

    def summary(self) -> str:
        """The rules file's one-sentence summary, its placeholders filled in."""
        from deckgen.rulespec.text import render

        return render(self.rules.summary(self.lang), self.rules.text_params(self.lang))

    def section_title(self, section_id: str) -> str:
        from deckgen.rulespec import SECTION_TITLES

        return SECTION_TITLES[section_id][self.lang]

    # title ---------------------------------------------------------------------
    def title_page(self) -> TitlePage:
        facts = [self._("%(players)s players", players=players_range(self.rules.player_counts))]
        if self.x.age is not None:
            facts.append(self._("Ages %(age)d and up", age=self.x.age))
        footnote = ""
        if self.x.facts is not None:
            f = self.x.facts
            minutes = max(5, round(f.minutes_per_match / 5) * 5)
            facts.append(self._("About %(minutes)d minutes", minutes=minutes))
            footnote = self._(
                "Playing time estimated from %(rounds)s simulated rounds with %(players)d "
                "players, assuming %(seconds)s seconds per turn and %(setup)s seconds per "
                "round for dealing and counting.",
                setup=decimal(f.setup_seconds, self.lang, 0),
                rounds=_count(f.rounds, self.lang),
                players=f.players,
                seconds=decimal(f.seconds_per_turn, self.lang, 0),
            )
        n = self.rules.dset.max_pip
        ex = self.x.example
        position = ex.position_after(8 if self.fmt.name == "a5" else 6) if ex else None
        if position is not None and position.board is not None:
            if isinstance(position.board, BoardView):
                board = BoardView(line=position.board.line, doubles_across=False)
                art = diagram(
                    board,
                    style=self.x.style,
                    unit_mm=self.fmt.width_mm / 15,
                    max_width_mm=self.fmt.width_mm * 0.74,
                    mark_open_ends=False,
                    title=self.rules.name(self.lang),
                )
            else:
                art = any_diagram(
                    position.board,
                    label_text=self.label_text,
                    style=self.x.style,
                    unit_mm=self.fmt.width_mm / 15,
                    max_width_mm=self.fmt.width_mm * 0.74,
                    title=self.rules.name(self.lang),
                )
        else:
            art = hand(
                [Tile.of(v % (n + 1), n - v % (n + 1)) for v in (1, 2, 3, 4, 5)],
                style=self.x.style,
                unit_mm=self.fmt.width_mm / 16,
                title=self.rules.name(self.lang),
            )
        return TitlePage(
            name=self.rules.name(self.lang),
            subtitle=self.summary(),
            facts=tuple(facts),
            footnote=footnote,
            art_svg=art,
            publisher=self.x.publisher or self.edition_line(),
        )

    def edition_line(self) -> str:
        """``36 cards · double-7``: what the game is played with (the same count as the
        components section; no file names or other machinery on the cover)."""
        return self._(
            "%(pieces)s · %(set)s",
            pieces=self.pieces_count(len(self.rules.dset)),
            set=self.rules.text_params(self.lang)["set"],
        )

    # sections -------------------------------------------------------------------
    def components(self) -> Section:
        n = len(self.rules.dset)
        blocks: list[Block] = []
        if self.rules.has_clause("setup.components"):
            blocks.append(
                Para(
                    self.rules.clause_text("setup.components", self.lang),
                    clause="setup.components",
                )
            )
        else:
            blocks.append(
                Para(self.pieces_count(n) + f" ({self.rules.text_params(self.lang)['set']})")
            )
        if self.x.cards:
            per_row = 5 if self.fmt.name == "a5" else 4
            width = min(24.0, (self.width - (per_row - 1) * 3) / per_row)
            blocks.append(
                CardRow(
                    self.x.cards,
                    caption=(
                        self._("Some of the cards as they are printed: each shows one domino.")
                        if self.cards
                        else self._("Some of the tiles as they are printed.")
                    ),
                    width_mm=round(width, 1),
                )
            )
        return Section("components", self._("Components"), tuple(blocks))

    def setup(self) -> Section:
        blocks = self.clause_blocks("setup", skip=("setup.components",))
        rows = self.rules.deal_table()
        show_dead = any(r.dead for r in rows)
        show_reserve = any(r.reserve for r in rows)
        each = self._("Cards each") if self.cards else self._("Tiles each")
        header = [self._("Players"), each, self._("Stock")]
        if show_dead:
            header.append(self._("Out of play"))
        if show_reserve:
            header.append(self._("Never drawn"))
        body = []
        for r in rows:
            row = [str(r.players), str(r.hand_size), str(r.stock)]
            if show_dead:
                row.append(str(r.dead))
            if show_reserve:
                row.append(str(r.reserve))
            body.append(tuple(row))
        blocks.append(
            Table(
                tuple(header),
                tuple(body),
                caption=self._("The deal for each number of players."),
                shows=tuple(c for c in ("setup.deal", "setup.rest") if self.rules.has_clause(c)),
            )
        )
        return Section("setup", self.section_title("setup"), tuple(blocks))

    def play(self) -> Section:
        blocks = self.clause_blocks("play")
        ex = self.x.example
        if ex is not None:
            start_caption = (
                self._(
                    "Start of the example round: the %(tile)s is the station, and every "
                    "train starts from it. Each train is labelled with its owner.",
                    tile=tile_text(ex.lead),
                )
                if self.rules.params.board.shape == "trains"
                else self._(
                    "Start of the example round: the %(tile)s lies in the middle. It gets "
                    "six arms before a tile is played anywhere else.",
                    tile=tile_text(ex.lead),
                )
                if self.rules.params.opening.lead == "station"
                else self._(
                    "Start of the example round: the %(tile)s is turned up as the start card.",
                    tile=tile_text(ex.lead),
                )
                if self.cards
                else self._(
                    "Start of the example round: the %(tile)s is turned up as the start tile.",
                    tile=tile_text(ex.lead),
                )
                if ex.turned_up
                else self._(
                    "Start of the example round: %(player)s leads the %(tile)s.",
                    player=self.seat(ex.starter),
                    tile=tile_text(ex.lead),
                )
            )
            figures: list[Block] = [
                Figure(
                    any_diagram(
                        ex.start,
                        label_text=self.label_text,
                        style=self.x.style,
                        unit_mm=self.fmt.width_mm / 21,
                        max_width_mm=self.width,
                        title=start_caption,
                    ),
                    start_caption,
                    shows=self.present(
                        "lead.turned_up", "lead.station", "play.trains", *LEAD_CLAUSES
                    ),
                )
            ]
            later = ex.position_after(self.later_index(ex))
            if later is not None and later.board is not None:
                caption = self._(
                    "The same round a little later: %(player)s has just laid %(tile)s "
                    "(outlined) against the open %(value)d. The arrows mark the open ends.",
                    player=self.seat(later.seat),
                    tile=tile_text(later.tile),
                    value=later.value,
                )
                if self.rules.params.board.shape == "trains":
                    caption += " " + self._("A red coin marks an open train.")
                if self.rules.params.board.shape == "chicken_foot":
                    caption += " " + self._(
                        "The dashed lines join each double to its arms or toes."
                    )
                figures.append(
                    Figure(
                        any_diagram(
                            later.board,
                            label_text=self.label_text,
                            style=self.x.style,
                            unit_mm=self.fmt.width_mm / 21,
                            max_width_mm=self.width,
                            title=caption,
                        ),
                        caption,
                        shows=self.position_shows(ex, later),
                    )
                )
            split = max(1, len(blocks) // 2)
            blocks = blocks[:split] + figures[:1] + blocks[split:] + figures[1:]
        return Section("play", self.section_title("play"), tuple(blocks))

    def turn_text(self, drew: int, tile: Tile | tuple[int, int] | None, value: int | None) -> str:
        """One turn of the example round as a whole clause: ``lays 3/5 on the open 5``,
        ``draws 2 cards, then lays 3/5 on the open 5``, ``draws 3 cards, still cannot
        lay one and passes``, ``cannot lay a card and passes`` (in the set's own word)."""
        t, c = self.t, self.cards
        if tile is not None:
            v = {"n": number_word(drew, self.lang), "tile": tile_text(tile), "value": value}
            if not drew:
                return self._("lays %(tile)s on the open %(value)d") % v
            if c:
                return (
                    t.ngettext(
                        "draws %(n)s card, then lays %(tile)s on the open %(value)d",
                        "draws %(n)s cards, then lays %(tile)s on the open %(value)d",
                        drew,
                    )
                    % v
                )
            return (
                t.ngettext(
                    "draws %(n)s tile, then lays %(tile)s on the open %(value)d",
                    "draws %(n)s tiles, then lays %(tile)s on the open %(value)d",
                    drew,
                )
                % v
            )
        if not drew:
            return (
                self._("cannot lay a card and passes")
                if c
                else self._("cannot lay a tile and passes")
            )
        if c:
            return t.ngettext(
                "draws %(n)s card, cannot lay it and passes",
                "draws %(n)s cards, still cannot lay one and passes",
                drew,
            ) % {"n": number_word(drew, self.lang)}
        return t.ngettext(
            "draws %(n)s tile, cannot lay it and passes",
            "draws %(n)s tiles, still cannot lay one and passes",
            drew,
        ) % {"n": number_word(drew, self.lang)}

    def label_text(self, key: str) -> str:
        """Words for a diagram label key (a train's owner, the Mexican Train)."""
        if key.startswith("train:"):
            return self._("%(player)s's train", player=self.seat(int(key.split(":")[1])))
        if key == "mexican":
            return self._("Mexican Train")
        if key == "more":
            return "…"
        if key.startswith("count:"):  # score.ends: the count under an All Fives board
            _, count, points = key.split(":")
            text = self._("the ends count %(count)d", count=int(count))
            if int(points):
                text += ": " + self._("scores %(points)d", points=int(points))
            return text[:1].upper() + text[1:]
        return key

    @staticmethod
    def later_index(ex: ExampleRound) -> int:
        """Which placement the play section draws as "a little later" (on a train table,
        the first one from the fourth on that shows an open train, when there is one)."""
        for i, p in enumerate(ex.placements[3:], start=4):
            if isinstance(p.board, PlacedTiles) and p.board.markers:
                return i
        return 5 if ex.players > 2 else 4

    def walkthrough(self, ex: ExampleRound) -> Section:
        """The example round turn by turn, with the board drawn every few turns."""
        blocks: list[Block] = [
            Para(
                self._(
                    "This round was played by %(n)s computer players following the rules "
                    "above. Turn by turn, it shows how a round goes.",
                    n=number_word(ex.players, self.lang),
                )
            )
        ]
        rows: list[tuple[str, ...]] = []
        for step in ex.steps:
            tile = step.tile if step.kind == "play" else None
            trains = self.rules.params.board.shape == "trains"
            what = self.turn_text(step.drew, tile, step.value)
            if tile is not None:
                if trains:  # which train it went on
                    key = "mexican" if step.end == ex.players else f"train:{step.end}"
                    what += " (" + self.label_text(key) + ")"
                if step.count >= 0:  # score.ends: the open ends' count after the lay
                    what += "; " + self._("the ends count %(count)d", count=step.count)
                    if step.scored:
                        what += ": " + self._("scores %(points)d", points=step.scored)
            elif trains:  # a player who cannot play marks their own train open
                what += "; " + self._("their train is now open")
            rows.append((str(step.turn), self.seat(step.seat), what))
        header = (self._("Turn"), self._("Player"), self._("What happens"))
        every = max(3, len(ex.placements) // 3)
        in_play = self.later_index(ex)  # already drawn in the play section
        wanted = [k * every + (1 if k * every == in_play else 0) for k in (1, 2, 3)]
        shown = [
            p for i, p in enumerate(ex.placements, start=1) if i in wanted and p.board is not None
        ]
        # each board right after the turn it shows: the table flows around the pictures,
        # so a picture that does not fit at the foot of a page leaves a gap of a few rows
        # at most, not the rest of a half table
        done = 0
        for p in shown:
            upto = next((k + 1 for k, st in enumerate(ex.steps) if st.turn == p.turn), done)
            if upto > done:
                chunk = tuple(rows[done:upto])
                blocks.append(Table(header, chunk, shows=self.walk_shows(ex), flows=True))
                done = upto
            assert p.board is not None
            caption = self._(
                "After turn %(turn)d: %(player)s has laid %(tile)s (outlined).",
                turn=p.turn,
                player=self.seat(p.seat),
                tile=tile_text(p.tile),
            )
            figure = any_diagram(
                p.board,
                label_text=self.label_text,
                style=self.x.style,
                unit_mm=self.fmt.width_mm / 21,
                max_width_mm=self.width,
                title=caption,
            )
            blocks.append(Figure(figure, caption, shows=self.position_shows(ex, p)))
        if done < len(rows) or not shown:
            blocks.append(Table(header, tuple(rows[done:]), shows=self.walk_shows(ex), flows=True))
        return Section("example", self._("A round, turn by turn"), tuple(blocks))

    def scoring(self) -> Section:
        blocks = self.clause_blocks("scoring")
        # the short example of a round nobody won by going out comes first: it follows the
        # clause on such rounds, and it fills the page before the taller worked example
        if self.x.ending is not None and (self.x.example is None or self.x.example.end == "out"):
            blocks.append(self.worked_example(self.x.ending, another=True))
        if self.x.example is not None:
            blocks.append(self.worked_example(self.x.example))
        return Section("scoring", self.section_title("scoring"), tuple(blocks))

    def worked_example(self, ex: ExampleRound, *, another: bool = False) -> Box:
        """The end of a real round and its scoring, as the engine scored it. ``another``:
        a second round that ended without anyone going out (its sums, no pictures)."""
        inner: list[Block] = []
        who = {"player": self.seat(ex.out_seat), "turns": ex.table_turns}
        if another:
            text = (
                self._(
                    "In another real round, nobody got rid of all their cards: it ended "
                    "after %(turns)d turns."
                )
                if self.cards
                else self._(
                    "In another real round, nobody got rid of all their tiles: it ended "
                    "after %(turns)d turns."
                )
            )
        elif ex.end == "out":
            text = (
                self._(
                    "In the example round, %(player)s laid their last card after %(turns)d turns."
                )
                if self.cards
                else self._(
                    "In the example round, %(player)s laid their last tile after %(turns)d turns."
                )
            )
        else:
            text = (
                self._(
                    "In the example round, nobody got rid of all their cards: it ended "
                    "after %(turns)d turns."
                )
                if self.cards
                else self._(
                    "In the example round, nobody got rid of all their tiles: it ended "
                    "after %(turns)d turns."
                )
            )
        inner.append(Para(text % who))
        values = self.tile_values()
        lines: list[tuple[str, str]] = []
        for seat, tiles in enumerate(ex.hands):
            if not tiles:
                left = self._("no cards left") if self.cards else self._("no tiles left")
                lines.append((self.seat(seat), left))
                continue
            if not another:
                inner.append(
                    Figure(
                        hand(
                            list(tiles),
                            style=self.x.style,
                            unit_mm=self.fmt.width_mm / 31,
                            max_width_mm=self.width - 10,
                            title=self.seat(seat),
                        ),
                        self._("%(player)s still holds:", player=self.seat(seat))
                        + " "
                        + ", ".join(tile_text(t) for t in tiles),
                    )
                )
            terms = [str(values.get(str(t), t.pips)) for t in tiles]
            total = ex.hand_values[seat]
            label = self.seat(seat)
            if another and len(tiles) <= SHORT_HAND:  # no pictures of the hands: name them
                label += " (" + ", ".join(tile_text(t) for t in tiles) + ")"
            elif another:  # a long hand: its count, and the tiles that count differently
                special = [f"{tile_text(t)} = {values[str(t)]}" for t in tiles if str(t) in values]
                label += " (" + self.pieces_count(len(tiles))
                label += (", " + ", ".join(special) + ")") if special else ")"
                terms = [str(total)]
            lines.append(
                (
                    label,
                    " + ".join(terms) + f" = {total}" if len(terms) > 1 else str(total),
                )
            )
        inner.append(Sum(tuple(lines), title=self._("What is left in each hand:")))
        points = []
        for side, members in enumerate(ex.sides):
            name = " + ".join(self.seat(s) for s in members)
            value = ex.points[side]
            step = self.band_step(ex, side)  # score.bands: from the pips to the points
            points.append((f"{name} ({step})" if step else name, signed(value)))
        if any(ex.play_points):  # score.ends: during play, then the end
            during = []
            ending = []
            for side, members in enumerate(ex.sides):
                name = " + ".join(self.seat(s) for s in members)
                during.append((name, signed(ex.play_points[side])))
                ending.append((name, signed(ex.points[side] - ex.play_points[side])))
            inner.append(Sum(tuple(during), title=self._("Scored during play (the ends):")))
            inner.append(Sum(tuple(ending), title=self._("Scored at the end of the round:")))
        inner.append(Sum(tuple(points), title=self._("So the round scores:")))
        title = self._("Worked example: nobody goes out") if another else self._("Worked example")
        return Box(title, tuple(inner), shows=self.score_shows(ex), flows=True)

    def band_step(self, ex: ExampleRound, side: int) -> str:
        """The points of ``side`` with their step from the pips, when the rules score in
        bands (``score.bands``): ``9 + 27 = 36 pips: 4 points``; else empty.

        The pips are summed as the engine sums them for ``winner_takes`` (those left in
        the other hands, or in all hands), and shown only when their band gives the
        engine's points for that side."""
        sc = self.rules.params.scoring
        value = ex.points[side]
        if sc.bands is None or sc.method != "winner_takes" or value <= 0:
            return ""
        members = set(ex.sides[side])
        if ex.end == "out":
            gone = {ex.out_seat} if sc.out_points == "all" else members
            seats = [s for s in range(ex.players) if s not in gone]
        elif sc.blocked_points == "all":
            seats = list(range(ex.players))
        else:
            return ""
        raw = sum(ex.hand_values[s] for s in seats)
        if raw // sc.bands + 1 != value:
            return ""
        pips, one, many = _BAND_WORDS["de" if self.lang == "de" else "en"]
        terms = [str(ex.hand_values[s]) for s in seats]
        summed = " + ".join(terms) + f" = {raw}" if len(terms) > 1 else str(raw)
        return f"{summed} {pips}: {value} {one if value == 1 else many}"

    def present(self, *ids: str) -> tuple[str, ...]:
        """Those of ``ids`` that the rules file has, in order, without repeats."""
        return tuple(dict.fromkeys(c for c in ids if self.rules.has_clause(c)))

    def position_shows(self, ex: ExampleRound, upto: Placement) -> tuple[str, ...]:
        """The clauses a drawn position of the example round shows at work: matching
        ends always; doubles, open trains, feet and covered doubles when the tiles laid
        so far include them."""
        laid = [p for p in ex.placements if p.turn <= upto.turn]
        ids = ["play.match", "play.trains"]
        doubles = [p for p in laid if p.tile.is_double]
        if doubles:
            ids += ["play.doubles", "play.chicken_foot"]
            if any(q.turn > doubles[0].turn for q in laid):
                ids.append("play.satisfy_double")
        if isinstance(upto.board, PlacedTiles) and upto.board.markers:
            ids.append("play.open_train")
        if any(p.value >= 0 for p in laid) and ex.steps and any(s.count >= 0 for s in ex.steps):
            ids.append("score.ends")
        return self.present(*ids)

    def walk_shows(self, ex: ExampleRound) -> tuple[str, ...]:
        """What the turn-by-turn table of the example round shows at work."""
        ids = ["start.first", "play.match"]
        if any(s.drew for s in ex.steps):
            ids.append("play.draw")
        limit = self.rules.params.turn.draw_limit
        if limit is not None and any(s.drew >= limit for s in ex.steps):
            ids.append("play.draw_limit")
        if any(s.drew and s.kind == "play" for s in ex.steps):
            ids.append("play.play_drawn")
        if any(s.kind != "play" for s in ex.steps):
            ids += ["play.pass", "play.open_train"]
        if any(s.scored for s in ex.steps):
            ids.append("score.ends")
        return self.present(*ids)

    def score_shows(self, ex: ExampleRound) -> tuple[str, ...]:
        """What the worked example (a real round's end and scoring) shows at work."""
        ids = ["end." + ex.end]
        if ex.end == "out":
            ids += ["score.out", "score.bonus", "score.bands", "score.rounding"]
        else:
            ids += ["score.blocked", "score.bands", "score.rounding"]
            if "score.tie" in ex.clauses:  # the engine scored this round by the tie rule
                ids.append("score.tie")  # nobody scored for the end of this round
        values = self.tile_values()
        if any(str(t) in values for hand in ex.hands for t in hand):
            ids.append("score.values")
        if ex.play_points:
            ids.append("score.ends")
        return self.present(*ids)

    def tile_values(self) -> dict[str, int]:
        return dict(self.rules.params.scoring.tile_values)

    def game_end(self) -> Section:
        return Section(
            "game_end", self.section_title("game_end"), tuple(self.clause_blocks("game_end"))
        )

    def notes(self) -> Section | None:
        notes = self.rules.notes(self.lang)
        if not notes:
            return None
        if self.from_seed():
            intro = self._(
                "These rules were written from an older description of the game. Where it "
                "was unclear, contradicted itself or said nothing, or where we changed it, "
                "this is what we decided and why."
            )
            kinds = {
                "unclear": self._("Unclear in the older description"),
                "contradictory": self._("Contradictory in the older description"),
                "silent": self._("Not covered by the older description"),
                "changed": self._("Changed from the older description"),
            }
        else:
            intro = self._(
                "Rules like these often leave a question open. Here is how these rules "
                "decide each one, and why."
            )
            kinds = {}
        blocks: list[Block] = [Para(intro)]
        for n in notes:
            blocks.append(Para(n.decision, lead=kinds.get(n.kind, self._("Decision")) + ":"))
            blocks.append(Para(n.reason, lead=self._("Why:")))
        return Section("notes", self._("Notes on these rules"), tuple(blocks))

    def quickref(self) -> QuickReference:
        """One page (one card in A6) to keep on the table: set-up, a turn, the end of a
        round, scoring, the end of the game, each clause by its rule alone."""
        limit = QUICK_LIMIT.get(self.fmt.name, 2)
        have = set(self.rules.clause_ids())
        groups: list[tuple[str, tuple[str, ...]]] = []
        hands = self.quick_hands()
        for heading, ids in QUICK_GROUPS:
            lines: list[str] = []
            others = 0
            for cid in ids:
                if cid not in have or (cid not in OPENING_CLAUSES and others >= limit):
                    continue
                if cid == "setup.deal" and hands:  # the hand sizes, not the shuffle
                    others += 1
                    continue
                others += cid not in OPENING_CLAUSES
                lines.append(first_sentence(self.rules.clause_text(cid, self.lang)))
            if lines:
                groups.append((self._(heading), tuple(lines)))
        note = ""
        f = self.x.facts
        if f is not None and f.source == "check" and f.rounds_per_match > 0:
            minutes = max(1, round(f.minutes_per_match / f.rounds_per_match))
            note = self.t.ngettext(
                "A round takes about %(n)d minute.", "A round takes about %(n)d minutes.", minutes
            ) % {"n": minutes}
        return QuickReference(
            title=self._("Quick reference"),
            groups=tuple(groups),
            note=note,
            hands=hands,
        )

    def quick_hands(self) -> str:
        """The quick reference's line of hand sizes (``Tiles each: 7 with 2, 6 with 3
        or 4 players.``; a run of three or more counts as ``2–4``), printed first
        under its set-up heading in place of the deal's first sentence when that
        sentence does not give the hand sizes (it only shuffles), else empty. The sizes
        are the deal's own (``deal.hand_size``, as in the setup's deal table)."""
        if not self.rules.has_clause("setup.deal"):
            return ""
        raw = next(c.text.get(self.lang) for c in self.rules.params.clause if c.id == "setup.deal")
        if "{hand_size" in first_sentence(raw):
            return ""
        groups: dict[int, list[int]] = {}
        for row in self.rules.deal_table():
            groups.setdefault(row.hand_size, []).append(row.players)
        with_n, word, players = _DEAL_WORDS["de" if self.lang == "de" else "en"]
        parts = []
        for size, counts in groups.items():
            if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
                named = f"{counts[0]}\u2013{counts[-1]}"
            elif len(counts) > 1:
                named = ", ".join(str(n) for n in counts[:-1]) + f" {word} {counts[-1]}"
            else:
                named = str(counts[0])
            parts.append(f"{size} {with_n} {named}")
        each = self._("Cards each") if self.cards else self._("Tiles each")
        return f"{each}: {', '.join(parts)} {players}."

    def share_text(self, share: float, ci: tuple[float, float] | None) -> str:
        """``47 %`` or, with its 95 % interval, ``47 % (46–49 %)``."""
        text = _pct(share, self.lang)
        if ci is None:
            return text
        unit = "\u202f%" if self.lang == "de" else "%"
        return f"{text} ({100 * ci[0]:.0f}\u2013{100 * ci[1]:.0f}{unit})"

    def booklet(self) -> Booklet:
        sections = [self.components()]
        aim = self.clause_blocks("aim")
        if aim:
            sections.append(Section("aim", self.section_title("aim"), tuple(aim)))
        sections += [self.setup(), self.play()]
        if self.x.example is not None and self.x.example.steps:
            sections.append(self.walkthrough(self.x.example))
        sections += [self.scoring(), self.game_end()]
        kicker = ""
        if self.x.edition == "designer":
            kicker = self._("Designer's edition")
            sections += self.designer(sections)
        return Booklet(
            lang=self.lang,
            title=replace(self.title_page(), kicker=kicker),
            sections=tuple(sections),
            quickref=self.quickref(),
            running_title=self.rules.name(self.lang),
            keywords=(self.rules.id, self.rules.dset.name),
            edition=self.x.edition,
        )

    def designer(self, player: Sequence[Section]) -> list[Section]:
        """What the designer's edition adds: the notes on every decision, then what the
        rules check found (findings, a page per player count, clause coverage, the skill
        ladder)."""
        from deckgen.booklet.designer import DesignerPart

        out: list[Section] = []
        notes = self.notes()
        if notes is not None:
            out.append(replace(notes, new_page=True))
        if self.x.report is None:
            return out
        part = DesignerPart(
            self.rules, self.lang, self.x.report, self._, self.width, ways=self.bot_ways
        )
        out.append(part.findings())
        out += part.per_players()
        out.append(part.coverage(self.shown_by(player)))
        out.append(part.ladder())
        return out

    def shown_by(self, sections: Sequence[Section]) -> dict[str, str]:
        """For each clause the player's booklet shows at work: in what (words)."""
        book = Booklet(self.lang, TitlePage(""), tuple(sections))
        shown: dict[str, list[str]] = {}
        for block in book.blocks():
            word = {
                "figure": self._("diagram"),
                "box": self._("worked example"),
                "table": self._("table"),
            }.get(block.kind, "")
            for cid in getattr(block, "shows", ()):
                if word and word not in shown.setdefault(cid, []):
                    shown[cid].append(word)
        return {cid: ", ".join([self._("text"), *words]) for cid, words in shown.items()}


def build_booklet(
    rules: RuleSpec, lang: str, fmt: PageFormat, extras: Extras | None = None
) -> Booklet:
    """The booklet of ``rules`` in ``lang`` for page format ``fmt``."""
    return _Builder(rules, lang, fmt, extras or Extras()).booklet()
