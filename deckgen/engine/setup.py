"""Setting up a round: the deal, deals thrown in, the starter and the first tile.

Takes the compiled :class:`~deckgen.engine.tables.Tables`, the deal's
``random.Random`` and where the match stands (:class:`RoundStart`); gives a
:class:`Setup`: the hands (bitmasks), the stock, the dead tiles, who starts, what they
must lead and the tile turned up. Rules, one function each, in the order they apply:

- :func:`deal_tiles` (``setup.deal``, ``setup.rest``);
- :func:`must_redeal` (``setup.redeal``) and, in :func:`setup_round`, the redeal limit;
- :func:`find_starter` (``start.first``, ``start.later``, ``start.no_double``);
- :func:`put_back_doubles` (``lead.skip_double``) and the turn-up (``lead.turned_up``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from math import floor
from typing import Literal

from deckgen.engine.results import DealRecord, Gap
from deckgen.engine.tables import Tables, bits
from deckgen.rulespec import GAP_SITUATIONS

MAX_REDEALS = 100

LeadMode = Literal["any", "starter_double", "turned_up", "station"]


class DealRejected(Exception):
    """A given deal (from a record) that the rules would have dealt again."""


def fallback(situation: str) -> str:
    """What the engine does in a situation the rules file leaves open."""
    return GAP_SITUATIONS[situation].split("fallback: ")[1]


@dataclass(frozen=True, slots=True)
class RoundStart:
    """Where the match stands when a round begins."""

    round_no: int = 1
    prev_starter: int = -1
    prev_winner: int = -1
    """A seat of the side that won the previous round, or -1 (see
    :func:`deckgen.engine.match.next_round`)."""


@dataclass(slots=True)
class Setup:
    """A round ready to play."""

    hands: list[int]
    stock: list[int]
    """Pop from the end to draw."""
    dead: int
    """Bitmask of the tiles out of play."""
    deal: DealRecord | None
    starter: int
    lead_tile: int
    """A tile the starter must lead, or -1."""
    turned_up: int
    """The start tile turned up from the stock, or -1."""
    redeals: int
    lead_mode: LeadMode


def deal_tiles(t: Tables, rng: random.Random) -> tuple[list[int], list[int], int]:
    """Hands (bitmasks), the stock in draw order (first drawn first) and the dead tiles.

    A partial Fisher-Yates shuffle driven by ``rng.random()`` (one call per tile
    placed; the rounding bias is below 2**-45): uniform and the same on every machine.
    The pick is ``floor(random() * size)``.
    """
    rand = rng.random
    fl = floor
    h = t.hand_size
    hands = []
    if not t.stock_rest:
        # the pool holds the tiles' bits: a hand is the sum (or) of its picks
        pool = list(t.tile_bits)
        m = len(pool)
        for _ in range(t.players):
            if m == h:  # the last hand takes every tile left: nothing drawn at random
                hands.append(sum(pool[:m]))
                m = 0
                continue
            hm = 0
            k = h if h < m else m
            for size in range(m, m - k, -1):
                j = fl(rand() * size)
                hm |= pool[j]
                pool[j] = pool[size - 1]
            m -= k
            hands.append(hm)
        dead = t.full_mask
        for hm in hands:
            dead ^= hm
        return hands, [], dead
    ipool = list(range(len(t.tiles)))
    m = len(ipool)
    for _ in range(t.players):
        hm = 0
        if m == h:
            for i in ipool[:m]:
                hm |= 1 << i
            m = 0
        k = h if h < m else m
        for size in range(m, m - k, -1):
            j = fl(rand() * size)
            hm |= 1 << ipool[j]
            ipool[j] = ipool[size - 1]
        m -= k
        hands.append(hm)
    stock = []
    for size in range(m, 0, -1):
        j = fl(rand() * size)
        stock.append(ipool[j])
        ipool[j] = ipool[size - 1]
    return hands, stock, 0


def must_redeal(t: Tables, hands: list[int]) -> bool:
    """``setup.redeal``: a hand holds too many doubles."""
    k = t.redeal_doubles
    return bool(k) and any((hm & t.double_mask).bit_count() >= k for hm in hands)


def holder(hands: list[int], tile: int) -> int:
    """The seat holding ``tile``, or -1."""
    bit = 1 << tile
    for s, hm in enumerate(hands):
        if hm & bit:
            return s
    return -1


def heaviest(t: Tables, hands: list[int]) -> tuple[int, int]:
    """(seat, tile) of the heaviest dealt tile; ties go to the higher top half."""
    best = (-1, -1, -1, -1)
    for s, hm in enumerate(hands):
        for i in bits(hm):
            key = (t.lo[i] + t.hi[i], t.hi[i], s, i)
            if key[:2] > best[:2]:
                best = key
    return best[2], best[3]


def _seat_zero(t: Tables, hands: list[int]) -> tuple[int, int]:
    return 0, -1


def _highest_double(t: Tables, hands: list[int]) -> tuple[int, int] | None:
    for d in reversed(t.double_index):
        seat = holder(hands, d)
        if seat >= 0:
            return seat, d
    return None


def _required_double(t: Tables, hands: list[int]) -> tuple[int, int] | None:
    v = t.opening.required_double
    d = t.double_index[v if v is not None else 0]
    seat = holder(hands, d)
    return (seat, d) if seat >= 0 else None


FIRST_STARTERS: dict[str, Callable[[Tables, list[int]], tuple[int, int] | None]] = {
    "seat": _seat_zero,
    "highest_double": _highest_double,
    "required_double": _required_double,
}
"""Who starts the first round, by ``opening.first_starter``: (seat, the double that
made them starter or -1), or None when nobody holds the double asked for (then
``opening.no_double`` decides). A new rule is one function here."""


def find_starter(
    t: Tables, hands: list[int], start: RoundStart, fired: set[str], gaps: list[Gap]
) -> tuple[int, int, LeadMode, bool]:
    """Return (starter, forced lead tile or -1, lead mode, redeal wanted)."""
    op = t.opening
    n = t.players
    lead_mode: LeadMode = op.lead
    round_no = start.round_no
    if round_no > 1 and op.later_lead == "any":
        lead_mode = "any"
    if round_no > 1:
        ls = op.later_starter
        if ls is None:
            gaps.append(Gap("start.later", f"round {round_no} starts", fallback("start.later")))
        else:
            fired.add("start.later")
            if ls == "next_seat":
                return (start.prev_starter + 1) % n, -1, lead_mode, False
            if ls == "round_winner":
                w = start.prev_winner
                seat = w if w >= 0 else (start.prev_starter + 1) % n
                return seat, -1, lead_mode, False
    else:
        fired.add("start.first")
    found = FIRST_STARTERS[op.first_starter](t, hands)
    if found is not None:
        seat, d = found
        return seat, (d if lead_mode == "starter_double" and d >= 0 else -1), lead_mode, False
    nd = op.no_double
    if nd == "redeal":
        fired.add("start.no_double")
        return -1, -1, lead_mode, True
    if nd is None:
        gaps.append(
            Gap(
                "start.no_double",
                "nobody holds the double the starter rule asks for",
                fallback("start.no_double"),
            )
        )
    else:
        fired.add("start.no_double")
    seat, tile = heaviest(t, hands)
    return seat, (tile if lead_mode == "starter_double" else -1), lead_mode, False


def put_back_doubles(t: Tables, rest: list[int], rng: random.Random) -> bool:
    """``lead.skip_double``: turned-up doubles go back into the stock ``rest`` (draw
    order, top first).

    While the top tile is a double, it goes back at a uniformly random place below the
    top (one ``rng.random()`` each) and the next tile comes up: the start tile is then
    a uniform non-double and the stock stays uniformly shuffled. Returns whether a
    double came up; nothing moves when the stock holds no non-double.
    """
    is_double = t.is_double
    if not rest or not is_double[rest[0]] or all(is_double[i] for i in rest):
        return False
    rand = rng.random
    while is_double[rest[0]]:
        d = rest.pop(0)
        rest.insert(1 + floor(rand() * len(rest)), d)
    return True


def _given(deal: DealRecord) -> tuple[list[int], list[int], int]:
    hands = [sum(1 << i for i in hand) for hand in deal.hands]
    return hands, list(deal.stock), sum(1 << i for i in deal.dead)


def setup_round(
    t: Tables,
    rng: random.Random,
    start: RoundStart,
    *,
    fired: set[str],
    gaps: list[Gap],
    deal: DealRecord | None = None,
    keep_deal: bool = True,
) -> Setup:
    """Deal (or take ``deal``), apply the redeal rules, find the starter and the lead."""
    redeals = 0
    lead_mode: LeadMode = t.opening.lead
    while True:
        hands, rest, dead = deal_tiles(t, rng) if deal is None else _given(deal)
        starter, lead_tile, lead_mode = -1, -1, t.opening.lead
        redo = must_redeal(t, hands)
        if redo:
            fired.add("setup.redeal")
        else:
            starter, lead_tile, lead_mode, redo = find_starter(t, hands, start, fired, gaps)
        if redo:
            if deal is not None and deal.redeals < MAX_REDEALS:
                raise DealRejected("the recorded deal is one the rules deal again")
            # A replayed deal at the limit is the one that was kept after it.
            redeals = deal.redeals if deal is not None else redeals + 1
            if redeals < MAX_REDEALS:
                continue
            gaps.append(
                Gap("setup.redeal_limit", "100 redeals in a row", fallback("setup.redeal_limit"))
            )
            if starter < 0:
                starter, tile = heaviest(t, hands)
                lead_mode = t.opening.lead
                lead_tile = tile if lead_mode == "starter_double" else -1
        break
    skip = t.opening.turned_up_doubles == "skip"
    if lead_mode == "turned_up":
        fired.add("lead.turned_up")
        if skip and put_back_doubles(t, rest, rng):
            fired.add("lead.skip_double")
    record = (
        DealRecord(hands=[bits(hm) for hm in hands], stock=list(rest), dead=bits(dead))
        if keep_deal
        else None
    )
    stock = rest[::-1]
    turned_up = -1
    if lead_mode == "turned_up":
        if stock and not (skip and t.is_double[stock[-1]]):
            turned_up = stock.pop()
        else:
            gaps.append(Gap("lead.no_tile", "no tile may be turned up", fallback("lead.no_tile")))
            lead_mode = "any"
    if lead_mode == "station":  # Mexican Train: the round's double in the middle
        from deckgen.engine.trains import take_station

        turned_up = take_station(t, hands, stock, start.round_no)
        dead &= ~(1 << turned_up)  # among the unused tiles: taken from them
        fired.add("lead.station")
    if lead_mode == "any":
        fired.add("lead.any")
    elif lead_mode == "starter_double":
        fired.add("lead.double")
    return Setup(hands, stock, dead, record, starter, lead_tile, turned_up, redeals, lead_mode)
