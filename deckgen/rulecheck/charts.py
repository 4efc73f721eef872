"""Charts of a check report as SVG: pure functions from the report's dicts to SVG text.

Takes a player count's section of the report; gives SVG documents: the distribution
of round length (turns, with minutes on a second axis), the seats' round and match win
rates with their 95 % intervals against the fair share, how often each clause
decides a round (or match), and the skill ladder when the check played one.
:func:`charts_of` gives every chart of a section by name.

Every word and number format of a chart comes from the caller as :class:`Labels`
(titles are arguments); the defaults are the English of the check's own report, and
the designer's booklet passes its language's (:mod:`deckgen.booklet.designer`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from typing import Any

from deckgen.engine.seatnames import seat_number

W, H = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 60, 40, 40, 50
FONT = "font-family='DejaVu Sans, sans-serif'"
BLUE, ORANGE, GREY = "#3b6ea8", "#d9822b", "#888888"


def _tick_spec(value: float) -> str:
    """A tick's number format: whole numbers bare, else one decimal (12.5, not 12)."""
    return ".0f" if abs(value - round(value)) < 0.05 else ".1f"


@dataclass(frozen=True)
class Labels:
    """The words on the charts and how they write numbers. A ``{name}`` in a text is
    filled by the chart (numbers already written with :meth:`num`)."""

    decimal: str = "."
    thousands: str = ","
    percent: str = " %"
    """What follows a percentage (``50 %``)."""
    list_sep: str = ", "
    """Between two numbers of an interval (``[45.1, 49.5]``)."""
    seat: str = "seat {n}"
    team: str = "team {n}"
    rounds: str = "rounds"
    matches: str = "matches"
    minutes: str = "{m} min"
    turns_axis: str = "turns per round (grey: minutes at {spt} s a turn + {setup} s a round)"
    wins_note: str = "(share of those with one winner, 95 % interval; dashed: fair {fair})"
    never: str = "never"
    share_of_rounds: str = "share of rounds"
    share_of_matches: str = "share of matches"
    pairing: str = "{bot} vs {against}"
    better: str = "clearly better"
    not_better: str = "not shown better"
    fair_share: str = "fair share"
    ladder_note: str = "share of rounds won, with its 95 % interval; {rounds} rounds per pairing"

    def num(self, value: float, spec: str) -> str:
        """``value`` formatted with ``spec`` in these labels' number style."""
        text = format(value, spec)
        table: dict[str, str | int | None] = {".": self.decimal, ",": self.thousands}
        return text.translate(str.maketrans(table))

    def pct(self, share_pct: float, spec: str) -> str:
        """A percentage (already times 100) with its sign."""
        return self.num(share_pct, spec) + self.percent

    def side(self, label: str, index: int | str) -> str:
        """A seat or a team by its 0-based index, numbered from 1."""
        return (self.team if label == "team" else self.seat).format(n=seat_number(index))


ENGLISH = Labels()


def _svg(title: str, body: list[str], height: int = H) -> str:
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{W}' height='{height}' "
        f"viewBox='0 0 {W} {height}' {FONT} font-size='12'>\n"
        f"<rect width='{W}' height='{height}' fill='white'/>\n"
        f"<text x='{W / 2}' y='22' text-anchor='middle' font-size='15' "
        f"font-weight='bold'>{escape(title)}</text>\n" + "\n".join(body) + "\n</svg>\n"
    )


def _nice(top: float) -> float:
    """A round axis maximum at or above ``top``."""
    if top <= 0:
        return 1.0
    step = 10.0 ** math.floor(math.log10(top))
    for m in (1, 2, 2.5, 5, 10):
        if m * step >= top:
            return m * step
    return 10 * step


def round_length_svg(
    hist: dict[str, int],
    seconds_per_turn: float,
    setup_seconds: float,
    title: str,
    labels: Labels = ENGLISH,
) -> str:
    """Bars: share of rounds by turns; a second axis gives the minutes of such a round."""
    counts = {int(k): v for k, v in hist.items()}
    total = sum(counts.values()) or 1
    lo, hi = (min(counts), max(counts)) if counts else (0, 1)
    span = max(1, hi - lo + 1)
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM
    ymax = _nice(max(counts.values(), default=1) / total)
    bw = pw / span
    body = [f"<line x1='{LEFT}' y1='{TOP + ph}' x2='{W - RIGHT}' y2='{TOP + ph}' stroke='black'/>"]
    for t, k in sorted(counts.items()):
        h = ph * (k / total) / ymax
        x = LEFT + (t - lo) * bw
        body.append(
            f"<rect x='{x:.2f}' y='{TOP + ph - h:.2f}' width='{max(bw - 1, 0.8):.2f}' "
            f"height='{h:.2f}' fill='{BLUE}'/>"
        )
    for i in range(5):
        v = ymax * i / 4
        y = TOP + ph - ph * i / 4
        body.append(
            f"<text x='{LEFT - 6}' y='{y + 4:.1f}' text-anchor='end'>"
            f"{labels.pct(100 * v, _tick_spec(100 * v))}</text>"
        )
        body.append(f"<line x1='{LEFT}' y1='{y:.1f}' x2='{W - RIGHT}' y2='{y:.1f}' stroke='#ddd'/>")
    ticks = 6
    for i in range(ticks + 1):
        tick = lo + (span - 1) * i / ticks
        x = LEFT + (tick - lo + 0.5) * bw
        minutes = (tick * seconds_per_turn + setup_seconds) / 60
        body.append(f"<text x='{x:.1f}' y='{TOP + ph + 16}' text-anchor='middle'>{tick:.0f}</text>")
        body.append(
            f"<text x='{x:.1f}' y='{TOP + ph + 30}' text-anchor='middle' fill='{GREY}'>"
            f"{escape(labels.minutes.format(m=labels.num(minutes, '.1f')))}</text>"
        )
    axis = labels.turns_axis.format(
        spt=labels.num(seconds_per_turn, "g"), setup=labels.num(setup_seconds, "g")
    )
    body.append(f"<text x='{W / 2}' y='{H - 6}' text-anchor='middle'>{escape(axis)}</text>")
    return _svg(title, body)


def wins_svg(
    stats: dict[str, Any], title: str, label: str = "seat", labels: Labels = ENGLISH
) -> str:
    """Per side: share of the rounds and of the matches with one winner, with 95 %
    intervals, against the fair share (dashed)."""
    fair = float(stats["first_player_fair_share"])
    sides = round(1 / fair)
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM
    groups: list[tuple[str, dict[str, Any]]] = [
        (labels.rounds, stats["wins_by_seat"]),
        (labels.matches, stats["match_winner"]),
    ]
    shares: list[list[tuple[float, float, float]]] = []
    for _, tally in groups:
        won = sum(int(tally.get(str(s), {}).get("count", 0)) for s in range(sides)) or 1
        row = []
        for s in range(sides):
            node = tally.get(str(s), {})
            k = int(node.get("count", 0))
            of = int(node.get("of", 0)) or 1
            ci = node.get("ci95") or [0.0, 0.0]
            scale = of / won  # a share of all rounds -> a share of rounds with one winner
            row.append((k / won, ci[0] * scale, ci[1] * scale))
        shares.append(row)
    ymax = _nice(max(max(h for _, _, h in row) for row in shares) * 1.1)
    body = [f"<line x1='{LEFT}' y1='{TOP + ph}' x2='{W - RIGHT}' y2='{TOP + ph}' stroke='black'/>"]
    for i in range(5):
        y = TOP + ph - ph * i / 4
        body.append(
            f"<text x='{LEFT - 6}' y='{y + 4:.1f}' text-anchor='end'>"
            f"{labels.pct(100 * ymax * i / 4, _tick_spec(100 * ymax * i / 4))}</text>"
        )
    slot = pw / sides
    bw = slot / 3
    for s in range(sides):
        for g, (kind, _) in enumerate(groups):
            v, lo, hi = shares[g][s]
            x = LEFT + s * slot + slot / 6 + g * bw
            h = ph * v / ymax
            colour = BLUE if g == 0 else ORANGE
            body.append(
                f"<rect x='{x:.1f}' y='{TOP + ph - h:.1f}' width='{bw - 4:.1f}' height='{h:.1f}' "
                f"fill='{colour}'><title>{escape(kind)}: {labels.pct(100 * v, '.1f')}"
                "</title></rect>"
            )
            cx = x + (bw - 4) / 2
            y1, y2 = TOP + ph - ph * lo / ymax, TOP + ph - ph * hi / ymax
            body.append(
                f"<line x1='{cx:.1f}' y1='{y1:.1f}' x2='{cx:.1f}' y2='{y2:.1f}' stroke='black'/>"
            )
            for y in (y1, y2):
                body.append(
                    f"<line x1='{cx - 4:.1f}' y1='{y:.1f}' x2='{cx + 4:.1f}' y2='{y:.1f}' "
                    "stroke='black'/>"
                )
            body.append(
                f"<text x='{cx:.1f}' y='{TOP + ph - h - 4 - (y1 - y2) / 2:.1f}' "
                f"text-anchor='middle' font-size='10'>{labels.num(100 * v, '.1f')}</text>"
            )
        body.append(
            f"<text x='{LEFT + (s + 0.5) * slot:.1f}' y='{TOP + ph + 16}' "
            f"text-anchor='middle'>{escape(labels.side(label, s))}</text>"
        )
    fy = TOP + ph - ph * fair / ymax
    body.append(
        f"<line x1='{LEFT}' y1='{fy:.1f}' x2='{W - RIGHT}' y2='{fy:.1f}' stroke='{GREY}' "
        f"stroke-dasharray='6 4'/>"
    )
    note = labels.wins_note.format(fair=labels.pct(100 * fair, ".1f"))
    body.append(
        f"<text x='{W / 2}' y='{H - 8}' text-anchor='middle'><tspan fill='{BLUE}'>■ "
        f"{escape(labels.rounds)}</tspan>  <tspan fill='{ORANGE}'>■ {escape(labels.matches)}"
        f"</tspan>  {escape(note)}</text>"
    )
    return _svg(title, body)


def clauses_svg(clauses: list[dict[str, Any]], title: str, labels: Labels = ENGLISH) -> str:
    """Horizontal bars: the share of rounds (or matches) each clause decided."""
    rows = len(clauses)
    row_h = 18
    height = TOP + rows * row_h + 40
    label_w = 190
    pw = W - label_w - RIGHT - 50
    body = []
    for i, c in enumerate(clauses):
        y = TOP + i * row_h
        share = c["share"] or 0.0
        colour = GREY if c["decided"] == 0 else (BLUE if c["per"] == "round" else ORANGE)
        body.append(
            f"<text x='{label_w - 6}' y='{y + 13}' text-anchor='end'>{escape(c['id'])}</text>"
        )
        body.append(
            f"<rect x='{label_w}' y='{y + 3}' width='{max(pw * share, 1.0):.1f}' "
            f"height='{row_h - 6}' fill='{colour}'/>"
        )
        text = escape(labels.never) if c["decided"] == 0 else labels.pct(100 * share, ".3g")
        body.append(
            f"<text x='{label_w + max(pw * share, 1.0) + 4:.1f}' y='{y + 13}'>{text}</text>"
        )
    body.append(
        f"<text x='{W / 2}' y='{height - 10}' text-anchor='middle'><tspan fill='{BLUE}'>■ "
        f"{escape(labels.share_of_rounds)}</tspan>  <tspan fill='{ORANGE}'>■ "
        f"{escape(labels.share_of_matches)}</tspan></text>"
    )
    return _svg(title, body, height)


def ladder_svg(ladder: dict[str, Any], title: str, labels: Labels = ENGLISH) -> str:
    """Horizontal bars, one per pairing of the skill ladder: the stronger bot's share of
    rounds with its 95 % interval (whiskers) against the fair share (a grey tick)."""
    pairings = ladder["pairings"]
    row_h = 26
    height = TOP + len(pairings) * row_h + 66
    label_w = 150
    pw = W - label_w - RIGHT - 20
    top = max([float(p["ci95"][1]) for p in pairings] + [float(p["fair_share"]) for p in pairings])
    xmax = _nice(top * 1.05)
    body = []
    for i in range(5):
        x = label_w + pw * i / 4
        body.append(
            f"<line x1='{x:.1f}' y1='{TOP}' x2='{x:.1f}' y2='{TOP + len(pairings) * row_h}' "
            f"stroke='#dddddd'/>"
        )
        body.append(
            f"<text x='{x:.1f}' y='{TOP + len(pairings) * row_h + 14}' text-anchor='middle'>"
            f"{labels.pct(100 * xmax * i / 4, _tick_spec(100 * xmax * i / 4))}</text>"
        )
    for i, p in enumerate(pairings):
        y = TOP + i * row_h
        share, (lo, hi), fair = float(p["share"]), p["ci95"], float(p["fair_share"])
        colour = BLUE if p["stronger"] else GREY
        body.append(
            f"<text x='{label_w - 8}' y='{y + 17}' text-anchor='end'>"
            f"{escape(labels.pairing.format(bot=p['bot'], against=p['against']))}</text>"
        )
        w = pw * share / xmax
        body.append(
            f"<rect x='{label_w}' y='{y + 5}' width='{max(w, 1.0):.1f}' height='{row_h - 10}' "
            f"fill='{colour}'><title>{labels.pct(100 * share, '.1f')} "
            f"[{labels.num(100 * lo, '.1f')}{labels.list_sep}{labels.num(100 * hi, '.1f')}]"
            "</title></rect>"
        )
        x1, x2 = label_w + pw * lo / xmax, label_w + pw * hi / xmax
        cy = y + row_h / 2
        body.append(
            f"<line x1='{x1:.1f}' y1='{cy:.1f}' x2='{x2:.1f}' y2='{cy:.1f}' stroke='black'/>"
        )
        for x in (x1, x2):
            body.append(
                f"<line x1='{x:.1f}' y1='{cy - 5:.1f}' x2='{x:.1f}' y2='{cy + 5:.1f}' "
                "stroke='black'/>"
            )
        fx = label_w + pw * fair / xmax
        body.append(
            f"<line x1='{fx:.1f}' y1='{y + 2}' x2='{fx:.1f}' y2='{y + row_h - 2}' "
            f"stroke='{ORANGE}' stroke-width='3'/>"
        )
        body.append(
            f"<text x='{max(x2, label_w + w) + 6:.1f}' y='{y + 17}' font-size='11'>"
            f"{labels.pct(100 * share, '.1f')}</text>"
        )
    body.append(
        f"<text x='{W / 2}' y='{height - 26}' text-anchor='middle'><tspan fill='{BLUE}'>■ "
        f"{escape(labels.better)}</tspan>   <tspan fill='{GREY}'>■ "
        f"{escape(labels.not_better)}</tspan>   "
        f"<tspan fill='{ORANGE}'>| {escape(labels.fair_share)}</tspan></text>"
    )
    note = labels.ladder_note.format(rounds=labels.num(int(ladder["rounds_per_pairing"]), ","))
    body.append(
        f"<text x='{W / 2}' y='{height - 10}' text-anchor='middle' font-size='11'>"
        f"{escape(note)}</text>"
    )
    return _svg(title, body, height)


def charts_of(key: str, sec: dict[str, Any], playing_time: dict[str, Any]) -> dict[str, str]:
    """Every chart of one player count's section, by name (``round-length``, ``wins``,
    ``clauses``, and ``skill-ladder`` when the section has a ladder)."""
    st = sec["stats"]
    extra: dict[str, str] = {}
    if sec.get("skill_ladder"):
        extra["skill-ladder"] = ladder_svg(
            sec["skill_ladder"], f"{key} players: skill ladder (stronger bot's share of rounds)"
        )
    return extra | {
        "round-length": round_length_svg(
            st.get("turns_histogram", {}),
            float(playing_time["seconds_per_turn"]),
            float(playing_time["setup_seconds_per_round"]),
            f"{key} players: length of a round ({st['rounds']:,} rounds)",
        ),
        "wins": wins_svg(
            st,
            f"{key} players: who wins rounds and matches",
            "team" if round(1 / float(st["first_player_fair_share"])) < int(key) else "seat",
        ),
        "clauses": clauses_svg(
            sec["coverage"]["clauses"], f"{key} players: how often each clause decides"
        ),
    }
