"""Is it the rules or the bots? Design findings replayed with skilled players.

Takes a check report and the check's options; plays every player count that has a
design finding of ``warn`` or worse again with the ``smart`` bot in every seat (about
16,000 turns per count for a check of up to 30,000 rounds, up to four times as many for
a larger one; on the reference engine) and measures each finding's figure again (a
notice calls nothing a design problem, so it is not replayed). A finding that holds
says so and is graded by the skilled figure's lower 95 % bound, what skilled play surely
gives (never above its grade with random bots); one that vanishes is a notice and says
"with random bots only": nothing in the rules needs changing for players who play well,
so it is never graded above one that holds (a ``fail`` made one step milder used to
stay a ``warn`` while a finding that held just over its limit became a notice). The
skilled figure is said with its 95 % interval; where the interval holds the finding's
limit, a few hundred rounds cannot tell whether skilled play stays over it, and the
finding says so instead (``close``; graded as above). The verdict is read again
afterwards.

Random bots block roads a player would keep open (Chicken Foot blocks about 80 % of
two-player rounds with them): a designer must not change a rule for that.
"""

from __future__ import annotations

import math
from typing import Any

from deckgen.rulecheck.messages import said, say
from deckgen.rulecheck.severity import DESIGN, LEVELS, VANISHED, grade
from deckgen.rulespec import RuleSpec

CONFIRM_TURNS = 16_000
CONFIRM_MIN, CONFIRM_MAX = 200, 2_000
"""Turns and rounds of skilled play per player count for a check of up to
:data:`CONFIRM_SCALE_ROUNDS` rounds ..."""
CONFIRM_SCALE_ROUNDS = 30_000
CONFIRM_SCALE_MAX = 4.0
"""... and up to this many times as much for a larger check, in proportion to its rounds
(the default 100,000: 3.3 times; Chicken Foot's two-player figure then comes within
about 3 points instead of 5): a large check is asked for a sharp answer, a small one for
a quick one."""
SKILLED = "smart"


def confirm_rounds(turns_per_round: float | None, check_rounds: int | None = None) -> int:
    """Rounds of skilled play for one player count: about :data:`CONFIRM_TURNS` turns, more
    for a check of more than :data:`CONFIRM_SCALE_ROUNDS` rounds (``check_rounds``)."""
    scale = 1.0
    if check_rounds:
        scale = min(CONFIRM_SCALE_MAX, max(1.0, check_rounds / CONFIRM_SCALE_ROUNDS))
    if not turns_per_round:
        return int(CONFIRM_MIN * scale)
    rounds = scale * CONFIRM_TURNS / turns_per_round
    return int(min(scale * CONFIRM_MAX, max(CONFIRM_MIN, rounds)))


SHARES = ("stock_drained", "ties", "blocked", "no_winner")
"""Findings whose figure is a share of rounds (a proportion node: ``count`` of ``of``)."""


def _node(fid: str, sec: dict[str, Any]) -> tuple[dict[str, Any] | None, float] | None:
    """The statistics node behind a rate or mean finding and what its figure is divided
    by (None: a seat's edge, measured otherwise)."""
    st = sec["stats"]
    if fid == "draw_heavy":  # draws per round against the tiles dealt
        dealt = sec["feasibility"]["dealt"]
        return (st["draws_per_round"], float(dealt)) if dealt else (None, 1.0)
    if fid in ("stock_drained", "ties"):
        return st.get(fid), 1.0
    if fid in ("blocked", "no_winner"):
        return st["round_end"]["blocked" if fid == "blocked" else "not_out"], 1.0
    if fid in ("playing_time", "match_time"):
        return st["playing_time_minutes"], 1.0
    return None


def measure(fid: str, sec: dict[str, Any]) -> float | None:
    """The figure behind finding ``fid`` in a per-player section of a report."""
    st = sec["stats"]
    found = _node(fid, sec)
    if found is not None:
        node, per = found
        if not node:
            return None
        if fid in SHARES:
            return float(node["share"] or 0.0) if node["of"] else None
        mean = node.get("mean")
        return None if mean is None else float(mean) / per
    if fid == "first_player":
        node = st["first_player_win_share"]
        if not node["of"]:
            return None
        return float(node["share"] or 0.0) - float(st["first_player_fair_share"])
    if fid == "seat_match":
        fair = float(st["first_player_fair_share"])
        sides = round(1 / fair)
        counts = [int(st["match_winner"].get(str(s), {}).get("count", 0)) for s in range(sides)]
        won = sum(counts)
        return None if not won else max(counts) / won - 1 / sides
    return None


def interval(fid: str, sec: dict[str, Any]) -> tuple[float, float] | None:
    """The 95 % interval of :func:`measure`'s figure in a per-player section (None where
    the report gives none: a seat's edge, which is judged by a test instead)."""
    found = _node(fid, sec)
    if found is None:
        return None
    node, per = found
    ci = node.get("ci95") if node else None
    if not ci or any(math.isnan(float(x)) for x in ci):
        return None
    return (float(ci[0]) / per, float(ci[1]) / per)


def skilled_section(
    spec: RuleSpec, players: int, rounds: int, seed: int, workers: int = 1
) -> dict[str, Any]:
    """The report section of ``players`` players with the skilled bot in every seat
    (played on ``workers`` processes)."""
    from deckgen.rulecheck.check import CheckOptions, run_check
    from deckgen.rulecheck.report import build_report

    opts = CheckOptions(
        rounds=rounds,
        players=(players,),
        bots=(SKILLED,),
        seed=seed,
        workers=workers,
        fast=False,
        invariant_rounds=0,  # the check itself ran them: here only the figures count
    )
    section: dict[str, Any] = build_report(run_check(spec, opts))["players"][str(players)]
    return section


def confirm(
    report: dict[str, Any], spec: RuleSpec, *, seed: int = 0, workers: int | None = None
) -> None:
    """Replay the design findings of ``report`` with skilled players, in place (the
    player counts side by side on ``workers`` processes)."""
    import os

    from deckgen.rulecheck.check import _executor
    from deckgen.rulecheck.report import EXIT_CODES, verdict_of

    design = [
        w for w in report["warnings"]
        if w["id"] in DESIGN and w.get("players") and w.get("severity") != "notice"
    ]  # fmt: skip
    counts = sorted({int(w["players"]) for w in design})
    rounds_of = {
        n: confirm_rounds(
            report["players"][str(n)]["stats"]["turns_per_round"].get("mean"),
            report.get("settings", {}).get("rounds"),
        )
        for n in counts
    }
    cores = workers or os.cpu_count() or 1
    pool_size = min(cores, len(counts))
    each = max(1, cores // max(1, len(counts)))  # one count alone takes every core
    with _executor(pool_size) as pool:
        futures = {
            n: pool.submit(
                skilled_section, spec, n, rounds_of[n], seed, each if pool_size == 1 else 1
            )
            for n in counts
        }
        sections = {n: f.result() for n, f in futures.items()}
    for n in counts:
        skilled, rounds = sections[n], rounds_of[n]
        for w in design:
            if int(w["players"]) != n:
                continue
            value = measure(w["id"], skilled)
            limit = w.get("threshold")
            span = None
            if w["id"] in ("first_player", "seat_match"):
                # a few hundred matches cannot measure a seat's edge per match: the
                # cause is measured instead, the starting player's edge per round
                value = measure("first_player", skilled)
                holds = value is not None and _starter_edge(skilled)
            else:
                holds = value is not None and (limit is None or value > float(limit))
                span = interval(w["id"], skilled)
            # a few hundred skilled rounds: when the figure's interval holds the limit,
            # the check says it cannot tell (and grades as the figure says)
            close = span is not None and limit is not None and span[0] <= float(limit) <= span[1]
            w["skilled"] = {
                "bots": SKILLED,
                "rounds": rounds,
                "value": None if value is None else round(value, 5),
                "interval": None if span is None else [round(span[0], 5), round(span[1], 5)],
                "holds": holds,
                "close": close,
            }
            shown = None if value is None else _fmt(value, w, span)
            if holds and value is not None:
                if w["id"] not in ("first_player", "seat_match"):
                    # graded by what skilled play surely gives, the interval's lower end:
                    # a few hundred rounds do not move the grade across a step
                    surely = value if span is None else span[0]
                    w["severity"] = min(
                        w["severity"], grade({**w, "value": surely}), key=LEVELS.index
                    )
                told = said("skilled.holds", bots=SKILLED, value=shown)
            else:
                w["severity"] = VANISHED
                told = said("skilled.random", shown="")
                if shown is not None:
                    told = said("skilled.random", shown=said("skilled.shown", bots=SKILLED,
                                                             value=shown))  # fmt: skip
            if close:
                told = said("skilled.close", bots=SKILLED, value=shown, rounds=rounds)
            w["skilled"]["text"] = told
            w["message"] += say(told, "en")
    verdict, reasons = verdict_of(report["players"], report["warnings"])
    report["verdict"] = verdict
    report["reasons"] = reasons
    report["exit_code"] = EXIT_CODES[verdict]


def _starter_edge(sec: dict[str, Any]) -> bool:
    """Whether the starting player wins significantly more rounds than a fair share."""
    from deckgen.rulecheck.diagnostics import z_upper

    st = sec["stats"]
    node = st["first_player_win_share"]
    return (
        bool(node["of"])
        and z_upper(int(node["count"]), int(node["of"]), float(st["first_player_fair_share"]))
        < 0.05
    )


def _fmt(
    value: float, w: dict[str, Any], span: tuple[float, float] | None = None
) -> dict[str, Any]:
    """The skilled figure as said, with its 95 % interval where there is one."""
    if w["id"] in ("first_player", "seat_match"):
        return said("skilled.starter", v=100 * value)
    if w["id"] in ("playing_time", "match_time"):
        key, scale = "skilled.minutes", 1.0
    elif w["id"] == "draw_heavy":
        key, scale = "skilled.times", 1.0
    else:
        key, scale = "skilled.pct", 100.0
    if span is None:
        return said(key, v=scale * value)
    return said(key + "_in", v=scale * value, lo=scale * span[0], hi=scale * span[1])
