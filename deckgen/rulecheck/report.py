"""The check report: a versioned JSON document, the verdict and its exit code.

Takes a :class:`~deckgen.rulecheck.check.CheckResult`; gives the report as a
JSON-ready dict (schema ``deckgen-rules-check`` version :data:`REPORT_VERSION`,
documented in ``docs/rules-check.md``). :func:`verdict_of` reads the verdict:
``ok`` (exit 0), ``gaps`` (exit 3: situations the file does not decide),
``broken`` (exit 4: an engine invariant broke, a round or match did not end, a deal
does not fit).
"""

from __future__ import annotations

import shlex
from typing import Any

from deckgen.rulecheck.batchcount import fast_clauses
from deckgen.rulecheck.check import CheckResult, Run
from deckgen.rulecheck.diagnostics import diagnose_players
from deckgen.rulecheck.messages import said, say
from deckgen.rulecheck.metrics import metrics_of
from deckgen.rulecheck.reachability import why_never
from deckgen.rulecheck.severity import graded, worst
from deckgen.rulecheck.statics import spec_findings
from deckgen.rulecheck.stats import Mean, Proportion, wilson
from deckgen.rulecheck.tally import GapCount, PlayTally
from deckgen.rulespec import ENGINE_CLAUSES, RuleSpec

REPORT_FORMAT = "deckgen-rules-check"
REPORT_VERSION = 1
EXIT_CODES = {"ok": 0, "notice": 6, "warn": 5, "fail": 7, "gaps": 3, "broken": 4}
"""The verdict's exit code: the worst finding decides (docs/rules-check.md)."""
MATCH_ROUND_LIMIT = 1000
"""The engine ends a match that has not ended after this many rounds (a gap)."""
TERMINATION_GAPS = ("match.round_limit",)
"""Gap situations that mean the rules do not end: the verdict is ``broken``."""
MATCH_CLAUSES = ("match.end", "match.tie", "match.several_at_target")


def rules_ref(spec: RuleSpec) -> str:
    """How a command line names these rules: the id when bundled, else the path."""
    from deckgen.resources import rules_dir

    if spec.path is not None and spec.path.resolve().parent != rules_dir().resolve():
        return str(spec.path)
    return spec.id


def reproduce_command(spec: RuleSpec, players: int, bots: tuple[str, ...], seed: int) -> str:
    """The command that plays (and records) match ``seed`` again."""
    return shlex.join(
        [
            "deckgen", "rules", "play", rules_ref(spec), "--players", str(players),
            "--bots", ",".join(bots), "--seed", str(seed), "--record", "FILE.json",
        ]
    )  # fmt: skip


def round_turn_bound(spec: RuleSpec, players: int) -> int:
    """A bound on the turns of any round: every turn lays a tile, draws one, or is a
    pass without drawing, and at most ``players - 1`` such passes come between two lays
    before the round is blocked. So turns <= T lays + T draws + (n-1)(T+1) + 1. With
    trains a full circle of passes can open a train someone then plays on: up to
    ``2 players - 1`` passes between two lays."""
    tiles = len(spec.dset)
    between = 2 * players - 1 if spec.params.board.shape == "trains" else players - 1
    return 2 * tiles + between * (tiles + 1) + 1


def _ends(t: PlayTally) -> dict[str, Any]:
    out = {key: t.ends.share(key).to_json() for key in ("out", "blocked", "reserve")}
    not_out = Proportion(t.ends.total - t.ends.counts.get("out", 0), t.ends.total)
    out["not_out"] = not_out.to_json()
    return out


def _tally_shares(tally: Any, keys: list[str]) -> dict[str, Any]:
    return {k: tally.share(k).to_json() for k in keys}


def stats_json(run: Run) -> dict[str, Any]:
    """The statistics of one run (the keys the booklet prints are stable)."""
    t = run.stats
    ns = t.sides
    sides = [str(i) for i in range(ns)]
    minutes: Mean = t.match_minutes
    return {
        "bots": run.lineup,
        "path": run.path,
        "rounds": t.rounds,
        "matches": t.matches,
        "turns_per_round": t.turns.to_json(),
        "draws_per_round": t.draws.to_json(),
        "passes_per_round": t.passes.to_json(),
        "tiles_played_per_round": t.tiles_played.to_json(),
        "redeals_per_round": t.redeals.to_json(),
        "round_end": _ends(t),
        "wins_by_seat": _tally_shares(t.round_winner, [*sides, "shared", "none"]),
        "wins_from_starter": _tally_shares(t.winner_from_starter, sides),
        "first_player_win_share": t.starter_wins.to_json(),
        "first_player_fair_share": round(1 / ns, 5),
        "points_per_round": {
            "by_side": [m.to_json() for m in t.points],
            "winner": t.winner_points.to_json(),
        },
        "rounds_per_match": t.match_rounds.to_json(),
        "turns_per_match": t.match_turns.to_json(),
        "playing_time_minutes": minutes.to_json(),
        "match_winner": _tally_shares(t.match_winner, [*sides, "shared", "none"]),
        "stock_drained": Proportion(t.stock_drained, t.rounds if t.drawable else 0).to_json(),
        "drawable_tiles": t.drawable,
        "ties": Proportion(t.ties, t.rounds).to_json(),
        "lead_changes_per_match": t.lead_changes.to_json(),
        "decided_at": t.decided_at.to_json(),
        "turns_histogram": {str(k): v for k, v in sorted(t.turn_hist.items())},
        "decisions": run.decisions.to_json() if run.decisions else None,
    }


RELIABLE_FIGURES = (
    "playing_time_minutes",
    "first_player_win_share",
    "round_end.blocked",
    "round_end.not_out",
    "turns_per_round",
    "rounds_per_match",
)
"""The figures the booklet may print, each flagged ``reliable`` or not."""
RELIABLE_MIN = 1000
"""A figure needs at least this many rounds (or matches) behind it to be reliable."""
RELIABLE_SHARE_HALF = 0.03
"""... and a share a 95 % interval no wider than this either side ..."""
RELIABLE_MEAN_HALF = 0.05
"""... and a mean an interval no wider than this fraction of it either side."""


def reliability(st: dict[str, Any], broken: bool) -> dict[str, bool]:
    """Which of :data:`RELIABLE_FIGURES` are precise enough to print: enough rounds,
    a narrow interval, and rules that are not broken for this player count."""
    out: dict[str, bool] = {}
    for key in RELIABLE_FIGURES:
        node: Any = st
        for part in key.split("."):
            node = node.get(part, {}) if isinstance(node, dict) else {}
        ok = not broken
        if "share" in node:
            ci = node.get("ci95")
            ok = ok and node.get("of", 0) >= RELIABLE_MIN and bool(ci)
            ok = ok and (ci[1] - ci[0]) / 2 <= RELIABLE_SHARE_HALF
        else:
            ci = node.get("ci95")
            mean = node.get("mean")
            ok = ok and node.get("n", 0) >= min(RELIABLE_MIN, st["matches"]) and bool(ci)
            ok = ok and mean is not None and (ci[1] - ci[0]) / 2 <= RELIABLE_MEAN_HALF * abs(mean)
        out[key] = bool(ok)
    return out


def _example(spec: RuleSpec, run: Run, seed: int) -> dict[str, Any]:
    return {
        "seed": seed,
        "players": run.players,
        "bots": list(run.bots),
        "record": None,
        "reproduce": reproduce_command(spec, run.players, run.bots, seed),
    }


def _per_players(result: CheckResult, n: int, runs: list[Run]) -> dict[str, Any]:
    spec = result.spec
    stated = set(spec.clause_ids())
    decision = spec.decision_clause_ids()
    rounds_tried = sum(r.judge.engine_rounds for r in runs)
    matches_tried = sum(r.judge.matches for r in runs)
    fired_rounds: dict[str, int] = {}
    fired_matches: dict[str, int] = {}
    gaps: dict[str, tuple[GapCount, Run]] = {}
    failures: list[dict[str, Any]] = []
    longest_turns = 0.0
    longest_match = 0.0
    checked = 0
    for run in runs:
        for t in (run.judge, run.stats):
            if t.turns.count:
                longest_turns = max(longest_turns, t.turns.maximum)
                longest_match = max(longest_match, t.match_rounds.maximum)
        j = run.judge
        checked += j.invariant_rounds
        for cid, k in j.clause_rounds.items():
            fired_rounds[cid] = fired_rounds.get(cid, 0) + k
        for cid, k in j.clause_matches.items():
            fired_matches[cid] = fired_matches.get(cid, 0) + k
        for sit, gc in j.gaps.items():
            if sit in gaps:
                gaps[sit][0].merge(gc)
            else:
                gaps[sit] = (GapCount(gc.description, gc.fallback, 0, 0, -1), run)
                gaps[sit][0].merge(gc)
        for f in j.failures:
            failures.append({"kind": f.kind, "message": f.message, **_example(spec, run, f.seed)})
    # rules the engine applied that the file does not state are gaps too
    for cid in sorted(set(fired_rounds) | set(fired_matches)):
        if cid in ENGINE_CLAUSES and cid not in stated:
            k = fired_rounds.get(cid, 0) + fired_matches.get(cid, 0)
            gc = GapCount(
                f"the engine applied the rule '{ENGINE_CLAUSES[cid][1]}', which the file "
                "does not state",
                "the engine's built-in behaviour",
                k,
                0,
                -1,
            )
            gaps[f"unstated:{cid}"] = (gc, runs[0])
    # clause counts over every round played: the judge's rounds, plus the fast path's
    # rounds for the clauses it counts (the others: the judge's rounds alone)
    fast_ids = set(fast_clauses(spec))
    fast_runs = [r for r in runs if r.path == "fast"]
    clauses: list[dict[str, Any]] = []
    for cid in decision:
        is_match = cid in MATCH_CLAUSES
        k = fired_matches.get(cid, 0) if is_match else fired_rounds.get(cid, 0)
        of = matches_tried if is_match else rounds_tried
        counted = "reference"
        if not is_match and cid in fast_ids and fast_runs:
            k += sum(r.stats.clause_rounds.get(cid, 0) for r in fast_runs)
            of += sum(r.stats.rounds for r in fast_runs)
            counted = "every round" if len(fast_runs) == len(runs) else "fast and reference"
        low, high = wilson(k, of) if of else (0.0, 0.0)
        clauses.append(
            {
                "id": cid,
                "section": ENGINE_CLAUSES[cid][0],
                "decides": ENGINE_CLAUSES[cid][1],
                "per": "match" if is_match else "round",
                "decided": k,
                "of": of,
                "share": round(k / of, 6) if of else None,
                "ci95": [round(low, 6), round(high, 6)] if of else None,
                "counted_on": counted,
            }
        )
    for c in clauses:
        if c["decided"] == 0:
            c["never_reached"] = why_never(spec, n, c, result.feasibility[n])
    never = [c["id"] for c in clauses if c["decided"] == 0]
    gap_list = []
    for sit, (gc, run) in sorted(gaps.items()):
        gap_list.append(
            {
                "situation": sit,
                "description": gc.description,
                "fallback": gc.fallback,
                "events": gc.events,
                "matches": gc.matches,
                "of_matches": matches_tried,
                "share_of_matches": round(gc.matches / matches_tried, 6) if matches_tried else None,
                "example": _example(spec, run, gc.example_seed) if gc.example_seed >= 0 else None,
            }
        )
    bound = round_turn_bound(spec, n)
    m = spec.params.match
    fixed = m.rounds if m.end == "rounds" and m.tie != "play_on" else None
    round_limit = "match.round_limit" in gaps
    term_ok = (
        longest_turns <= bound and not round_limit and (fixed is None or longest_match <= fixed)
    )
    primary = runs[0]
    out: dict[str, Any] = {
        "players": n,
        "rounds": primary.stats.rounds,
        "feasibility": result.feasibility[n],
        "termination": {
            "round_turn_bound": bound,
            "longest_round_turns": int(longest_turns),
            "match_rounds_bound": fixed,
            "match_round_limit": MATCH_ROUND_LIMIT,
            "longest_match_rounds": int(longest_match),
            "every_match_ended": not round_limit,
            "ok": term_ok,
        },
        "invariants": {
            "rounds_checked": checked,
            "violations": failures,
        },
        "coverage": {
            "rounds_tried": rounds_tried,
            "matches_tried": matches_tried,
            "clauses": clauses,
            "never_reached": never,
        },
        "gaps": gap_list,
        "stats": stats_json(primary),
        "stats_by_bots": {r.lineup: stats_json(r) for r in runs},
    }
    broken = not term_ok or bool(failures) or not result.feasibility[n]["deal_fits"]
    o = result.options
    for st in [out["stats"], *out["stats_by_bots"].values()]:
        st["reliable"] = reliability(st, broken)
        st["metrics"] = metrics_of(st, o.seconds_per_turn, o.setup_seconds)
    out["metrics"] = out["stats"]["metrics"]
    out["warnings"] = diagnose_players(spec, n, out)
    out["skill_ladder"] = None
    return out


def reason_items(
    per: dict[str, dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """What breaks play and what the file leaves open, from the per-player sections:
    (broken, gaps), each a list of said items (:mod:`deckgen.rulecheck.messages`)."""
    broken: list[dict[str, Any]] = []
    gaps: list[dict[str, Any]] = []
    for key, sec in per.items():
        n = int(key)
        if not sec["feasibility"]["deal_fits"]:
            broken.append(said("reason.deal", n=n))
        for v in sec["invariants"]["violations"]:
            kind = said(f"failure.{v['kind']}")
            broken.append(
                said(
                    "reason.violation", n=n, kind=kind, seed=v["seed"], message=v["message"],
                    reproduce=v["reproduce"],
                )
            )  # fmt: skip
        term = sec["termination"]
        if not term["ok"]:
            broken.append(
                said(
                    "reason.termination",
                    n=n,
                    turns=term["longest_round_turns"],
                    rounds=term["longest_match_rounds"],
                )
            )
        for g in sec["gaps"]:
            sit = str(g["situation"])
            if sit in TERMINATION_GAPS:
                broken.append(
                    said(
                        "reason.round_limit",
                        n=n,
                        matches=g["matches"],
                        of=g["of_matches"],
                        limit=MATCH_ROUND_LIMIT,
                        situation=sit,
                    )
                )
                continue
            if sit.startswith("unstated:"):
                what = said("gap.unstated", clause=sit.split(":", 1)[1], what="")
            else:
                what = said(f"gap.{sit}")
            gaps.append(
                said(
                    "reason.gap",
                    n=n,
                    situation=sit,
                    events=g["events"],
                    description=g["description"],
                    what=what,
                )
            )
        for s in sec["feasibility"]["opening"]["situations"]:
            if not s["always_decided"]:
                gaps.append(
                    said("reason.opening", n=n, situation=s["situation"], p=s["probability"])
                )
    return broken, gaps


def verdict_of(
    per: dict[str, dict[str, Any]], warnings: list[dict[str, Any]] | None = None
) -> tuple[str, list[str]]:
    """(``ok`` | ``notice`` | ``warn`` | ``fail`` | ``gaps`` | ``broken``, the reasons)
    from the per-player sections and the graded findings: gaps and broken play come
    first; otherwise the worst finding's severity is the verdict."""
    broken_items, gap_items = reason_items(per)
    broken = [say(item, "en") for item in broken_items]
    gaps = [say(item, "en") for item in gap_items]
    if broken:
        return "broken", broken + gaps
    if gaps:
        return "gaps", gaps
    level = worst(graded(list(warnings or [])))
    if level is not None and warnings:
        order = ("fail", "warn", "notice")
        ranked = sorted(warnings, key=lambda w: order.index(w["severity"]))
        return level, [f"{w['severity']}: {w['message']}" for w in ranked]
    return "ok", []


def add_findings(report: dict[str, Any], findings: list[dict[str, Any]]) -> None:
    """Add ``findings`` made after the report was built (graded here) and read the
    verdict again, in place."""
    if not findings:
        return
    report["warnings"] += graded(findings)
    verdict, reasons = verdict_of(report["players"], report["warnings"])
    report["verdict"] = verdict
    report["reasons"] = reasons
    report["exit_code"] = EXIT_CODES[verdict]


def build_report(result: CheckResult) -> dict[str, Any]:
    """The JSON-ready report of a check run."""
    spec = result.spec
    o = result.options
    counts = sorted({r.players for r in result.runs})
    per = {
        str(n): _per_players(result, n, [r for r in result.runs if r.players == n]) for n in counts
    }
    # what the file says before any play (found while the workers played, or now)
    said_before = result.said_before if result.said_before is not None else spec_findings(spec)
    warnings = [dict(f) for f in said_before]
    dead = {f["param"] for f in warnings if f["id"] == "dead_clause" and f.get("param")}
    for sec in per.values():
        sec["warnings"] = [
            w for w in sec["warnings"]
            if not (w["id"] == "dead_clause" and any(f"rule {c} " in w["message"] for c in dead))
        ]  # fmt: skip
        warnings += sec["warnings"]
    verdict, reasons = verdict_of(per, graded(warnings))
    never_anywhere = [
        cid
        for cid in spec.decision_clause_ids()
        if all(cid in sec["coverage"]["never_reached"] for sec in per.values())
    ]
    return {
        "format": REPORT_FORMAT,
        "version": REPORT_VERSION,
        "rules": {
            "id": spec.id,
            "sha256": spec.sha256,
            "path": str(spec.path) if spec.path else None,
            "name": {"en": spec.name("en"), "de": spec.name("de")},
        },
        "settings": {
            "rounds": o.rounds,
            "players": counts,
            "bots": list(o.bots),
            "seed": o.seed,
            "workers": result.workers,
            "fast_path": o.fast,
        },
        "playing_time": {
            "seconds_per_turn": o.seconds_per_turn,
            "setup_seconds_per_round": o.setup_seconds,
            "assumption": (
                f"{o.seconds_per_turn:g} s for every turn (a tile laid, or the draws and a "
                f"pass) and {o.setup_seconds:g} s per round to shuffle, deal and count"
            ),
        },
        "verdict": verdict,
        "exit_code": EXIT_CODES[verdict],
        "reasons": reasons,
        "warnings": warnings,
        "never_reached": never_anywhere,
        "seconds": round(result.seconds, 3),
        "players": per,
    }
