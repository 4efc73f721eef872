"""Seats and sides as people read them: numbered from 1.

The engine, its records and the JSON of ``deckgen rules check`` count seats from 0
(``wins_by_seat`` key ``"0"`` is the first seat; a record's ``"seat": 0`` is the player
who starts the first round under most rules). Everything printed for a person (the
course of a match, the check's Markdown and terminal reports and warnings, its charts,
the terminal game) counts from 1, through these functions and nowhere else.

>>> seat_name(0)
'seat 1'
>>> side_name([[0], [1]], 1)
'seat 2'
>>> side_name([[0, 2], [1, 3]], 0)
'team 1+3'
>>> numbered("team", "1")
'team 2'
>>> recorded_seat(1)
'seat 2 ("seat": 1)'
"""

from __future__ import annotations

from collections.abc import Sequence


def seat_number(seat: int | str) -> int:
    """The number a person reads for a 0-based seat (or a JSON key such as ``"0"``)."""
    return int(seat) + 1


def seat_name(seat: int | str) -> str:
    """``seat 1`` for seat 0."""
    return f"seat {seat_number(seat)}"


def numbered(label: str, index: int | str) -> str:
    """``<label> <index + 1>``: a seat, a team or a side by its 0-based index."""
    return f"{label} {seat_number(index)}"


def side_name(sides: Sequence[Sequence[int]], i: int) -> str:
    """Side ``i`` of a match: ``seat 2``, or ``team 1+3`` (its seats) for partners."""
    side = sides[i]
    if len(side) == 1:
        return seat_name(side[0])
    return "team " + "+".join(str(seat_number(s)) for s in side)


def recorded_seat(seat: int) -> str:
    """A seat in a message about a game record: the number people read and the value
    the JSON holds, ``seat 2 ("seat": 1)``."""
    return f'{seat_name(seat)} ("seat": {seat})'
