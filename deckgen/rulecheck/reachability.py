"""Why a clause was never reached: a proof from the rules, or how sure the check is.

Takes the rules, a player count, a clause id and the feasibility section; gives either
a proof that the clause can never decide anything under these rules
(:func:`impossibility`), or, for a clause not seen in ``N`` tries, the bound of the
"rule of three": with 95 % confidence it decides fewer than ``3 / N`` of them
(:func:`unseen_bound`; exact: ``1 - 0.05 ** (1 / N)``, which is below ``3 / N``).
"""

from __future__ import annotations

from typing import Any

from deckgen.rulecheck.messages import said, say
from deckgen.rulespec import RuleSpec


def impossibility(spec: RuleSpec, players: int, clause_id: str, feas: dict[str, Any]) -> str | None:
    """A proof from the rules that ``clause_id`` can never decide anything with
    ``players`` players, or None when the rules allow it."""
    proof = proof_of(spec, players, clause_id, feas)
    return None if proof is None else say(proof, "en")


def proof_of(
    spec: RuleSpec, players: int, clause_id: str, feas: dict[str, Any]
) -> dict[str, Any] | None:
    """:func:`impossibility` as a said item (:mod:`deckgen.rulecheck.messages`)."""
    p = spec.params
    drawn = p.deal.rest == "stock" and p.turn.draw != "none" and feas.get("stock", 0) > 0
    if clause_id == "end.blocked" and drawn and feas.get("reserve", 0) > 0:
        return said("proof.blocked_reserve", reserve=feas["reserve"])
    if clause_id == "end.reserve" and (not drawn or feas.get("reserve", 0) == 0):
        return said("proof.no_reserve")
    if clause_id in ("play.draw", "play.play_drawn", "play.draw_limit") and not drawn:
        return said("proof.no_stock")
    if clause_id == "play.draw_limit" and drawn and p.turn.draw_limit is not None:
        most = feas.get("drawable", 0)
        if p.turn.draw_limit >= most:
            return said("proof.draw_limit", limit=p.turn.draw_limit, most=most)
    for s in feas.get("opening", {}).get("situations", []):
        if s["situation"] == clause_id and s["probability"] == 0:
            return said("proof.opening", what=s["what"], situation=s["situation"])
    if clause_id == "setup.redeal" and p.deal.redeal_doubles is not None:
        hand = spec.hand_size(players)
        if p.deal.redeal_doubles > hand:
            return said("proof.redeal", hand=hand, doubles=p.deal.redeal_doubles)
    if clause_id == "score.tie" and p.scoring.method == "penalty":
        return said("proof.penalty")
    return None


def unseen_bound(tries: int) -> float:
    """The 95 % upper bound of a share never seen in ``tries`` tries: ``3 / tries``."""
    return 3.0 / tries if tries > 0 else 1.0


def why_never(
    spec: RuleSpec, players: int, clause: dict[str, Any], feas: dict[str, Any]
) -> dict[str, Any]:
    """The report's statement about a clause never reached: ``{"proof": text}`` or
    ``{"bound": 3/N, "of": N, "per": "round" | "match", "text": ...}``."""
    proof = impossibility(spec, players, clause["id"], feas)
    if proof is not None:
        return {"kind": "proof", "text": f"cannot happen: {proof}"}
    n = int(clause["of"])
    per = "rounds" if clause["per"] == "round" else "matches"
    bound = unseen_bound(n)
    return {
        "kind": "bound",
        "bound": round(bound, 8),
        "of": n,
        "text": f"not seen in {n:,} {per}: below 3/{n:,} = {100 * bound:.3g} % of {per} "
        "with 95 % confidence",
    }
