"""The course of a match as readable lines of text (what ``rules play`` prints).

Takes a :class:`~deckgen.rulespec.RuleSpec` and a
:class:`~deckgen.engine.results.MatchResult` played with ``record=True``; gives lines.
Seats are numbered from 1 here, as people count (:mod:`deckgen.engine.seatnames`);
the record's JSON keeps the engine's 0-based seats.
"""

from __future__ import annotations

from collections.abc import Sequence

from deckgen.engine.endcount import counts_of_round
from deckgen.engine.results import END_BLOCKED, END_OUT, MatchResult, RoundResult
from deckgen.engine.seatnames import seat_name, side_name
from deckgen.engine.tables import compile_tables
from deckgen.rulespec import RuleSpec

__all__ = ["match_lines", "round_lines", "side_name"]


def round_lines(
    spec: RuleSpec, r: RoundResult, number: int, sides: Sequence[Sequence[int]]
) -> list[str]:
    tiles = spec.dset.tiles
    lines = [
        f"Round {number}: {seat_name(r.starter)} starts"
        + (f" (after {r.redeals} redeals)" if r.redeals else "")
    ]
    station = spec.params.opening.lead == "station" and r.turned_up >= 0
    if r.deal is not None and station:
        lines.extend(_station_lines(spec, r))
    elif r.deal is not None:
        for s, hand in enumerate(r.deal.hands):
            lines.append(f"  {seat_name(s)} holds " + " ".join(str(tiles[i]) for i in hand))
        if r.deal.stock:
            lines.append(f"  stock: {len(r.deal.stock)} tiles")
    trains = spec.params.board.shape == "trains"
    n = len(r.hand_values)
    if r.turned_up >= 0 and not station:
        lines.append(f"  start tile turned up: {tiles[r.turned_up]}")
    actions = r.actions or []
    multiple = spec.params.scoring.ends_multiple
    counted: list[tuple[int, int] | None] = [None] * len(actions)
    if multiple is not None:  # score.ends: the count after each tile laid
        counted = counts_of_round(
            compile_tables(spec, len(r.hand_values)),
            spec.params.board.shape,
            r.turned_up,
            actions,
            multiple,
        )
    marked: set[int] = set()  # seats whose train is marked open
    for a, cp in zip(actions, counted, strict=True):
        if trains and a.kind == "play" and a.end == a.seat:
            marked.discard(a.seat)  # the owner played on it: the marker comes off
        score = ""
        if cp is not None:
            score = f"; the ends count {cp[0]}" + (f", scores {cp[1]}" if cp[1] else "")
        if a.kind == "lead":
            lines.append(f"  {seat_name(a.seat)} leads {tiles[a.tile]}{score}")
        elif a.kind == "play" and trains:
            train = "the Mexican Train" if a.end == n else f"{seat_name(a.end)}'s train"
            if a.end == a.seat:
                train = "their own train"
            lines.append(f"  {seat_name(a.seat)} plays {tiles[a.tile]} on the {a.value} of {train}")
        elif a.kind == "play":
            lines.append(
                f"  {seat_name(a.seat)} plays {tiles[a.tile]} on the {a.value} (end {a.end}){score}"
            )
        elif a.kind == "draw":
            lines.append(f"  {seat_name(a.seat)} draws {tiles[a.tile]}")
        elif trains and a.seat not in marked:
            marked.add(a.seat)
            lines.append(f"  {seat_name(a.seat)} passes and marks their train open")
        else:
            lines.append(f"  {seat_name(a.seat)} passes")
    if r.end == END_OUT:
        how = f"{seat_name(r.out_seat)} went out"
    elif r.end == END_BLOCKED:
        how = "blocked: nobody can play"
    else:
        how = "only the stock reserve is left and the player to move cannot play"
    lines.append(f"  round over: {how}")
    lines.append(
        "  left in hand: " + ", ".join(f"{seat_name(s)} {v}" for s, v in enumerate(r.hand_values))
    )
    won = ", ".join(side_name(sides, w) for w in r.winners) or "nobody"
    pts = ", ".join(f"{side_name(sides, i)} {p:+d}" for i, p in enumerate(r.points))
    lines.append(f"  round won by {won}; points: {pts}")
    if r.play_points:
        during = ", ".join(f"{side_name(sides, i)} {p}" for i, p in enumerate(r.play_points))
        lines.append(f"  of these, scored during play: {during}")
    for g in r.gaps:
        lines.append(f"  GAP {g.situation}: {g.description} ({g.fallback})")
    return lines


def _station_lines(spec: RuleSpec, r: RoundResult) -> list[str]:
    """``lead.station``: the hands as dealt, who set the round's double out and which tile
    took its place (the top of the stock), the hands and the stock as play begins."""
    assert r.deal is not None
    tiles = spec.dset.tiles
    d = r.turned_up
    name = "centre double" if spec.params.board.shape == "chicken_foot" else "station double"
    hands = [list(h) for h in r.deal.hands]
    stock = list(r.deal.stock)  # in draw order, top first
    holder = next((s for s, h in enumerate(hands) if d in h), -1)
    dealt = "is dealt" if holder >= 0 else "holds"
    out = [
        f"  {seat_name(s)} {dealt} " + " ".join(str(tiles[i]) for i in h)
        for s, h in enumerate(hands)
    ]
    if holder >= 0:
        hands[holder].remove(d)
        took = ""
        if stock:
            top = stock.pop(0)
            hands[holder] = sorted([*hands[holder], top])
            took = f" and takes {tiles[top]} from the stock in its place"
        out.append(f"  {seat_name(holder)} sets out the {name} {tiles[d]}{took}")
        for s, hand in enumerate(hands):
            out.append(f"  {seat_name(s)} holds " + " ".join(str(tiles[i]) for i in hand))
    elif d in stock:
        stock.remove(d)
        out.append(f"  the {name} {tiles[d]} is taken from the stock")
    else:
        out.append(f"  the {name} {tiles[d]} is taken from the unused tiles")
    if stock:
        out.append(f"  stock: {len(stock)} tiles")
    return out


def match_lines(spec: RuleSpec, m: MatchResult, *, bots: Sequence[str]) -> list[str]:
    """Every round, its actions and scores, and the final result."""
    lines = [
        f"{spec.name('en')} ({spec.id}), {m.players} players: "
        + ", ".join(f"{seat_name(s)} {b}" for s, b in enumerate(bots))
    ]
    for n, r in enumerate(m.rounds, start=1):
        lines.extend(round_lines(spec, r, n, m.sides))
        totals = m.totals_after[n - 1]
        lines.append(
            "  totals: " + ", ".join(f"{side_name(m.sides, i)} {v}" for i, v in enumerate(totals))
        )
    won = " and ".join(side_name(m.sides, w) for w in m.winners)
    lines.append(
        f"Match over after {len(m.rounds)} rounds: {won} {'win' if len(m.winners) > 1 else 'wins'}."
    )
    for g in m.gaps:
        lines.append(f"GAP {g.situation}: {g.description} ({g.fallback})")
    return lines
