"""The check report as Markdown, for people: verdict first, then one part per player count.

Takes the JSON-ready report of :func:`deckgen.rulecheck.report.build_report`; gives a
Markdown string. Pure; reads only the documented report keys.
"""

from __future__ import annotations

from typing import Any

from deckgen.rulecheck.ladder import ladder_markdown


def _pct(p: dict[str, Any] | None) -> str:
    if not p or p.get("share") is None:
        return "-"
    lo, hi = p["ci95"]
    return f"{100 * p['share']:.1f} % ({100 * lo:.1f}-{100 * hi:.1f})"


def _mean(m: dict[str, Any] | None, digits: int = 2) -> str:
    if not m or not m.get("n"):
        return "-"
    lo, hi = m["ci95"]
    return f"{m['mean']:.{digits}f} ({lo:.{digits}f}-{hi:.{digits}f})"


_PLURAL = {"round": "rounds", "match": "matches"}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def report_markdown(report: dict[str, Any]) -> str:
    """Render ``report`` as Markdown."""
    r = report["rules"]
    s = report["settings"]
    pt = report["playing_time"]
    out = [
        f"# Rules check: {r['name']['en']} ({r['id']})",
        "",
        f"**Verdict: {report['verdict']}** (exit code {report['exit_code']})",
        "",
    ]
    for reason in report["reasons"]:
        out.append(f"- {reason}")
    if report["reasons"]:
        out.append("")
    out += [
        f"Played {s['rounds']:,} rounds per player count and bot line-up "
        f"(bots: {', '.join(s['bots'])}; seed {s['seed']}; {s['workers']} workers; "
        f"{report['seconds']:.1f} s). Figures in brackets are 95 % confidence intervals.",
        "",
        f"Playing time assumes {pt['assumption']}.",
        "",
    ]
    for key, sec in report["players"].items():
        out += _players(key, sec)
        if sec.get("skill_ladder"):
            out += ladder_markdown(key, sec["skill_ladder"])
    return "\n".join(out).rstrip() + "\n"


def _players(key: str, sec: dict[str, Any]) -> list[str]:
    f = sec["feasibility"]
    out = [f"## {key} players", "", "### Feasibility", ""]
    out.append(
        f"{f['dealt']} of {f['tiles']} tiles are dealt ({f['hand_size']} each), "
        f"{f['stock']} form the stock (reserve {f['reserve']}), {f['dead']} stay out: "
        + ("the deal fits." if f["deal_fits"] else "**the deal does not fit**.")
    )
    out.append("")
    sits = f["opening"]["situations"]
    if sits:
        out += ["| situation | exact odds | what the file says |", "|---|---|---|"]
        for x in sits:
            says = x["file_says"] or ("(nothing: a gap)" if x["probability"] else "(cannot happen)")
            if x.get("expected_deals"):
                says += f" (on average {x['expected_deals']:.2f} deals per round)"
            out.append(
                f"| {_cell(x['what'])} | {x['probability']:.4g} ({x['exact']}) | {_cell(says)} |"
            )
        out.append("")
    t = sec["termination"]
    out += ["### Termination", ""]
    fixed = t["match_rounds_bound"]
    out.append(
        f"Longest round: {t['longest_round_turns']} turns (bound {t['round_turn_bound']}). "
        f"Longest match: {t['longest_match_rounds']} rounds "
        + (f"(fixed at {fixed})." if fixed else f"(the engine stops at {t['match_round_limit']}).")
        + (" OK." if t["ok"] else " **Not within its bounds.**")
    )
    out.append("")
    inv = sec["invariants"]
    out += ["### Invariants", ""]
    out.append(
        f"{inv['rounds_checked']:,} rounds played with every invariant checked after every "
        f"step: {len(inv['violations'])} violations."
    )
    for v in inv["violations"]:
        rec = f" Record: `{v['record']}`." if v.get("record") else ""
        out.append(f"- {v['kind']}: {v['message']} (`{v['reproduce']}`).{rec}")
    out.append("")
    cov = sec["coverage"]
    out += [
        "### Clause coverage",
        "",
        f"Reference engine: {cov['rounds_tried']:,} rounds in {cov['matches_tried']:,} matches.",
        "",
        "| clause | decided | share |",
        "|---|---|---|",
    ]
    for c in cov["clauses"]:
        share = "-" if c["share"] is None else f"{100 * c['share']:.2f} %"
        out.append(
            f"| `{c['id']}` | {c['decided']:,} of {c['of']:,} {_PLURAL[c['per']]} | {share} |"
        )
    out.append("")
    if cov["never_reached"]:
        out.append(
            f"Never reached in {cov['rounds_tried']:,} rounds: "
            + ", ".join(f"`{c}`" for c in cov["never_reached"])
            + "."
        )
        out.append("")
    out += ["### Gaps", ""]
    if not sec["gaps"]:
        out.append("None: every situation met was decided by a rule of the file.")
    for g in sec["gaps"]:
        ex = g["example"]
        where = ""
        if ex:
            where = f" Example: `{ex['reproduce']}`" + (
                f", record `{ex['record']}`." if ex.get("record") else "."
            )
        out.append(
            f"- `{g['situation']}`: {g['description']} ({g['events']:,} times in "
            f"{g['matches']:,} of {g['of_matches']:,} matches; the engine's fallback: "
            f"{g['fallback']}).{where}"
        )
    out.append("")
    out += ["### Statistics", ""]
    for label, st in sec["stats_by_bots"].items():
        out += _stats(label, st)
    return out


def _stats(label: str, st: dict[str, Any]) -> list[str]:
    e = st["round_end"]
    fair = 100 * st["first_player_fair_share"]
    fair_value = _pct(st["first_player_win_share"])
    rows = [
        ("turns per round", _mean(st["turns_per_round"])),
        ("draws per round", _mean(st["draws_per_round"])),
        ("passes per round", _mean(st["passes_per_round"])),
        ("round ends: a player goes out", _pct(e["out"])),
        ("round ends: blocked", _pct(e["blocked"])),
        ("round ends: stock down to the reserve", _pct(e["reserve"])),
        (f"rounds won by the starting player (fair: {fair:.1f} %)", fair_value),
        ("points per round of the winner", _mean(st["points_per_round"]["winner"])),
        ("rounds per match", _mean(st["rounds_per_match"])),
        ("minutes per match", _mean(st["playing_time_minutes"], 1)),
    ]
    for seat, p in st["wins_by_seat"].items():
        if p["count"]:
            who = {"none": "nobody", "shared": "several sides"}.get(seat, f"seat {seat}")
            rows.append((f"rounds won by {who}", _pct(p)))
    out = [
        f"Bots `{label}`, {st['rounds']:,} rounds in {st['matches']:,} matches "
        f"({'fast path' if st['path'] == 'fast' else 'reference engine'}):",
        "",
        "| figure | value (95 % CI) |",
        "|---|---|",
    ]
    out += [f"| {_cell(a)} | {b} |" for a, b in rows]
    out.append("")
    return out
