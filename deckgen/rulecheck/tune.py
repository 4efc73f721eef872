"""Propose the fix: the smallest changes of a file's own parameters that remove a finding.

Takes a rules file, a player count and a goal (a design finding of the check, by id,
optionally with the figure to reach: ``blocked<0.2``); gives a table of the variants
tried. The search is the designer's own: one parameter at a time (hand size, draw rule
and limit, reserve, starter rules, target or rounds, bonus, board shape), each a
step or two from the file's value.

It screens every variant with few rounds, then confirms the best with many; all
variants play the same seeds (common random numbers), so a difference between two of
them is the rules', not the shuffle's. A variant counts when its figure is within the
goal and it raises no design finding of ``warn`` or worse that the file did not have;
it is ranked by how far it moves the file (one step before two) and then by its figure.
The best variant's rules file is written out ready to use: the original text with only
the changed values replaced (:func:`patched_toml`), so comments and wording stay.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from html import escape
from typing import Any, Protocol

from deckgen.errors import DeckgenError, InputError
from deckgen.rulecheck.confirm import measure
from deckgen.rulecheck.messages import say
from deckgen.rulecheck.severity import DESIGN
from deckgen.rulecheck.statics import penalty_target
from deckgen.rulespec import RuleSpec

DROP = "clause.drop"
"""A change key: the ids of clauses the changed parameters no longer use."""
SCREEN_ROUNDS = 3_000
CONFIRM_ROUNDS = 20_000
CONFIRM_BEST = 3


class Player(Protocol):
    """Plays a pass of variants of ``spec`` (each with its changes) and fills in their
    figures: the same as :func:`play_variant` on each, wherever it runs."""

    def __call__(
        self, spec: RuleSpec, players: int, goal: Goal, rounds: int, seed: int,
        variants: list[Variant], had: frozenset[str],
    ) -> None: ...  # fmt: skip


@dataclass(frozen=True)
class Goal:
    finding: str
    below: float | None = None
    """The figure to reach (default: the finding's own limit)."""


@dataclass
class Variant:
    changes: dict[str, Any]
    label: str
    steps: int
    figure: float | None = None
    interval: tuple[float, float] | None = None
    rounds: int = 0
    new_findings: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    """Text findings the change raises: clauses to rewrite with it."""
    confirmed: bool = False

    def meets(self, target: float) -> bool:
        """Within the goal and no new finding; once confirmed, with its whole 95 %
        interval within the goal (so a check with other seeds agrees)."""
        if self.figure is None or self.new_findings or self.figure > target:
            return False
        return not (self.confirmed and self.interval is not None and self.interval[1] > target)


@dataclass
class TuneResult:
    spec: RuleSpec
    players: int
    goal: Goal
    limit: float
    before: Variant
    variants: list[Variant]
    skilled: float | None = None
    """The file's figure with the ``smart`` bot in every seat (is it the rules or the
    bots?)."""

    @property
    def best(self) -> Variant | None:
        fits = [v for v in self.variants if v.confirmed and v.meets(self.limit)]
        return min(fits, key=lambda v: (v.steps, v.figure or 0.0)) if fits else None


def parse_goal(text: str) -> Goal:
    m = re.fullmatch(r"\s*([a-z_]+)\s*(?:<\s*([0-9.]+)\s*)?", text)
    if m is None or m.group(1) not in DESIGN:
        raise InputError(
            f"'{text}' is not a goal the tuner knows",
            where="option --goal",
            fix=f"name a design finding ({', '.join(DESIGN)}), optionally with the figure "
            "to reach, e.g. blocked<0.2",
        )
    return Goal(m.group(1), float(m.group(2)) if m.group(2) else None)


# ---------------------------------------------------------------- the variants
def candidates(spec: RuleSpec, players: int, vary: tuple[str, ...] | None) -> list[Variant]:
    """One-parameter variants a step or two from the file's values."""
    p = spec.params
    raw = spec.raw
    out: list[Variant] = []

    def add(changes: dict[str, Any], label: str, steps: int = 1) -> None:
        if vary is None or any(key.startswith(v) for key in changes for v in vary):
            out.append(Variant(changes, label, steps))

    sizes = {str(k): v for k, v in raw["deal"]["hand_size"].items()}
    here = p.deal.hand_size[players]
    for d in (-2, -1, 1, 2):
        if here + d >= 2:
            add({"deal.hand_size": {**sizes, str(players): here + d}},
                f"deal.hand_size[{players}] = {here + d} (was {here})", abs(d))  # fmt: skip
    if p.deal.rest == "stock":
        if p.turn.draw == "limited" and p.turn.draw_limit is not None:
            lim = p.turn.draw_limit
            for d in (-1, 1, 2):
                if lim + d >= 1:
                    add({"turn.draw_limit": lim + d},
                        f"turn.draw_limit = {lim + d} (was {lim})", abs(d))  # fmt: skip
            add({"turn.draw": "until_playable", "turn.draw_limit": None,
                 DROP: ["play.draw_limit"]},
                "turn.draw = until_playable (was limited), without play.draw_limit")  # fmt: skip
        elif p.turn.draw == "until_playable":
            for lim in (1, 2):
                add({"turn.draw": "limited", "turn.draw_limit": lim},
                    f"turn.draw = limited, draw_limit = {lim}", 2)  # fmt: skip
        res = p.deal.stock_reserve
        for d in (-2, -1, 1, 2):
            if res + d >= 0:
                add({"deal.stock_reserve": res + d},
                    f"deal.stock_reserve = {res + d} (was {res})", abs(d))  # fmt: skip
    for v in ("next_seat", "round_winner", "same_rule"):
        if p.opening.later_starter not in (None, v):
            add({"opening.later_starter": v},
                f"opening.later_starter = {v} (was {p.opening.later_starter})")  # fmt: skip
    if p.opening.lead not in ("station", "turned_up"):
        for v in ("seat", "highest_double"):
            if p.opening.first_starter != v and p.opening.lead != "starter_double":
                add({"opening.first_starter": v},
                    f"opening.first_starter = {v} (was {p.opening.first_starter})")  # fmt: skip
    if p.match.target:
        t = p.match.target
        for f in (0.5, 0.75, 1.5):
            new = max(1, round(t * f))
            add({"match.target": new}, f"match.target = {new} (was {t})", 1 if f != 0.5 else 2)
    if p.match.rounds and p.opening.lead != "station":
        r = p.match.rounds
        for d in (-2, -1, 1, 2):
            if r + d >= 1:
                add({"match.rounds": r + d}, f"match.rounds = {r + d} (was {r})", abs(d))
    if p.board.shape in ("line", "spinner", "cross_doubles"):
        for shape in ("line", "spinner", "cross_doubles"):
            if shape != p.board.shape:
                add({"board.shape": shape}, f"board.shape = {shape} (was {p.board.shape})")
    return out


def changed_spec(spec: RuleSpec, changes: dict[str, Any]) -> RuleSpec:
    """``spec`` with ``changes`` (``section.key``; None removes the key), validated."""
    import copy

    from deckgen.rulespec import rules_from_data

    raw = copy.deepcopy(spec.raw)
    for dotted, value in changes.items():
        if dotted == DROP:
            raw["clause"] = [c for c in raw["clause"] if c["id"] not in value]
            continue
        section, key = dotted.split(".")
        node = raw.setdefault(section, {})
        if value is None:
            node.pop(key, None)
        else:
            node[key] = value
    return rules_from_data(raw, path=spec.path, what="changed rules")


# ---------------------------------------------------------------- playing a variant
def play_variant(
    spec: RuleSpec,
    players: int,
    goal: Goal,
    rounds: int,
    seed: int,
    variant: Variant,
    had: frozenset[str] = frozenset(),
) -> None:
    from deckgen.rulecheck.check import CheckOptions, run_check
    from deckgen.rulecheck.report import build_report
    from deckgen.rulecheck.statics import spec_findings

    opts = CheckOptions(rounds=rounds, players=(players,), seed=seed, workers=1)
    report = build_report(run_check(spec, opts))
    sec = report["players"][str(players)]
    variant.figure = measure(goal.finding, sec)
    variant.interval = _interval(goal.finding, sec)
    variant.rounds = rounds
    variant.new_findings = sorted(
        {
            w["id"]
            for w in sec["warnings"]
            if w["id"] in DESIGN and w["id"] != goal.finding and w["severity"] != "notice"
        }
        - had
    )
    variant.texts = [f["message"] for f in spec_findings(spec) if f["severity"] == "fail"]


def _interval(fid: str, sec: dict[str, Any]) -> tuple[float, float] | None:
    st = sec["stats"]
    node: dict[str, Any] | None = None
    if fid in ("stock_drained", "ties"):
        node = st.get(fid)
    elif fid == "blocked":
        node = st["round_end"]["blocked"]
    elif fid == "no_winner":
        node = st["round_end"]["not_out"]
    elif fid in ("playing_time", "match_time"):
        node = st["playing_time_minutes"]
    elif fid in ("first_player", "seat_match"):
        ci = st["first_player_win_share"].get("ci95")
        fair = float(st["first_player_fair_share"])
        return (ci[0] - fair, ci[1] - fair) if ci else None
    elif fid == "draw_heavy":
        ci = st["draws_per_round"].get("ci95")
        dealt = sec["feasibility"]["dealt"]
        return (ci[0] / dealt, ci[1] / dealt) if ci and dealt else None
    if node and node.get("ci95"):  # a share or a duration: never below 0
        return (max(0.0, float(node["ci95"][0])), float(node["ci95"][1]))
    return None


@dataclass(frozen=True)
class TuneOptions:
    """How a search plays: which parameters, how many rounds, with what seed, where."""

    vary: tuple[str, ...] | None = None
    """Only these parameters (prefixes of ``section.key``); None: every one."""
    screen_rounds: int = SCREEN_ROUNDS
    confirm_rounds: int = CONFIRM_ROUNDS
    seed: int = 0
    progress: Any = None
    """Called with the label of each variant as it is played."""
    player: Player | None = None
    """Plays a pass of variants elsewhere (``deckgen.batch.sweeps.QueuePlayer``: jobs on
    a Redis queue); None: here, one after the other."""


def tune(
    spec: RuleSpec, players: int, goal: Goal, options: TuneOptions | None = None
) -> TuneResult:
    """Screen every one-parameter variant, confirm the best, give the table."""
    from deckgen.rulecheck.diagnostics import DEFAULTS, limit

    o = options or TuneOptions()
    vary, screen_rounds, confirm_rounds, seed = o.vary, o.screen_rounds, o.confirm_rounds, o.seed
    progress, player = o.progress, o.player

    if players not in spec.player_counts:
        raise InputError(
            f"{spec.id} is not played by {players} players",
            where="option --players",
            fix=f"use one of {', '.join(map(str, spec.player_counts))}",
        )
    before = Variant({}, "the file as it is", 0)
    play_variant(spec, players, goal, confirm_rounds, seed, before)
    before.confirmed = True
    had = frozenset(before.new_findings)
    before.new_findings = []
    lim = goal.below if goal.below is not None else _limit(spec, goal.finding, limit, DEFAULTS)
    variants = candidates(spec, players, vary) + _aimed(spec, goal, lim, before.figure, vary)
    if not variants:
        raise InputError(
            "no parameter to vary",
            where="option --vary",
            fix="name parameters of the file, e.g. --vary deal.hand_size,turn.draw_limit",
        )
    search = _Search(spec, players, goal, lim, seed, progress, had, player)
    tried = search.play_all(variants, screen_rounds)
    ranked = search.confirm_best(tried, confirm_rounds)
    if not any(v.confirmed and v.meets(lim) for v in ranked):
        pairs = search.pairs(tried, screen_rounds)
        if pairs:
            search.confirm_best(pairs, confirm_rounds)
            ranked += pairs
    ranked.sort(key=lambda v: (not v.confirmed, *_rank(v, lim)))
    return TuneResult(spec, players, goal, lim, before, ranked, _skilled(spec, players, goal, seed))


def _skilled(spec: RuleSpec, players: int, goal: Goal, seed: int) -> float | None:
    from deckgen.rulecheck.check import CheckOptions, run_check
    from deckgen.rulecheck.confirm import SKILLED, confirm_rounds
    from deckgen.rulecheck.report import build_report

    opts = CheckOptions(rounds=confirm_rounds(None) * 2, players=(players,), seed=seed,
                        workers=1, bots=(SKILLED,), fast=False)  # fmt: skip
    return measure(goal.finding, build_report(run_check(spec, opts))["players"][str(players)])


def _aimed(
    spec: RuleSpec, goal: Goal, lim: float, figure: float | None, vary: tuple[str, ...] | None
) -> list[Variant]:
    """For a match that lasts too long: the target or the number of rounds scaled to
    the goal (a tenth under it), rounded to a number a rulebook would print."""
    if goal.finding not in ("playing_time", "match_time") or not figure or figure <= lim:
        return []
    p = spec.params
    scale = 0.9 * lim / figure
    out: list[Variant] = []
    if p.match.target and (vary is None or any("match.target".startswith(v) for v in vary)):
        step = 5 if p.match.target >= 20 else 1
        new = max(step, int(p.match.target * scale / step) * step)
        out.append(Variant({"match.target": new},
                           f"match.target = {new} (was {p.match.target})", 1))  # fmt: skip
    if (
        p.match.rounds and p.opening.lead != "station"
        and (vary is None or any("match.rounds".startswith(v) for v in vary))
    ):  # fmt: skip
        new = max(1, int(p.match.rounds * scale))
        out.append(Variant({"match.rounds": new},
                           f"match.rounds = {new} (was {p.match.rounds})", 1))  # fmt: skip
    return out


def _rank(v: Variant, lim: float) -> tuple[bool, int, float]:
    return (not v.meets(lim), v.steps, v.figure if v.figure is not None else 1e9)


@dataclass
class _Search:
    """What every variant of one search shares: the file, the count, the goal and its
    figure, the seeds (common random numbers), and the findings the file already has."""

    spec: RuleSpec
    players: int
    goal: Goal
    lim: float
    seed: int
    progress: Any
    had: frozenset[str]
    player: Player | None = None

    def play_all(self, variants: list[Variant], rounds: int) -> list[Variant]:
        """Play every valid one of ``variants`` (here, or on the player given: a job
        queue); give those played."""
        valid: list[Variant] = []
        for v in variants:
            try:
                changed_spec(self.spec, v.changes)
            except DeckgenError as exc:
                v.texts = [f"not a valid file: {exc.message}"]
                continue
            valid.append(v)
        if self.player is None:
            for v in valid:
                self.play(v, rounds)
            return valid
        if self.progress is not None:
            self.progress(f"{len(valid)} variants on the queue, {rounds:,} rounds each")
        self.player(self.spec, self.players, self.goal, rounds, self.seed, valid, self.had)
        return valid

    def play(self, v: Variant, rounds: int) -> bool:
        """Play ``v`` for ``rounds`` rounds (False when it is not a valid file)."""
        try:
            changed = changed_spec(self.spec, v.changes)
        except DeckgenError as exc:
            v.texts = [f"not a valid file: {exc.message}"]
            return False
        if self.progress is not None:
            self.progress(v.label + (" (confirming)" if rounds > v.rounds > 0 else ""))
        play_variant(changed, self.players, self.goal, rounds, self.seed, v, self.had)
        return True

    def confirm_best(self, tried: list[Variant], rounds: int) -> list[Variant]:
        """``tried`` ranked; the best :data:`CONFIRM_BEST` played again with ``rounds``."""
        ranked = sorted(tried, key=lambda v: _rank(v, self.lim))
        for v in self.play_all(ranked[:CONFIRM_BEST], rounds):
            v.confirmed = True
        return ranked

    def pairs(self, tried: list[Variant], rounds: int) -> list[Variant]:
        """Second pass: the variant that reaches the goal's figure but raises another
        finding, combined with each one-step change of another parameter."""
        reach = [
            v for v in tried if v.figure is not None and v.figure <= self.lim and v.new_findings
        ]  # fmt: skip
        if not reach:
            return []
        base = min(reach, key=lambda v: (v.steps, len(v.new_findings)))
        pairs = [
            Variant({**base.changes, **other.changes}, f"{base.label} and {other.label}", 2)
            for other in tried
            if other.steps == 1 and not set(other.changes) & set(base.changes)
        ]
        return self.play_all(pairs, rounds)


def _limit(spec: RuleSpec, fid: str, limit: Any, defaults: dict[str, float]) -> float:
    names = {
        "draw_heavy": "draws_per_dealt_max",
        "stock_drained": "stock_drained_max",
        "blocked": "blocked_max",
        "ties": "tie_max",
        "first_player": "first_player_excess_max",
        "seat_match": "first_player_excess_max",
        "no_winner": "not_out_max",
        "match_time": "match_minutes_max",
    }
    if fid == "playing_time":
        promise = spec.params.check.playing_time_minutes
        tol = limit(spec, "playing_time_tolerance")
        return float(promise * tol) if promise else defaults["match_minutes_max"]
    return float(limit(spec, names[fid]))


# ---------------------------------------------------------------- output
def _fmt(fid: str, value: float | None) -> str:
    if value is None:
        return "-"
    if fid in ("playing_time", "match_time"):
        return f"{value:.0f} min"
    if fid == "draw_heavy":
        return f"{value:.2f}x"
    if fid in ("first_player", "seat_match"):
        return f"{100 * value:+.1f} pt"
    return f"{100 * value:.1f} %"


def table_lines(result: TuneResult) -> list[str]:
    """The table for the terminal and the Markdown file: best first."""
    fid = result.goal.finding
    lines = [
        f"{result.spec.id}, {result.players} players: {fid}, goal "
        f"{_fmt(fid, result.limit)} or less",
        "",
        "| change | rounds | " + fid + " | 95 % interval | new findings | meets |",
        "|---|---:|---:|---|---|---|",
    ]
    for v in [result.before, *result.variants]:
        ci = "-" if v.interval is None else (
            f"{_fmt(fid, v.interval[0])} to {_fmt(fid, v.interval[1])}"
        )  # fmt: skip
        new = ", ".join(v.new_findings) or "-"
        meets = "yes" if v.meets(result.limit) else "no"
        lines.append(
            f"| {v.label} | {v.rounds:,} | {_fmt(fid, v.figure)} | {ci} | {new} | {meets} |"
        )
    best = result.best
    lines.append("")
    confirmed = sum(v.confirmed for v in result.variants)
    if 0 < confirmed < len(result.variants):
        first = "The first change was" if confirmed == 1 else f"The first {confirmed} changes were"
        lines.append(
            f"{first} played again on more rounds (confirmed) and come first; the others "
            "were only screened on fewer rounds and are ranked among themselves."
        )
    if best is None:
        lines.append(_none_reason(result))
    else:
        lines.append(
            f"Best: {best.label}: {_fmt(fid, result.before.figure)} -> {_fmt(fid, best.figure)} "
            f"over {best.rounds:,} rounds, no new finding."
        )
        lines += [f"  rewrite with it: {t}" for t in best.texts]
    return lines


def _none_reason(result: TuneResult) -> str:
    fid = result.goal.finding
    close = [v for v in result.variants if v.figure is not None]
    if not close:
        return "No variant could be played."
    nearest = min(close, key=lambda v: v.figure or 0.0)
    why = (
        f"it raises {', '.join(nearest.new_findings)}"
        if nearest.new_findings
        else "its 95 % interval still reaches past the goal"
        if nearest.figure is not None and nearest.figure <= result.limit
        else "it is still over the goal"
    )
    cause = penalty_target(result.spec)
    return (
        f"No change of one or two parameters removes the finding: the nearest is "
        f"{nearest.label} at {_fmt(fid, nearest.figure)}, and {why}. "
        + (
            "The finding comes from how the game is built (its board and turn rules) more "
            "than from a number in the file; state a goal the game can meet (--goal "
            "{fid}<...) or change a rule the tuner does not vary."
            if cause is None
            else f"The file's scoring cannot carry its matches to their end: {say(cause, 'en')}."
        )
        + skilled_sentence(result)
    ).replace("{fid}", fid)


def skilled_sentence(result: TuneResult) -> str:
    """What the file gives with smart players in every seat, against the goal and
    against its figure with random bots: the rules or the bots?"""
    if result.skilled is None:
        return ""
    fid, random_figure = result.goal.finding, result.before.figure
    said = f" With smart players in every seat the file gives {_fmt(fid, result.skilled)}"
    if result.skilled <= result.limit:
        return said + ": the rest is how random bots play, not the rules."
    versus = f" (with random bots: {_fmt(fid, random_figure)})"
    if random_figure is not None and result.skilled >= random_figure:
        return said + versus + ", so it holds with skilled players too, and more strongly."
    return said + versus + ", so it holds with skilled players too, if less strongly."


def chart_svg(result: TuneResult) -> str:
    """A bar per variant (its figure with the interval) and the goal as a line."""
    fid = result.goal.finding
    rows = [result.before, *[v for v in result.variants if v.figure is not None]]
    width, bar_h, left = 980, 18, 440
    height = 60 + bar_h * len(rows) + 20
    top = max([result.limit, *[(v.interval or (0, v.figure or 0))[1] for v in rows]]) or 1.0
    lo = min([0.0, *[(v.interval or (v.figure or 0, 0))[0] for v in rows]])
    span = (top - lo) or 1.0

    def x(val: float) -> float:
        return left + (val - lo) / span * (width - left - 30)

    body = [
        f"<text x='{width / 2}' y='22' text-anchor='middle' font-size='15' font-weight='bold'>"
        f"{escape(result.spec.id)}, {result.players} players: {escape(fid)}</text>",
        f"<line x1='{x(result.limit):.1f}' y1='35' x2='{x(result.limit):.1f}' y2='{height - 15}' "
        "stroke='#d9822b' stroke-dasharray='4 3'/>",
        f"<text x='{x(result.limit) + 4:.1f}' y='45' fill='#d9822b'>goal</text>",
    ]
    for i, v in enumerate(rows):
        y = 55 + i * bar_h
        colour = "#3b6ea8" if v.meets(result.limit) else "#888888"
        body.append(
            f"<text x='{left - 6}' y='{y + 12}' text-anchor='end'>{escape(v.label[:72])}</text>"
        )
        fig = v.figure or 0.0
        body.append(
            f"<rect x='{x(min(0.0, fig)):.1f}' y='{y + 2}' width='{abs(x(fig) - x(0.0)):.1f}' "
            f"height='{bar_h - 6}' fill='{colour}'/>"
        )
        if v.interval is not None:
            a, b = x(v.interval[0]), x(v.interval[1])
            body.append(
                f"<line x1='{a:.1f}' y1='{y + 8}' x2='{b:.1f}' y2='{y + 8}' stroke='black'/>"
            )
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
        f"viewBox='0 0 {width} {height}' font-family='DejaVu Sans, sans-serif' "
        f"font-size='11'>\n<rect width='{width}' height='{height}' fill='white'/>\n"
        + "\n".join(body)
        + "\n</svg>\n"
    )


# ---------------------------------------------------------------- the ready file
def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} as TOML")


def patched_toml(text: str, changes: dict[str, Any]) -> str:
    """``text`` (a rules file) with the values of ``changes`` (``section.key``) replaced
    in place, or added under their section; everything else stays as written."""
    lines = text.splitlines()
    for dotted, value in changes.items():
        if dotted == DROP:
            lines = _drop_clauses(lines, set(value))
            continue
        section, key = dotted.split(".")
        start = next((i for i, ln in enumerate(lines) if ln.strip() == f"[{section}]"), None)
        if start is None:
            if value is not None:
                lines += ["", f"[{section}]", f"{key} = {_toml_value(value)}"]
            continue
        end = next(
            (i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")),
            len(lines),
        )
        pat = re.compile(rf"^\s*{re.escape(key)}\s*=")
        at = next((i for i in range(start + 1, end) if pat.match(lines[i])), None)
        if value is None:
            if at is not None:
                del lines[at]
        elif at is None:
            lines.insert(start + 1, f"{key} = {_toml_value(value)}")
        else:
            lines[at] = f"{key} = {_toml_value(value)}"
    out = "\n".join(lines) + "\n"
    tomllib.loads(out)  # what we write must parse
    return out


def _drop_clauses(lines: list[str], ids: set[str]) -> list[str]:
    """``lines`` without the ``[[clause]]`` blocks whose id is in ``ids``."""
    out: list[str] = []
    block: list[str] = []
    inside = False

    def flush() -> None:
        text = "\n".join(block)
        if not any(re.search(rf'^id\s*=\s*"{re.escape(i)}"', text, re.M) for i in ids):
            out.extend(block)

    for line in lines:
        header = line.strip().startswith("[")
        if header:
            if inside:
                flush()
                block = []
            inside = line.strip() == "[[clause]]"
        (block if inside else out).append(line)
    if inside:
        flush()
    return out
