"""The check report as Markdown, for people: verdict first, then one part per player count.

Takes the JSON-ready report of :func:`deckgen.rulecheck.report.build_report`; gives a
Markdown string. Pure; reads only the documented report keys.
"""

from __future__ import annotations

from typing import Any

from deckgen.engine.seatnames import seat_name
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


def report_markdown(report: dict[str, Any], charts: dict[str, dict[str, str]] | None = None) -> str:
    """Render ``report`` as Markdown: the verdict and every warning first, then the
    metrics (with the charts named in ``charts``: player count -> chart -> file name),
    then the details per player count."""
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
    warnings = report.get("warnings", [])
    if warnings and report["verdict"] in ("gaps", "broken"):
        out += ["Findings:", ""]
        out += [f"- {w.get('severity', 'warn')}: {w['message']}" for w in warnings]
        out.append("")
    out += [
        f"Played {s['rounds']:,} rounds per player count and bot line-up "
        f"(bots: {', '.join(s['bots'])}; seed {s['seed']}; {s['workers']} workers; "
        f"{report['seconds']:.1f} s). Figures in brackets are 95 % confidence intervals.",
        "",
        f"Playing time assumes {pt['assumption']}.",
        "",
    ]
    out += _metrics(report, charts or {})
    for key, sec in report["players"].items():
        out += _players(key, sec)
        if sec.get("skill_ladder"):
            out += ladder_markdown(key, sec["skill_ladder"])
    return "\n".join(out).rstrip() + "\n"


def _num(x: Any, fmt: str = ".2f") -> str:
    return "-" if x is None else format(x, fmt)


def _pc(x: Any) -> str:
    return "-" if x is None else f"{100 * x:.1f} %"


def _metrics(report: dict[str, Any], charts: dict[str, dict[str, str]]) -> list[str]:
    """The metrics table (one column per player count) and the charts."""
    per = report["players"]
    if not per or not all("metrics" in sec for sec in per.values()):
        return []
    keys = list(per)
    ms = [per[k]["metrics"] for k in keys]

    def adv(m: dict[str, Any], kind: str) -> str:
        seats = ", ".join(
            f"{seat_name(s)}: {100 * v:+.1f}" for s, v in m["advantage"][kind].items()
        )
        p = m["advantage"].get("p_values", {}).get(kind)
        return seats + ("" if p is None else f" (p = {p:.2g})")

    def spread(d: dict[str, Any], fmt: str) -> str:
        return f"{_num(d['mean'], fmt)} ± {_num(d['stdev'], fmt)}"

    def dur(key: str, fmt: str) -> list[str]:
        return [spread(m["duration"][key], fmt) for m in ms]

    rows = [
        ("advantage per seat, rounds (points above fair)", [adv(m, "rounds") for m in ms]),
        ("advantage per seat, matches (points above fair)", [adv(m, "matches") for m in ms]),
        ("advantage of the starting player (points above fair)", [
            f"{100 * m['advantage']['starter']:+.1f}"
            + (f" (p = {m['advantage']['p_values']['starter']:.2g})"
               if "p_values" in m["advantage"] else "")
            for m in ms
        ]),
        ("balance of seats, rounds / matches", [
            f"{_num(m['balance']['rounds'], '.3f')} / {_num(m['balance']['matches'], '.3f')}"
            for m in ms
        ]),
        ("completion (matches with one winner)", [_pc(m["completion"]) for m in ms]),
        ("drawishness: rounds / matches without one winner", [
            f"{_pc(m['drawishness']['rounds'])} / {_pc(m['drawishness']['matches'])}" for m in ms
        ]),
        ("rounds ending blocked", [_pc(m["drawishness"]["blocked_rounds"]) for m in ms]),
        ("turns per round (mean ± sd)", dur("turns_per_round", ".1f")),
        ("minutes per round (mean ± sd)", dur("minutes_per_round", ".1f")),
        ("turns per match (mean ± sd)", dur("turns_per_match", ".0f")),
        ("minutes per match (mean ± sd)", dur("minutes_per_match", ".0f")),
        ("decision moves (turns with a real choice)", [_pc(m["decision_moves"]) for m in ms]),
        ("branching factor (distinct moves a turn)", [_num(m["branching_factor"]) for m in ms]),
        ("lead changes per match", [_num(m["lead_changes_per_match"]) for m in ms]),
        ("decisiveness (share of a match until the winner leads for good)", [
            _num(m["decisiveness"]) for m in ms
        ]),
    ]  # fmt: skip
    out = [
        "## Metrics",
        "",
        f"Bots `{per[keys[0]]['stats']['bots']}`; definitions in docs/rules-check.md.",
        "",
        "| metric | " + " | ".join(f"{k} players" for k in keys) + " |",
        "|---|" + "---|" * len(keys),
    ]
    out += [f"| {_cell(a)} | " + " | ".join(_cell(v) for v in vals) + " |" for a, vals in rows]
    out.append("")
    for k in keys:
        files = charts.get(k, {})
        if files:
            out += [f"### Charts, {k} players", ""]
            out += [f"![{name}]({fname})" for name, fname in files.items()]
            out.append("")
    return out


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
    every = max((c["of"] for c in cov["clauses"] if c["per"] == "round"), default=0)
    out += [
        "### Clause coverage",
        "",
        f"Reference engine: {cov['rounds_tried']:,} rounds in {cov['matches_tried']:,} matches"
        + (
            f"; with the fast path's rounds: {every:,} rounds."
            if every > cov["rounds_tried"]
            else "."
        ),
        "",
        "Clauses marked *every round* are counted over every round played (the fast "
        "path's and the reference engine's); the others over the reference engine's.",
        "",
        "| clause | decided | share | counted on |",
        "|---|---|---|---|",
    ]
    for c in cov["clauses"]:
        share = "-" if c["share"] is None else f"{100 * c['share']:.3g} %"
        why = c.get("never_reached")
        if why:
            share = _cell(why["text"])
        out.append(
            f"| `{c['id']}` | {c['decided']:,} of {c['of']:,} {_PLURAL[c['per']]} | {share} "
            f"| {c.get('counted_on', 'reference')} |"
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
            who = {"none": "nobody", "shared": "several sides"}.get(seat) or seat_name(seat)
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
