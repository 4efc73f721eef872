"""Seats are numbered from 1 in every text printed for people (issue 13).

A real match is played and its readable course (``rules play``, the demo's
``card-domino-match.txt``) is compared line by line with the result's 0-based seats.
"""

from __future__ import annotations

import doctest
import re
from collections import Counter

import deckgen.engine.seatnames as seatnames
from deckgen.engine import Engine, make_bots, play_match
from deckgen.engine.course import match_lines
from deckgen.rulespec import load_rules


def test_doctests() -> None:
    failed, tried = doctest.testmod(seatnames)
    assert tried >= 4
    assert failed == 0


def test_match_course_numbers_seats_from_one() -> None:
    spec = load_rules("card-domino")
    bots = ["smart", "greedy", "random"]
    match = play_match(Engine(spec, 3), make_bots(bots, 3, 7), 7, record=True)
    lines = match_lines(spec, match, bots=bots)
    text = "\n".join(lines)
    assert "seat 0" not in text
    assert lines[0].endswith("seat 1 smart, seat 2 greedy, seat 3 random")
    acted = Counter(
        (a.seat + 1, a.kind) for r in match.rounds for a in (r.actions or []) if a.kind == "play"
    )
    said = Counter(
        (int(m.group(1)), "play") for m in re.finditer(r"^  seat (\d) plays ", text, re.M)
    )
    assert said == acted
    for number, r in enumerate(match.rounds, start=1):
        assert f"Round {number}: seat {r.starter + 1} starts" in text
    holds = [ln for ln in lines if re.match(r"  seat \d holds ", ln)]
    assert {ln.split()[1] for ln in holds} == {"1", "2", "3"}
