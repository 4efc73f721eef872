"""What a rules file says before a single round is played.

:func:`spec_findings` gathers it all: the texts against the parameters
(:mod:`~deckgen.rulecheck.textcheck`, :func:`~deckgen.rulecheck.diagnostics.diagnose_texts`)
and what the parameters alone say (:func:`static_findings`). Takes a
:class:`~deckgen.rulespec.RuleSpec`; gives findings (the JSON-ready dicts of
:mod:`deckgen.rulecheck.diagnostics`): rules that can never decide anything under
these parameters (a redeal threshold no hand reaches, a special tile value equal to
the tile's pips, draw rules without a stock, a clause for a rule the parameters do
not use), each with the one sentence that proves it. Play cannot contradict a proof,
so these hold for every player count named and every bot.
"""

from __future__ import annotations

from typing import Any

from deckgen.rulecheck.diagnostics import WarningId, diagnose_texts, finding
from deckgen.rulecheck.feasibility import feasibility
from deckgen.rulecheck.messages import said
from deckgen.rulecheck.reachability import proof_of
from deckgen.rulecheck.severity import graded
from deckgen.rulecheck.textcheck import check_texts
from deckgen.rulespec import ENGINE_CLAUSES, RuleSpec


def spec_findings(spec: RuleSpec) -> list[dict[str, Any]]:
    """What the file says before any play: its texts against its parameters, and the
    rules its parameters make dead (graded)."""
    found = diagnose_texts(spec) + check_texts(spec) + static_findings(spec)
    seen: set[str] = set()
    out = []
    for f in found:
        if f["message"] not in seen:
            seen.add(f["message"])
            out.append(f)
    return graded(out)


def _finding(wid: WarningId, text: dict[str, Any], param: str | None) -> dict[str, Any]:
    return finding(wid, text, param=param)


def static_findings(spec: RuleSpec) -> list[dict[str, Any]]:
    """Every rule the parameters make dead, and every clause they never use."""
    p = spec.params
    out: list[dict[str, Any]] = []
    stated = set(spec.clause_ids())
    for cid in sorted(stated & set(ENGINE_CLAUSES)):
        _, what, needed = ENGINE_CLAUSES[cid]
        if not needed(p):
            out.append(_finding(
                "dead_clause", said("dead_clause.unused", clause=cid, what=what), cid,
            ))  # fmt: skip
            continue
        proofs = {}
        for n in spec.player_counts:
            proof = proof_of(spec, n, cid, feasibility(spec, n))
            if proof is not None:
                proofs[n] = proof
        if proofs and len(proofs) == len(spec.player_counts):
            n, proof = next(iter(proofs.items()))
            counts = said("counts.any") if len(proofs) > 1 else said("counts.one", n=n)
            out.append(_finding(
                "dead_clause", said("dead_clause.all", clause=cid, counts=counts, proof=proof), cid,
            ))  # fmt: skip
    for key, value in p.scoring.tile_values.items():
        a, b = (int(x) for x in key.split("-"))
        if value == a + b:
            out.append(_finding(
                "dead_clause", said("dead_clause.value", a=a, b=b, value=value),
                "scoring.tile_values",
            ))  # fmt: skip
    target = penalty_target(spec)
    if target is not None:
        out.append(_finding("dead_clause", target, "match.target"))
    if p.scoring.bands is not None:
        most = spec.dset.total_pips
        if p.scoring.bands > most:
            out.append(_finding(
                "dead_clause", said("dead_clause.bands", bands=p.scoring.bands, most=most),
                "scoring.bands",
            ))  # fmt: skip
    return out


def penalty_target(spec: RuleSpec) -> dict[str, Any] | None:
    """Why a match to a target cannot (or can hardly) end under penalty scoring, as a
    said item; None when the file plays otherwise.

    Penalty points take each side's own pips off its total, and only going out adds (the
    bonus): a total rises by at most the bonus a round, so the target needs that many
    rounds of the same side going out, and without a bonus it is never reached.
    """
    p = spec.params
    if p.match.end != "target" or p.scoring.method != "penalty" or p.match.target is None:
        return None
    target, bonus = p.match.target, p.scoring.out_bonus
    if bonus == 0:
        return said("dead_clause.penalty_never", target=target)
    return said(
        "dead_clause.penalty_target", target=target, bonus=bonus, rounds=-(-target // bonus)
    )
