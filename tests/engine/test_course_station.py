"""The readable course (``rules play``) of the station games: every tile a seat plays is
one it was shown holding or drawing, the station double is set out by whoever was dealt
it (with the tile that took its place), and Chicken Foot's is its centre double."""

from __future__ import annotations

import re

import pytest

from deckgen.engine import Engine, make_bots, play_match
from deckgen.engine.course import match_lines
from deckgen.rulespec import load_rules


def _follow(lines: list[str]) -> None:
    """Each seat's hand from its ``holds`` line, then its draws and plays: every tile
    played or left must have been in it."""
    hands: dict[str, set[str]] = {}
    for ln in lines:
        if ln.startswith("Round "):
            hands = {}
        if m := re.match(r"  seat (\d) holds (.*)$", ln):
            hands[m.group(1)] = set(m.group(2).split())
        elif m := re.match(r"  seat (\d) draws (\S+)$", ln):
            hands[m.group(1)].add(m.group(2))
        elif m := re.match(r"  seat (\d) plays (\S+) ", ln):
            assert m.group(2) in hands[m.group(1)], f"seat {m.group(1)} plays {m.group(2)}: {ln}"
            hands[m.group(1)].remove(m.group(2))


@pytest.mark.parametrize(("rules", "players", "name"), [
    ("mexican-train", 2, "station double"),
    ("mexican-train", 4, "station double"),
    ("chicken-foot", 3, "centre double"),
])  # fmt: skip
def test_hands_as_play_begins(rules: str, players: int, name: str) -> None:
    spec = load_rules(rules)
    bots = ["random"]
    for seed in (3, 8):
        match = play_match(Engine(spec, players), make_bots(bots, players, seed), seed, record=True)
        lines = match_lines(spec, match, bots=bots)
        text = "\n".join(lines)
        assert "start tile turned up" not in text
        _follow(lines)
        for r in match.rounds:
            assert r.deal is not None
            double = str(spec.dset.tiles[r.turned_up])
            dealt = [s for s, h in enumerate(r.deal.hands) if r.turned_up in h]
            if dealt:
                assert re.search(
                    rf"seat {dealt[0] + 1} sets out the {name} {double} and takes \S+ from "
                    "the stock in its place",
                    text,
                )
            else:
                assert f"the {name} {double} is taken from the stock" in text


def test_seed_3_seat_1_takes_3_10() -> None:
    """``deckgen rules play mexican-train --players 2 --seed 3``: seat 1 was dealt 12-12,
    sets it out and takes 3-10, which it plays later."""
    spec = load_rules("mexican-train")
    match = play_match(Engine(spec, 2), make_bots(["random"], 2, 3), 3, record=True)
    lines = match_lines(spec, match, bots=["random"])
    first = lines[: lines.index(next(ln for ln in lines if ln.startswith("Round 2")))]
    assert (
        "  seat 1 sets out the station double 12-12 and takes 3-10 from the stock in its place"
        in first
    )
    holds = next(ln for ln in first if ln.startswith("  seat 1 holds "))
    assert "3-10" in holds.split()
    assert "12-12" not in holds.split()
