"""The designer's edition: what the player's booklet leaves out, from the same sources.

Takes the rules file, the rules check's JSON report (a parsed ``deckgen-rules-check``
report) and the booklet's language; gives the extra sections of ``--edition designer``:
the findings of the check with their severity, a page per player count with the
figures and their 95 % intervals and the check's charts, how often each clause decided
a round, and the skill ladder when the check played one. The notes on every decision
come from :mod:`deckgen.booklet.content` (they are the rules file's own notes).

Everything here is read from the report defensively: a section the report lacks is
left out with one sentence saying so, never invented.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from deckgen.booklet.model import Block, Figure, Para, Section, Table
from deckgen.rulespec import RuleSpec

Gettext = Callable[..., str]
CHART_ASPECT = 300 / 640
CHART_WIDTH = 0.82
"""A chart's width on the page, as a share of the text width (two charts and the table
of figures fit one page)."""
"""Height over width of the check's charts (:mod:`deckgen.rulecheck.charts`)."""

SEVERITY_ORDER = ("broken", "gap", "warning")


def _pct(share: float, lang: str) -> str:
    text = f"{100 * share:.1f}".rstrip("0").rstrip(".")
    text = text.replace(".", ",") if lang == "de" else text
    return text + ("\u202f%" if lang == "de" else "%")


def _num(value: float, lang: str, digits: int = 1) -> str:
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if lang == "de" else text


def _interval(node: Any, lang: str, *, share: bool) -> str:
    """``47.3% (45.1–49.5%)`` from ``{"share"|"mean": x, "ci95": [lo, hi]}``."""
    if not isinstance(node, Mapping):
        return "\u2013"
    value = node.get("share" if share else "mean")
    if not isinstance(value, int | float):
        return "\u2013"

    def fmt(v: float) -> str:
        return _pct(v, lang) if share else _num(v, lang)

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

    def findings(self) -> Section:
        """Every finding of the check with its severity: broken, gap, warning."""
        rows: list[tuple[str, ...]] = []
        labels = {
            "broken": self._("broken"),
            "gap": self._("gap"),
            "warning": self._("warning"),
        }
        verdict = str(self.report.get("verdict", ""))
        reasons = self.report.get("reasons") or []
        warnings = self.report.get("warnings") or []
        warned = {str(w.get("message")) for w in warnings if isinstance(w, Mapping)}
        for reason in reasons:
            if str(reason) in warned:
                continue
            kind = "broken" if verdict == "broken" else "gap"
            rows.append((labels[kind], str(reason)))
        for w in warnings:
            if isinstance(w, Mapping):
                rows.append((labels["warning"], str(w.get("message", ""))))
        for item in self.report.get("never_reached") or []:
            rows.append((labels["gap"], str(item)))
        blocks: list[Block] = [
            Para(
                self._(
                    "What the rules check found, most serious first: broken (the rules "
                    "cannot be played as written), gap (a situation the rules do not "
                    "decide), warning (a design weakness the check measured)."
                )
            )
        ]
        rows.sort(key=lambda r: [labels[k] for k in SEVERITY_ORDER].index(r[0]))
        if rows:
            blocks.append(Table((self._("Severity"), self._("Finding")), tuple(rows), flows=True))
        else:
            blocks.append(Para(self._("The check found nothing to report.")))
        return Section("findings", self._("Findings of the rules check"), tuple(blocks))

    def per_players(self) -> list[Section]:
        """A page per player count: the figures with their intervals and the charts."""
        from deckgen.rulecheck.charts import round_length_svg, wins_svg

        timing = self.report.get("playing_time")
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
                )
                blocks.append(
                    Figure(scaled_svg(svg, CHART_WIDTH * self.width), self._("Length of a round"))
                )
            if st.get("wins_by_seat") and st.get("match_winner") and isinstance(fair, float):
                label = "team" if round(1 / fair) < int(key) else "seat"
                svg = wins_svg(dict(st), self._("Who wins"), label)
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
