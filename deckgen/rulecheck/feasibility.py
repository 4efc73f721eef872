"""Feasibility of a rules file per player count: does the deal fit, can the opening rule
always be applied, and with what exact odds does it need its fallback.

Takes a :class:`~deckgen.rulespec.RuleSpec` and a player count; gives a JSON-ready
dict. Odds are exact (fractions of binomial coefficients over a uniformly shuffled
set), for example the chance that no double is dealt at all is
``C(T - D, n) / C(T, n)`` for ``T`` tiles, ``D`` doubles and ``n`` tiles dealt.

>>> from fractions import Fraction
>>> p_none_of(28, 7, 14) == Fraction(116280, 40116600)
True
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

from deckgen.rulespec import RuleSpec
from deckgen.rulespec.odds import p_some_hand_has

__all__ = ["drawable_tiles", "feasibility", "p_all_of", "p_none_of", "p_some_hand_has"]


def p_none_of(total: int, special: int, drawn: int) -> Fraction:
    """The chance that ``drawn`` tiles out of ``total`` hold none of ``special`` ones."""
    if drawn > total:
        raise ValueError("cannot draw more tiles than there are")
    return Fraction(comb(total - special, drawn), comb(total, drawn))


def p_all_of(total: int, special: int, drawn: int) -> Fraction:
    """The chance that ``drawn`` tiles out of ``total`` are all among ``special`` ones."""
    return Fraction(comb(special, drawn), comb(total, drawn))


def _odds(p: Fraction) -> dict[str, Any]:
    return {"probability": float(p), "exact": f"{p.numerator}/{p.denominator}"}


def _says(spec: RuleSpec, clause_id: str) -> str | None:
    return spec.clause_text(clause_id, "en") if spec.has_clause(clause_id) else None


def _first_from_stock(spec: RuleSpec) -> int:
    """Tiles the stock gives up before anyone draws: a turned-up start tile, or for the
    station games one tile whichever way the station double comes out (from the stock,
    or from a hand that takes the stock's top tile instead)."""
    return 1 if spec.params.opening.lead in ("turned_up", "station") else 0


def drawable_tiles(spec: RuleSpec, players: int) -> int:
    """Tiles a round can draw at most: the stock less the reserve and a turned-up tile
    (or the one the station double costs it)."""
    p = spec.params
    if p.deal.rest != "stock" or p.turn.draw == "none":
        return 0
    stock = len(spec.dset) - spec.hand_size(players) * players
    return max(0, stock - p.deal.stock_reserve - _first_from_stock(spec))


def feasibility(spec: RuleSpec, players: int) -> dict[str, Any]:
    """The feasibility section of the report for ``players`` players."""
    p = spec.params
    dset = spec.dset
    total = len(dset)
    doubles = dset.max_pip + 1
    hand = spec.hand_size(players)
    dealt = hand * players
    rest = total - dealt
    stock = rest if p.deal.rest == "stock" else 0
    reserve = p.deal.stock_reserve if stock else 0
    turned = p.opening.lead == "turned_up"
    station = p.opening.lead == "station"
    need = dealt + reserve + (1 if turned or station else 0)
    out: dict[str, Any] = {
        "tiles": total,
        "hand_size": hand,
        "dealt": dealt,
        "stock": stock,
        "dead": rest - stock,
        "reserve": reserve,
        "start_tile_from_stock": turned,
        "tiles_needed": need,
        "deal_fits": need <= total,
        "drawable": max(0, stock - reserve - _first_from_stock(spec)),
    }
    situations: list[dict[str, Any]] = []
    op = p.opening
    if op.first_starter == "highest_double":
        prob = p_none_of(total, doubles, dealt)
        situations.append(
            {
                "situation": "start.no_double",
                "what": "no double is dealt, so nobody holds a highest double",
                **_odds(prob),
                "rule": op.no_double,
                "file_says": _says(spec, "start.no_double") if op.no_double else None,
            }
        )
    elif op.first_starter == "required_double":
        assert op.required_double is not None
        prob = Fraction(total - dealt, total)
        situations.append(
            {
                "situation": "start.no_double",
                "what": f"the double {op.required_double} is not dealt",
                **_odds(prob),
                "rule": op.no_double,
                "file_says": _says(spec, "start.no_double") if op.no_double else None,
            }
        )
    if turned:
        # the start tile comes from the stock as it is after the deal
        if op.turned_up_doubles == "skip":
            prob = p_all_of(total, doubles, stock) if stock <= doubles else Fraction(0)
            what = "the stock holds only doubles, so no start tile may be turned up"
        else:
            prob = Fraction(0) if stock else Fraction(1)
            what = "the stock is empty, so no start tile can be turned up"
        situations.append(
            {
                "situation": "lead.no_tile",
                "what": what,
                **_odds(prob),
                "rule": None,
                "file_says": None,
            }
        )
    if p.deal.redeal_doubles:
        prob = p_some_hand_has(total, doubles, players, hand, p.deal.redeal_doubles)
        situations.append(
            {
                "situation": "setup.redeal",
                "what": f"a hand is dealt {p.deal.redeal_doubles} doubles or more and the "
                "tiles are dealt again",
                **_odds(prob),
                "expected_deals": float(1 / (1 - prob)) if prob < 1 else None,
                "rule": "redeal",
                "file_says": _says(spec, "setup.redeal"),
            }
        )
    for s in situations:
        if s["situation"] == "start.no_double" and s["rule"] == "redeal":
            q = Fraction(s["exact"])
            s["expected_deals"] = float(1 / (1 - q)) if q < 1 else None
        s["always_decided"] = s["probability"] == 0 or s["rule"] is not None
    out["opening"] = {
        "first_starter": op.first_starter,
        "lead": op.lead,
        "situations": situations,
        "applicable_to_every_deal": all(s["always_decided"] for s in situations),
    }
    return out
