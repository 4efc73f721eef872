"""Design diagnostics: what a playtester would object to, as warnings with thresholds.

Takes the rules and the report's per-player sections (statistics, coverage,
feasibility); gives a list of warnings, each a JSON-ready dict ``{"id", "players",
"message", "value", "threshold", "p_value"}``. Thresholds come from the rules file's
optional ``[check]`` section, else from :data:`DEFAULTS` (documented in
``docs/rules-check.md``). A warning makes the verdict ``warn`` (exit 5) unless the
file has gaps or is broken.

The diagnostics: draw-heavy rounds, rounds that drain a stock meant to last, matches
far longer than the file's playing-time promise, high block and tie rates, an
advantage of the starting player per round and of a seat per match (each with a
significance test), rules that almost never decide anything (or can never), and
clause texts that name parameter values the file does not have.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from deckgen.engine.seatnames import seat_number
from deckgen.rulecheck.messages import said, say
from deckgen.rulecheck.reachability import proof_of, unseen_bound
from deckgen.rulespec import RuleSpec
from deckgen.rulespec.clauses import (
    CLAUSE_PARAMS,
    NUMERIC_PARAMS,
    SUMMARY_VALUE_KEYS,
    VALUE_WORDS,
    WHOLE_WORD_KEYS,
)

WarningId = Literal[
    "draw_heavy",
    "stock_drained",
    "playing_time",
    "blocked",
    "ties",
    "first_player",
    "seat_match",
    "rare_clause",
    "dead_clause",
    "clause_params",
    "no_winner",
    "match_time",
    "text_number",
    "text_tile",
    "text_set",
    "text_languages",
    "text_untranslated",
]

DEFAULTS: dict[str, float] = {
    "playing_time_tolerance": 1.5,
    "draws_per_dealt_max": 2.0,
    "stock_drained_max": 0.10,
    "blocked_max_drawing": 0.25,
    "blocked_max_block_game": 0.75,
    "tie_max": 0.05,
    "first_player_excess_max": 0.10,
    "seat_match_excess_max": 0.01,
    "significance": 0.01,
    "clause_share_min": 0.001,
    "not_out_max": 0.40,
    "match_minutes_max": 240.0,
}
"""Default thresholds (``blocked_max`` has one for games where players draw and one for
block games, where a blocked round is the usual end)."""

FALLBACK_CLAUSES = frozenset(
    {"start.no_double", "setup.redeal", "score.tie", "match.tie", "match.several_at_target"}
)
"""Clauses for rare situations that a file must still decide: never "almost never"."""


def limit(spec: RuleSpec, name: str) -> float:
    """The threshold ``name`` from the file's ``[check]`` section or the default."""
    value = getattr(spec.params.check, name, None)
    if value is not None:
        return float(value)
    if name == "blocked_max":
        draws = spec.params.turn.draw != "none" and spec.params.deal.rest == "stock"
        return DEFAULTS["blocked_max_drawing" if draws else "blocked_max_block_game"]
    return DEFAULTS[name]


# ---------------------------------------------------------------- significance tests
def z_upper(hits: int, trials: int, p0: float) -> float:
    """One-sided p-value that the true share exceeds ``p0`` (normal approximation)."""
    if trials == 0 or not 0 < p0 < 1:
        return 1.0
    z = (hits - trials * p0) / math.sqrt(trials * p0 * (1 - p0))
    return 0.5 * math.erfc(z / math.sqrt(2))


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom (df >= 1)."""
    if x <= 0:
        return 1.0
    if df % 2 == 0:  # exp(-x/2) * sum_{k < df/2} (x/2)^k / k!
        term = total = math.exp(-x / 2)
        for k in range(1, df // 2):
            term *= (x / 2) / k
            total += term
        return min(1.0, total)
    total = math.erfc(math.sqrt(x / 2))
    term = math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    for k in range(1, (df + 1) // 2):
        total += term
        term *= x / (2 * k + 1)
    return min(1.0, total)


def equal_chances(counts: list[int]) -> float:
    """p-value of the chi-square test that every side has the same chance."""
    n = sum(counts)
    k = len(counts)
    if n == 0 or k < 2:
        return 1.0
    e = n / k
    x = sum((c - e) ** 2 / e for c in counts)
    return chi2_sf(x, k - 1)


def start_rotation(spec: RuleSpec, players: int) -> list[int] | None:
    """Rounds each side starts in a match, when the rules fix it (seat 0 starts round
    1, then the next seat, for a fixed number of rounds); None when chance decides."""
    p = spec.params
    if p.opening.first_starter != "seat" or p.match.end != "rounds" or not p.match.rounds:
        return None
    if p.opening.later_starter != "next_seat":
        return None
    sides = spec.teams(players)
    side_of = {seat: i for i, members in enumerate(sides) for seat in members}
    starts = [0] * len(sides)
    for k in range(p.match.rounds):
        starts[side_of[k % players]] += 1
    return starts


# ---------------------------------------------------------------- the diagnostics
def _warn(
    wid: WarningId,
    players: int | None,
    text: dict[str, Any],
    value: float | None = None,
    threshold: float | None = None,
    p_value: float | None = None,
) -> dict[str, Any]:
    """A finding: its ``message`` in English and, as ``text``, the template's key and
    figures that give it in any language (:mod:`deckgen.rulecheck.messages`)."""
    return {
        "id": wid,
        "players": players,
        "message": say(text, "en"),
        "value": None if value is None else round(value, 5),
        "threshold": threshold,
        "p_value": None if p_value is None else float(f"{p_value:.3g}"),
        "text": text,
    }


def finding(
    wid: WarningId,
    text: dict[str, Any],
    *,
    where: str | None = None,
    param: str | None = None,
    players: int | None = None,
) -> dict[str, Any]:
    """A finding about what the file says (no measured figure): where it is (a text:
    ``clause play.draw``) and the parameter or clause it names, when known."""
    return {**_warn(wid, players, text), "where": where, "param": param}


def _pace(st: dict[str, Any]) -> dict[str, Any]:
    turns = st.get("turns_per_round", {}).get("mean")
    return said("pace.turns", turns=turns) if turns else said("pace.assumed")


def _side(label: str, index: int) -> dict[str, Any]:
    """A seat or team by its 0-based index (``seat 1``), as a said item."""
    return said(f"side.{label}", number=seat_number(index))


def _share(node: dict[str, Any]) -> tuple[int, int, float]:
    return int(node["count"]), int(node["of"]), float(node["share"] or 0.0)


def diagnose_players(spec: RuleSpec, n: int, sec: dict[str, Any]) -> list[dict[str, Any]]:
    """The warnings of one player count (its first bot line-up's statistics)."""
    out: list[dict[str, Any]] = []
    st = sec["stats"]
    f = sec["feasibility"]
    rounds = int(st["rounds"])
    # draw-heavy
    draws = st["draws_per_round"].get("mean")
    if draws is not None and f["dealt"]:
        ratio = draws / f["dealt"]
        lim = limit(spec, "draws_per_dealt_max")
        if ratio > lim:
            out.append(_warn(
                "draw_heavy", n,
                said("draw_heavy", n=n, draws=draws, ratio=ratio, dealt=f["dealt"], limit=lim),
                ratio, lim,
            ))  # fmt: skip
    # a stock meant to last is drawn empty
    drained = st.get("stock_drained")
    meant_to_last = f["drawable"] >= 2 * f["dealt"] and not f["reserve"]
    if drained and drained["of"] and meant_to_last:
        k, of, share = _share(drained)
        lim = limit(spec, "stock_drained_max")
        if share > lim:
            out.append(_warn(
                "stock_drained", n,
                said("stock_drained", n=n, pct=100 * share, drawable=f["drawable"], k=k, of=of,
                     pct_limit=100 * lim),
                share, lim,
            ))  # fmt: skip
    # playing time against the file's promise
    promise = spec.params.check.playing_time_minutes
    minutes = st["playing_time_minutes"].get("mean")
    if promise is not None and minutes is not None:
        tol = limit(spec, "playing_time_tolerance")
        if minutes > promise * tol:
            out.append(_warn(
                "playing_time", n,
                said("playing_time", n=n, minutes=minutes, tol=tol, promise=promise),
                minutes, promise * tol,
            ))  # fmt: skip
    if minutes is not None and minutes > DEFAULTS["match_minutes_max"]:
        out.append(_warn(
            "match_time", n,
            said("match_time", n=n, minutes=minutes, hours=minutes / 60, pace=_pace(st),
                 max_hours=DEFAULTS["match_minutes_max"] / 60),
            minutes, DEFAULTS["match_minutes_max"],
        ))  # fmt: skip
    # rounds nobody wins by going out (what players notice even if no rule is wrong)
    not_out = st["round_end"].get("not_out")
    if not_out and not_out["of"]:
        k, of, share = _share(not_out)
        lim = limit(spec, "not_out_max")
        if share > lim:
            out.append(_warn(
                "no_winner", n, said("no_winner", n=n, pct=100 * share, pct_limit=100 * lim),
                share, lim,
            ))  # fmt: skip
    # blocked rounds and ties
    k, of, share = _share(st["round_end"]["blocked"])
    lim = limit(spec, "blocked_max")
    if of and share > lim:
        out.append(_warn(
            "blocked", n, said("blocked", n=n, pct=100 * share, pct_limit=100 * lim),
            share, lim,
        ))  # fmt: skip
    ties = st.get("ties")
    if ties and ties["of"]:
        k, of, share = _share(ties)
        lim = limit(spec, "tie_max")
        if share > lim:
            out.append(_warn(
                "ties", n, said("ties", n=n, pct=100 * share, pct_limit=100 * lim), share, lim,
            ))  # fmt: skip
    out += _seat_advantage(spec, n, st)
    out += _rare_clauses(spec, n, sec, rounds)
    return out


def _seat_advantage(spec: RuleSpec, n: int, st: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    alpha = limit(spec, "significance")
    fair = float(st["first_player_fair_share"])
    k, of, share = _share(st["first_player_win_share"])
    p_round = z_upper(k, of, fair)
    lim = limit(spec, "first_player_excess_max")
    if of and share - fair > lim and p_round < alpha:
        out.append(_warn(
            "first_player", n,
            said("first_player", n=n, pct=100 * share, excess=100 * (share - fair),
                 fair=100 * fair, pct_limit=100 * lim, p=p_round),
            share - fair, lim, p_round,
        ))  # fmt: skip
    # per match: the seats' shares of the matches with one winner
    sides = round(1 / fair)
    mw = st["match_winner"]
    counts = [int(mw.get(str(s), {}).get("count", 0)) for s in range(sides)]
    won = sum(counts)
    if won == 0:
        return out
    p_match = equal_chances(counts)
    best = max(range(sides), key=lambda s: counts[s])
    excess = counts[best] / won - 1 / sides
    mlim = limit(spec, "seat_match_excess_max")
    rotation = start_rotation(spec, n)
    uneven = rotation is not None and len(set(rotation)) > 1
    label = "team" if sides < n else "seat"  # partners only where a side has several seats
    if excess > mlim and p_match < alpha:
        why = said("why.test", p=p_match, won=won)
        if uneven and rotation is not None:
            why = said("why.rotation", p=p_match, won=won, sides=said(f"sides.{label}"),
                       rotation=rotation)  # fmt: skip
        out.append(_warn(
            "seat_match", n,
            said("seat_match.excess", n=n, side=_side(label, best),
                 pct=100 * counts[best] / won, excess=100 * excess, fair=100 / sides, why=why),
            excess, mlim, p_match,
        ))  # fmt: skip
    elif uneven and rotation is not None and share > fair and p_round < alpha:
        most = max(range(sides), key=lambda s: rotation[s])
        out.append(_warn(
            "seat_match", n,
            said("seat_match.rotation", n=n, side=_side(label, most), starts=rotation[most],
                 total=sum(rotation), sides=said(f"sides.{label}"), rotation=rotation,
                 pct=100 * share, fair=100 * fair, p_round=p_round,
                 measured=100 * counts[most] / won, won=won, fair_match=100 / sides,
                 p_match=p_match),
            counts[most] / won - 1 / sides, mlim, p_round,
        ))  # fmt: skip
    return out


def applies_at(spec: RuleSpec, n: int, cid: str) -> bool:
    """Whether clause ``cid`` can decide anything with ``n`` players at all: the
    partnership clause only where the file forms partners at that count (All Fives:
    pairs at 4, everyone alone at 2 and 3), so its silence elsewhere is no warning."""
    if cid == "setup.teams":
        return len(spec.teams(n)[0]) > 1
    return True


def _rare_clauses(spec: RuleSpec, n: int, sec: dict[str, Any], rounds: int) -> list[dict[str, Any]]:
    lim = limit(spec, "clause_share_min")
    rare: list[dict[str, Any]] = []
    out: list[dict[str, Any]] = []
    for c in sec["coverage"]["clauses"]:
        cid = c["id"]
        if cid in FALLBACK_CLAUSES or not c["of"] or not applies_at(spec, n, cid):
            continue
        proof = proof_of(spec, n, cid, sec["feasibility"])
        if c["decided"] == 0 and proof is not None:
            out.append(_warn(
                "dead_clause", n, said("dead_clause.players", n=n, clause=cid, proof=proof),
            ))  # fmt: skip
            continue
        share = c["decided"] / c["of"]
        if c["decided"] == 0 and unseen_bound(c["of"]) < lim:
            rare.append(said("rare.never", clause=cid, of=c["of"], per=_per(c)))
        elif 0 < share < lim:
            rare.append(said("rare.share", clause=cid, pct=100 * share, per=_per(c)))
    if rare:
        out.append(_warn(
            "rare_clause", n, said("rare_clause", n=n, pct_limit=100 * lim, rare=rare),
            None, lim,
        ))  # fmt: skip
    return out


def _per(c: dict[str, Any]) -> dict[str, Any]:
    return said("per.round" if c["per"] == "round" else "per.match")


def diagnose_texts(spec: RuleSpec) -> list[dict[str, Any]]:
    """Clauses (and the summary) whose text names a parameter value that the file does
    not have."""
    out: list[dict[str, Any]] = []
    values = _values(spec)
    for clause in spec.params.clause:
        deps = CLAUSE_PARAMS.get(clause.id, ())
        for key, want in clause.written_for.items():
            have = values.get(key)
            if str(have) != str(want):
                out.append(_warn(
                    "clause_params", None,
                    said("clause_params.written_for", clause=clause.id, key=key,
                         want=str(want), have=str(have)),
                ))  # fmt: skip
        for key in deps:
            text = _words_mismatch(clause.id, key, values.get(key), clause.text.en, clause.text.de)
            if text is None:
                text = _number_mismatch(clause.id, key, values.get(key), clause.text.en)
            if text is not None and not any(w["message"] == say(text, "en") for w in out):
                out.append(_warn("clause_params", None, text))
    summary = spec.params.summary
    for key in SUMMARY_VALUE_KEYS:
        hit = _words_found(key, values.get(key), summary.en, summary.de)
        if hit is not None:
            found, quote = hit
            text = said(
                "clause_params.summary_words", quote=quote, key=key, values=found,
                have=str(values.get(key)),
            )  # fmt: skip
            out.append(finding("clause_params", text, where="the summary", param=key))
    return out


def _values(spec: RuleSpec) -> dict[str, Any]:
    data = spec.params.model_dump()
    out: dict[str, Any] = {}
    for section, node in data.items():
        if isinstance(node, dict):
            for key, value in node.items():
                out[f"{section}.{key}"] = value
    return out


def _words_mismatch(cid: str, key: str, have: Any, en: str, de: str) -> dict[str, Any] | None:
    hit = _words_found(key, have, en, de)
    if hit is None:
        return None
    found, quote = hit
    return said(
        "clause_params.words", clause=cid, quote=quote, key=key, values=found, have=str(have)
    )


def _words_found(key: str, have: Any, en: str, de: str) -> tuple[list[str], dict[str, Any]] | None:
    """The values other than ``have`` whose words (:data:`VALUE_WORDS`) the texts use,
    and the first such word quoted; None when there are none."""
    table = VALUE_WORDS.get(key)
    if table is None or have not in table:
        return None
    texts = {"en": en.lower(), "de": de.lower()}
    own = table[str(have)]
    whole = key in WHOLE_WORD_KEYS
    found: list[str] = []
    quotes: list[dict[str, Any]] = []
    for value, words in table.items():
        if value == have:
            continue
        for lang, text in texts.items():
            if whole and any(_has(w, text) for w in own[lang]):
                continue  # the text also names the file's value ("muss aber nicht")
            hits = [
                w for w in words[lang]
                if (_has(w, text) if whole else w in text)
                and w not in own[lang] and _means(key, value, w, text, lang)
            ]  # fmt: skip
            if hits:
                found.append(value)
                quotes.append(said("quote.lang", word=hits[0], lang=said(f"lang.{lang}")))
                break
    if not found:
        return None
    return found, quotes[0]


def _has(word: str, text: str) -> bool:
    """Whether ``word`` stands in ``text`` as whole words."""
    import re

    return re.search(r"(?<![\wäöüß])" + re.escape(word) + r"(?![\wäöüß])", text) is not None


def _means(key: str, value: str, word: str, text: str, lang: str) -> bool:
    """Whether ``word`` in ``text`` names ``key = value``: "at most" is a limited draw
    only when a number of tiles or times follows it ("at most one tile", "höchstens
    3-mal"), not in "until one fits, at most until the stock is empty"."""
    if key != "turn.draw" or value != "limited":
        return True
    import re

    from deckgen.rulespec.text import NUMBER_WORDS

    for m in re.finditer(re.escape(word), text):
        after = re.findall(r"[\wäöüß-]+", text[m.end() : m.end() + 30])[:2]
        for tok in after:
            if (
                tok[:1].isdigit()
                or tok in NUMBER_WORDS["de" if lang == "de" else "en"]
                or tok in ("einen", "ein", "eine")
                or tok.startswith("draw_limit")  # the placeholder, in digits or words
            ):
                return True
    return False


def _number_mismatch(cid: str, key: str, have: Any, en: str) -> dict[str, Any] | None:
    import re

    name = NUMERIC_PARAMS.get(key)
    placeholders = ("{" + name + "}", "{" + name + "_word}", "{" + name + "_times}") if name else ()
    if name is None or have is None or any(p in en for p in placeholders):
        return None
    en = re.sub(r"\d+\s*/\s*\d+", " ", en)  # tile names (0/0) are no counts
    numbers = {int(x) for x in re.findall(r"(?<![\d{-])(\d+)(?![\d}-])", en)}
    if numbers and int(have) not in numbers:
        return said(
            "clause_params.number", clause=cid, numbers=sorted(numbers), key=key,
            have=str(have), name=name,
        )  # fmt: skip
    return None
