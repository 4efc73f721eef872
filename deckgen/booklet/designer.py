"""The designer's edition: what the player's booklet leaves out, from the same sources.

Takes the rules file, the rules check's JSON report (a parsed ``deckgen-rules-check``
report) and the booklet's language; gives the extra sections of ``--edition designer``:
the findings of the check with their severity, a page per player count with the
figures and their 95 % intervals and the check's charts, how often each clause decided
a round, and the skill ladder when the check played one. The notes on every decision
come from :mod:`deckgen.booklet.content` (they are the rules file's own notes).

Everything here is read from the report defensively: a section the report lacks is
left out with one sentence saying so, never invented.

The findings speak the booklet's language: each finding carries its template's key and
figures (``text``), and :mod:`deckgen.rulecheck.messages` holds every finding's
sentence in English and German side by side; a finding without them (an older report,
a kind with no German yet) is printed as the report's English ``message``. The charts
get their words and number style from here, through the booklet's catalog.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from deckgen.booklet.i18n import decimal
from deckgen.booklet.model import Block, Figure, Para, Section, Table
from deckgen.rulecheck.charts import Labels
from deckgen.rulecheck.messages import message_of, say
from deckgen.rulespec import RuleSpec

Gettext = Callable[..., str]
CHART_ASPECT = 300 / 640
CHART_WIDTH = 0.82
"""A chart's width on the page, as a share of the text width (two charts and the table
of figures fit one page)."""
"""Height over width of the check's charts (:mod:`deckgen.rulecheck.charts`)."""

SEVERITY_ORDER = ("broken", "gap", "fail", "warn", "notice", "unseen")
"""The rows of the findings table, most serious first: what breaks play, what the file
leaves open (the verdict's reasons), then the graded findings."""


def _pct(share: float, lang: str) -> str:
    text = f"{100 * share:.1f}".rstrip("0").rstrip(".")
    text = text.replace(".", ",") if lang == "de" else text
    return text + ("\u202f%" if lang == "de" else "%")


def _interval(node: Any, lang: str, *, share: bool) -> str:
    """``47.3% (45.1–49.5%)`` from ``{"share"|"mean": x, "ci95": [lo, hi]}``."""
    if not isinstance(node, Mapping):
        return "\u2013"
    value = node.get("share" if share else "mean")
    if not isinstance(value, int | float):
        return "\u2013"

    def fmt(v: float) -> str:
        return _pct(v, lang) if share else decimal(v, lang)

    text = fmt(float(value))
    ci = node.get("ci95")
    if isinstance(ci, list) and len(ci) == 2:
        text += f" ({fmt(float(ci[0]))}\u2013{fmt(float(ci[1]))})"
    return text


def scaled_svg(svg: str, width_mm: float) -> str:
    """A chart of the check (fixed pixel size) scaled to ``width_mm`` on the page."""
    height = width_mm * CHART_ASPECT
    return re.sub(
        r"width='(\d+)' height='(\d+)'",
        f"width='{width_mm:.1f}mm' height='{height:.1f}mm'",
        svg,
        count=1,
    )


class DesignerPart:
    """The designer's sections for one booklet (one language)."""

    def __init__(
        self,
        rules: RuleSpec,
        lang: str,
        report: Mapping[str, Any],
        gettext: Gettext,
        width_mm: float,
        ways: Callable[[str], str] = str,
    ) -> None:
        self.rules = rules
        self.lang = lang
        self.report = report
        self._ = gettext
        self.width = width_mm
        self.ways = ways

    def players(self) -> list[tuple[str, Mapping[str, Any]]]:
        per = self.report.get("players")
        if not isinstance(per, Mapping):
            return []
        return [(k, v) for k, v in per.items() if isinstance(v, Mapping)]

    def say(self, item: Mapping[str, Any], english: str) -> str:
        """A said item of the check in the booklet's language (``english`` when it does
        not fill in: a report from an older deckgen)."""
        try:
            return say(item, self.lang)
        except (KeyError, IndexError, ValueError, TypeError):
            return english

    def reasons(self) -> list[tuple[str, str]]:
        """(broken | gap, sentence) for what breaks play and what the file leaves open:
        the verdict's reasons when the verdict is ``broken`` or ``gaps`` (otherwise the
        reasons are the graded findings, listed with their own severity)."""
        verdict = str(self.report.get("verdict", ""))
        if verdict not in ("broken", "gaps"):
            return []
        reasons = [str(r) for r in self.report.get("reasons") or []]
        try:
            from deckgen.rulecheck.report import reason_items

            broken, gaps = reason_items(dict(self.report["players"]))
        except (KeyError, IndexError, ValueError, TypeError, AttributeError):
            return [("broken" if verdict == "broken" else "gap", r) for r in reasons]
        items = [("broken", i) for i in broken] + [("gap", i) for i in gaps]
        if len(items) != len(reasons):  # not the report's own reasons: print those
            return [("broken" if verdict == "broken" else "gap", r) for r in reasons]
        return [
            (kind, self.say(item, english))
            for (kind, item), english in zip(items, reasons, strict=True)
        ]

    def findings(self) -> Section:
        """Every finding of the check with its severity: broken, gap (the verdict's
        reasons), then failure, warning and notice (the graded findings)."""
        rows: list[tuple[str, ...]] = []
        labels = {
            "broken": self._("broken"),
            "gap": self._("gap"),
            "fail": self._("failure"),
            "warn": self._("warning"),
            "notice": self._("notice"),
            "unseen": self._("not reached"),
        }
        for kind, text in self.reasons():
            rows.append((labels[kind], text))
        for w in self.report.get("warnings") or []:
            if isinstance(w, Mapping):
                level = str(w.get("severity", "warn"))
                rows.append((labels.get(level, labels["warn"]), message_of(w, self.lang)))
        for item in self.report.get("never_reached") or []:
            rows.append((labels["unseen"], self.unseen(str(item))))
        blocks: list[Block] = [
            Para(
                self._(
                    "What the rules check found, most serious first: broken (the rules "
                    "cannot be played as written), gap (a situation the rules do not "
                    "decide), then failure, warning and notice (a design weakness the check "
                    "measured, from serious to slight), last the rules no game reached "
                    "(not reached)."
                )
            )
        ]
        order = [labels[k] for k in SEVERITY_ORDER]
        rows.sort(key=lambda r: order.index(r[0]))
        if rows:
            header = (self._("Severity"), self._("Finding"))
            blocks.append(Table(header, tuple(rows), flows=True, prose=True))
        else:
            blocks.append(Para(self._("The check found nothing to report.")))
        return Section("findings", self._("Findings of the rules check"), tuple(blocks))

    def unseen(self, clause_id: str) -> str:
        """A clause no player count reached, named by its words as the booklet prints
        them (a few), with where to read why."""
        try:
            words = self.rules.clause_text(clause_id, self.lang).split()
        except KeyError:
            words = []
        quoted = " ".join(words[:8])
        if len(words) > 8:  # cut after a few words, without the comma it stopped at
            quoted = quoted.rstrip(",;:") + " \u2026"
        return self._(
            "Rule %(id)s (“%(words)s”) decided nothing with any number of players: "
            "the pages per player count say how rare it is, or why it cannot happen.",
            id=clause_id,
            words=quoted,
        )

    def chart_labels(self) -> Labels:
        """The charts' words and number style in the booklet's language."""
        de = self.lang == "de"
        return Labels(
            decimal="," if de else ".",
            thousands="." if de else ",",
            percent="\u202f%" if de else " %",
            list_sep="; " if de else ", ",
            seat=self._("seat %(n)s", n="{n}"),
            team=self._("pair %(n)s", n="{n}"),
            rounds=self._("rounds"),
            matches=self._("matches"),
            minutes=self._("%(m)s min", m="{m}"),
            turns_axis=self._(
                "turns per round (grey: minutes at %(spt)s s a turn + %(setup)s s a round)",
                spt="{spt}",
                setup="{setup}",
            ),
            wins_note=self._(
                "(share of those with one winner, 95 %% interval; dashed: fair %(fair)s)",
                fair="{fair}",
            ),
        )

    def per_players(self) -> list[Section]:
        """A page per player count: the figures with their intervals and the charts."""
        from deckgen.rulecheck.charts import round_length_svg, wins_svg

        timing = self.report.get("playing_time")
        labels = self.chart_labels()
        sections = []
        for key, sec in self.players():
            st = sec.get("stats")
            if not isinstance(st, Mapping):
                continue
            ends = st.get("round_end", {})
            rows = [
                (
                    self._("Rounds played"),
                    f"{int(st.get('rounds', 0)):,}".replace(",", ".")
                    if self.lang == "de"
                    else f"{int(st.get('rounds', 0)):,}",
                ),
                (
                    self._("Turns per round"),
                    _interval(st.get("turns_per_round"), self.lang, share=False),
                ),
                (
                    self._("Draws per round"),
                    _interval(st.get("draws_per_round"), self.lang, share=False),
                ),
                (
                    self._("Rounds nobody wins by going out"),
                    _interval(
                        ends.get("not_out") if isinstance(ends, Mapping) else None,
                        self.lang,
                        share=True,
                    ),
                ),
                (
                    self._("Rounds won by the starting player"),
                    _interval(st.get("first_player_win_share"), self.lang, share=True),
                ),
                (
                    self._("Minutes per game"),
                    _interval(st.get("playing_time_minutes"), self.lang, share=False),
                ),
            ]
            fair = st.get("first_player_fair_share")
            if isinstance(fair, int | float):
                rows.append((self._("Fair share of the starting player"), _pct(fair, self.lang)))
            blocks: list[Block] = [
                Table(
                    (self._("Figure"), self._("Mean or share (95 % interval)")),
                    tuple(rows),
                    caption=self._(
                        "Computer players choosing their moves %(ways)s.",
                        ways=self.ways(str(st.get("bots", "random"))),
                    ),
                )
            ]
            if isinstance(timing, Mapping) and st.get("turns_histogram"):
                svg = round_length_svg(
                    dict(st["turns_histogram"]),
                    float(timing.get("seconds_per_turn", 10)),
                    float(timing.get("setup_seconds_per_round", 60)),
                    self._("Length of a round"),
                    labels,
                )
                blocks.append(
                    Figure(scaled_svg(svg, CHART_WIDTH * self.width), self._("Length of a round"))
                )
            if st.get("wins_by_seat") and st.get("match_winner") and isinstance(fair, float):
                label = "team" if round(1 / fair) < int(key) else "seat"
                svg = wins_svg(dict(st), self._("Who wins"), label, labels)
                blocks.append(
                    Figure(
                        scaled_svg(svg, CHART_WIDTH * self.width),
                        self._("Share of rounds and games won, with 95 % intervals."),
                    )
                )
            title = self._("With %(n)s players", n=key)
            sections.append(Section(f"players-{key}", title, tuple(blocks), True))
        return sections

    def coverage(self, shown: Mapping[str, str]) -> Section:
        """Every clause: how often it decided something in the check, and how the
        player's booklet shows it (``shown``: clause id -> words)."""
        decided: dict[str, str] = {}
        players = self.players()
        if players:
            key, sec = players[len(players) // 2]
            cov = sec.get("coverage", {})
            for c in cov.get("clauses", []) if isinstance(cov, Mapping) else []:
                if isinstance(c, Mapping) and isinstance(c.get("share"), int | float):
                    decided[str(c["id"])] = _pct(float(c["share"]), self.lang)
        else:
            key = "?"
        rows = tuple(
            (cid, decided.get(cid, "\u2013"), shown.get(cid, self._("text")))
            for cid in self.rules.clause_ids()
        )
        return Section(
            "coverage",
            self._("Clause coverage"),
            (
                Para(
                    self._(
                        "Each clause of the rules file, how often it decided something in "
                        "the check's rounds with %(n)s players, and how the player's "
                        "booklet shows it.",
                        n=key,
                    )
                ),
                Table((self._("Clause"), self._("Decides"), self._("Shown by")), rows, flows=True),
            ),
        )

    def ladder(self) -> Section:
        """The skill ladder: stronger computer players against weaker ones."""
        blocks: list[Block] = []
        for key, sec in self.players():
            lad = sec.get("skill_ladder")
            if not isinstance(lad, Mapping):
                continue
            rows = []
            for p in lad.get("pairings", []):
                if not isinstance(p, Mapping):
                    continue
                rows.append(
                    (
                        f"{p.get('bot')} \u2013 {p.get('against')}",
                        _interval(p, self.lang, share=True),
                        _pct(float(p.get("fair_share", 0)), self.lang),
                        self._("yes") if p.get("stronger") else self._("no"),
                    )
                )
            if rows:
                blocks.append(
                    Table(
                        (
                            self._("Pairing"),
                            self._("Wins (95 %)"),
                            self._("Fair"),
                            self._("Stronger"),
                        ),
                        tuple(rows),
                        caption=self._("With %(n)s players", n=key),
                    )
                )
        if not blocks:
            blocks.append(Para(self._("This check played no skill ladder.")))
        else:
            blocks.insert(
                0,
                Para(
                    self._(
                        "Each line: how often the first computer player won its rounds "
                        "against the second, and whether that is clearly more than its fair "
                        "share. A skilled player should win more often than a random one."
                    )
                ),
            )
        return Section("ladder", self._("Skill ladder"), tuple(blocks))
