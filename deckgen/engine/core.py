"""The reference engine: plays one round of any rules file, fast and reproducibly.

Takes a :class:`~deckgen.rulespec.RuleSpec`, a player count, a ``random.Random`` for
the deal and one :class:`~deckgen.engine.players.Player` per seat; gives a
:class:`~deckgen.engine.results.RoundResult`. Nothing here is keyed on a variant's
name: every branch reads a parameter of the rules file.

Seats are numbered in playing order (seat ``s + 1`` moves after seat ``s``), whatever
the direction the booklet names. Hands are bitmasks over deck indices; the stock is a
list popped from its end; the open ends are a list of values (two on a line, more when
doubles open new directions).

Rounds where every seat is a plain random bot on a line, not recorded and not
checked, take a fast path: the loops of :mod:`deckgen.engine.fastloop`, the setup
without the redeal and turn-up steps when the rules have neither, and scores and
clause lists kept per engine. It makes exactly the random draws and choices of the
general path: ``tests/engine/test_speed_equivalence.py`` holds every result, record
and random draw of a golden corpus equal to the one written before the speed work.

With ``check_invariants`` every step is verified: every tile in exactly one place,
each placed tile matching its end, the turn order, draws only when unable to play and
within the limit, and the scores (see :mod:`deckgen.engine.invariants`).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from math import floor
from typing import Any, cast

from deckgen.engine.fastloop import BITS, line_draw, line_no_draw, set_bits
from deckgen.engine.invariants import InvariantError, check_placement, check_round, check_tiles
from deckgen.engine.players import PASS, Move, Player, PlayerView, RandomBot
from deckgen.engine.results import (
    END_BLOCKED,
    END_OUT,
    END_RESERVE,
    Action,
    DealRecord,
    Gap,
    RoundEnd,
    RoundResult,
)
from deckgen.engine.scoring import score_round
from deckgen.engine.tables import Tables, bits, compile_tables
from deckgen.rulespec import GAP_SITUATIONS, RuleSpec
from deckgen.tiles import Tile

MAX_REDEALS = 100
MAX_TURNS = 100_000
_ENDS = (END_OUT, END_BLOCKED, END_RESERVE)
"""The ends by the codes of :func:`~deckgen.engine.fastloop.line_draw`."""
SCORE_MEMO = 1 << 14
"""Scored hands kept per engine (a few MB at most)."""


class DealRejected(Exception):
    """A given deal (from a record) that the rules would have dealt again."""


class ReplayMismatch(Exception):
    """A scripted player found a recorded action that is not legal here."""

    def __init__(self, index: int, message: str) -> None:
        self.index = index
        super().__init__(message)


def _fallback(situation: str) -> str:
    return GAP_SITUATIONS[situation].split("fallback: ")[1]


@dataclass(slots=True)
class _Setup:
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
    redeals: int


@functools.lru_cache(maxsize=32)
def _chunk_tables(values: tuple[int, ...]) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """Chunk width and, per chunk of the deck, the value sum of every bit pattern.

    16-tile chunks (two or three tables of 65536 sums) for sets up to 48 tiles, else
    8-tile chunks: a hand's value is then a few table lookups.
    """
    width = 16 if len(values) <= 48 else 8
    tables = []
    for base in range(0, len(values), width):
        size = 1 << width
        row = [0] * size
        for pattern in range(1, size):
            low = pattern & -pattern
            b = low.bit_length() - 1
            row[pattern] = row[pattern ^ low] + (values[base + b] if base + b < len(values) else 0)
        tables.append(tuple(row))
    return width, tuple(tables)


class Engine:
    """Plays rounds of one rules file for one player count."""

    def __init__(self, spec: RuleSpec, players: int, *, check_invariants: bool = False) -> None:
        self.spec = spec
        self.players = players
        self.t: Tables = compile_tables(spec, players)
        self.check = check_invariants
        p = spec.params
        self.opening = p.opening
        self.scoring = p.scoring
        self.special_mask = 0
        for i, tile in enumerate(self.t.tiles):
            if str(tile) in p.scoring.tile_values:
                self.special_mask |= 1 << i
        dset = spec.dset
        self.double_index = tuple(dset.index(Tile(v, v)) for v in dset.values)
        self._union: dict[int, int] = {}
        self._tile_bits = tuple(1 << i for i in range(len(self.t.tiles)))
        self._hv_width, self._hv_tables = _chunk_tables(self.t.value)
        self._fast = self.t.shape == "line" and self.t.must_play_drawn
        self._no_draw = self.t.draw == "none"
        op = spec.params.opening
        self._plain_setup = (
            not self.t.redeal_doubles
            and op.no_double != "redeal"
            and op.lead in ("any", "starter_double")
        )
        self._rand_cache: tuple[tuple[Player, ...], tuple[Any, ...], list[Any]] | None = None
        always = {"setup.deal", "setup.rest"}
        if len(self.t.sides[0]) > 1:
            always.add("setup.teams")
        self._always_fired = frozenset(always)
        self._scores: dict[
            tuple[str, int, tuple[int, ...]],
            tuple[tuple[int, ...], tuple[int, ...], tuple[str, ...], tuple[Gap, ...]],
        ] = {}
        self._finish_clauses: dict[
            tuple[str, int, tuple[str, ...], tuple[str, ...]], tuple[str, ...]
        ] = {}

    def _random_methods(self, players: Sequence[Player]) -> list[Any] | None:
        """Each seat's ``rng.random`` when every seat is a plain random bot, else None.

        Kept for the last line-up seen: the same players with the same generators give
        the same methods without building them again.
        """
        seats = tuple(players)
        cached = self._rand_cache
        if cached is not None and cached[0] == seats:
            for p, g in zip(seats, cached[1]):  # noqa: B905 (equal lengths: seats equal)
                if p.rng is not g:  # type: ignore[attr-defined]
                    break
            else:
                return cached[2]
        if any(type(p) is not RandomBot for p in seats):
            return None
        rngs = tuple(p.rng for p in seats)  # type: ignore[attr-defined]
        methods = [g.random for g in rngs]
        self._rand_cache = (seats, rngs, methods)
        return methods

    # ------------------------------------------------------------------ setup
    def _deal(self, rng: random.Random) -> tuple[list[int], list[int], int]:
        """Hands (bitmasks), the stock in draw order, and the dead tiles (a bitmask).

        A partial Fisher-Yates shuffle driven by ``rng.random()`` (one call per tile
        placed; the rounding bias is below 2**-45): uniform, faster than
        ``rng.shuffle`` plus building masks, and the same on every machine. The pick is
        ``floor(random() * size)`` (equal to ``int()`` here, the value being >= 0).
        """
        t = self.t
        rand = rng.random
        fl = floor
        h = t.hand_size
        hands = []
        if not t.stock_rest:
            # the pool holds the tiles' bits: a hand is the sum (or) of its picks
            pool = list(self._tile_bits)
            m = len(pool)
            for _ in range(self.players):
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
        for _ in range(self.players):
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

    def _holder(self, hands: list[int], tile: int) -> int:
        bit = 1 << tile
        for s, hm in enumerate(hands):
            if hm & bit:
                return s
        return -1

    def _heaviest(self, hands: list[int]) -> tuple[int, int]:
        """(seat, tile) of the heaviest dealt tile; ties go to the higher top half."""
        t = self.t
        best = (-1, -1, -1, -1)
        for s, hm in enumerate(hands):
            for i in bits(hm):
                key = (t.lo[i] + t.hi[i], t.hi[i], s, i)
                if key[:2] > best[:2]:
                    best = key
        return best[2], best[3]

    def _starter(
        self,
        hands: list[int],
        round_no: int,
        prev_starter: int,
        prev_winner: int,
        fired: set[str],
        gaps: list[Gap],
    ) -> tuple[int, int, str, bool]:
        """Return (starter, forced lead tile, lead mode, redeal wanted)."""
        op = self.opening
        n = self.players
        lead_mode = op.lead
        if round_no > 1 and op.later_lead == "any":
            lead_mode = "any"
        use_first = True
        if round_no > 1:
            ls = op.later_starter
            if ls is None:
                gaps.append(
                    Gap("start.later", f"round {round_no} starts", _fallback("start.later"))
                )
            else:
                fired.add("start.later")
                if ls == "next_seat":
                    return (prev_starter + 1) % n, -1, lead_mode, False
                if ls == "round_winner":
                    seat = prev_winner if prev_winner >= 0 else (prev_starter + 1) % n
                    return seat, -1, lead_mode, False
        if use_first and round_no == 1:
            fired.add("start.first")
        fs = op.first_starter
        if fs == "seat":
            return 0, -1, lead_mode, False
        if fs == "highest_double":
            for v in range(self.spec.dset.max_pip, -1, -1):
                d = self.double_index[v]
                seat = self._holder(hands, d)
                if seat >= 0:
                    return seat, (d if lead_mode == "starter_double" else -1), lead_mode, False
        else:
            assert op.required_double is not None
            d = self.double_index[op.required_double]
            seat = self._holder(hands, d)
            if seat >= 0:
                return seat, (d if lead_mode == "starter_double" else -1), lead_mode, False
        nd = op.no_double
        if nd == "redeal":
            fired.add("start.no_double")
            return -1, -1, lead_mode, True
        if nd is None:
            gaps.append(
                Gap(
                    "start.no_double",
                    "nobody holds the double the starter rule asks for",
                    _fallback("start.no_double"),
                )
            )
        else:
            fired.add("start.no_double")
        seat, tile = self._heaviest(hands)
        return seat, (tile if lead_mode == "starter_double" else -1), lead_mode, False

    def setup_round(
        self,
        rng: random.Random,
        *,
        round_no: int = 1,
        prev_starter: int = -1,
        prev_winner: int = -1,
        deal: DealRecord | None = None,
        fired: set[str],
        gaps: list[Gap],
        keep_deal: bool = True,
    ) -> tuple[_Setup, str]:
        """Deal (or take ``deal``), apply redeal rules, find the starter and the lead."""
        t = self.t
        redeals = 0
        lead_mode = "any"
        while True:
            if deal is None:
                hands, rest, dead = self._deal(rng)
            else:
                hands = []
                for hand in deal.hands:
                    m = 0
                    for i in hand:
                        m |= 1 << i
                    hands.append(m)
                rest = list(deal.stock)
                dead = 0
                for i in deal.dead:
                    dead |= 1 << i
            record = (
                DealRecord(hands=[bits(hm) for hm in hands], stock=list(rest), dead=bits(dead))
                if keep_deal
                else None
            )
            redo = False
            if t.redeal_doubles:
                if any((hm & t.double_mask).bit_count() >= t.redeal_doubles for hm in hands):
                    fired.add("setup.redeal")
                    redo = True
            starter, lead_tile, lead_mode = -1, -1, "any"
            if not redo:
                starter, lead_tile, lead_mode, redo = self._starter(
                    hands, round_no, prev_starter, prev_winner, fired, gaps
                )
            if redo:
                if deal is not None and deal.redeals < MAX_REDEALS:
                    raise DealRejected("the recorded deal is one the rules deal again")
                # A replayed deal at the limit is the one that was kept after it.
                redeals = deal.redeals if deal is not None else redeals + 1
                if redeals < MAX_REDEALS:
                    continue
                gaps.append(
                    Gap(
                        "setup.redeal_limit",
                        "100 redeals in a row",
                        _fallback("setup.redeal_limit"),
                    )
                )
                if starter < 0:
                    starter, tile = self._heaviest(hands)
                    lead_mode = self.opening.lead
                    lead_tile = tile if lead_mode == "starter_double" else -1
            break
        stock = rest[::-1]
        turned_up = -1
        if lead_mode == "turned_up":
            fired.add("lead.turned_up")
            skip = self.opening.turned_up_doubles == "skip"
            for pos in range(len(stock) - 1, -1, -1):
                if skip and t.is_double[stock[pos]]:
                    fired.add("lead.skip_double")
                    continue
                turned_up = stock.pop(pos)
                break
            if turned_up < 0:
                gaps.append(
                    Gap("lead.no_tile", "no tile may be turned up", _fallback("lead.no_tile"))
                )
                lead_mode = "any"
        if lead_mode == "any":
            fired.add("lead.any")
        elif lead_mode == "starter_double":
            fired.add("lead.double")
        return (
            _Setup(hands, stock, dead, record, starter, lead_tile, turned_up, redeals),
            lead_mode,
        )

    # ------------------------------------------------------------------ play
    def _union_mask(self, ends: list[int]) -> int:
        key = 0
        for v in ends:
            key |= 1 << v
        m = self._union.get(key)
        if m is None:
            m = 0
            suit = self.t.suit
            for v in range(len(suit)):
                if key >> v & 1:
                    m |= suit[v]
            self._union[key] = m
        return m

    def legal_moves(self, hand: int, ends: list[int]) -> list[Move]:
        """The distinct placements of ``hand`` on ``ends`` in engine order.

        Order: for each distinct end value (in end order), the fitting tiles by deck
        index. On an empty board, every tile of the hand as a lead.
        """
        t = self.t
        if not ends:
            return [Move(i, -1, -1) for i in bits(hand)]
        moves: list[Move] = []
        seen = 0
        suit = t.suit
        for k, v in enumerate(ends):
            if seen >> v & 1:
                continue
            seen |= 1 << v
            fit = hand & suit[v]
            if fit:
                try:
                    found = BITS[fit][1]
                except KeyError:
                    found = set_bits(fit)[1]
                for i in found:
                    moves.append(Move(i, k, v))
        return moves

    def play_round(
        self,
        rng: random.Random,
        players: Sequence[Player],
        *,
        round_no: int = 1,
        prev_starter: int = -1,
        prev_winner: int = -1,
        totals: tuple[int, ...] | None = None,
        deal: DealRecord | None = None,
        record: bool = False,
        sink: list[Action] | None = None,
    ) -> RoundResult:
        """Play one round and return its result (with deal and actions if ``record``).

        ``deal`` replays a recorded deal instead of shuffling; ``sink`` is a list the
        actions are appended to as they happen (it implies ``record``), so a caller
        sees the actions taken so far even when a player raises.
        """
        t = self.t
        n = self.players
        if len(players) != n:
            raise ValueError(f"need {n} players, got {len(players)}")
        if self._fast and deal is None and not record and sink is None and not self.check:
            rand_fast = self._random_methods(players)
            if rand_fast is not None:
                return self._fast_round(rng, rand_fast, round_no, prev_starter, prev_winner)
        fired: set[str] = set()
        gaps: list[Gap] = []
        setup, lead_mode = self.setup_round(
            rng,
            round_no=round_no,
            prev_starter=prev_starter,
            prev_winner=prev_winner,
            deal=deal,
            fired=fired,
            gaps=gaps,
            keep_deal=record or sink is not None,
        )
        hands = setup.hands
        stock = setup.stock
        dead_mask = setup.dead
        suit = t.suit
        lo, hi, is_double = t.lo, t.hi, t.is_double
        line = t.shape == "line"
        cross_all = t.shape == "cross_doubles"
        spinner_open = t.shape == "spinner"
        reserve = t.reserve
        can_draw = t.draw != "none"
        limit = t.draw_limit
        must_play_drawn = t.must_play_drawn
        check = self.check
        actions: list[Action] | None = sink if sink is not None else ([] if record else None)
        rand = [p.rng.random if type(p) is RandomBot else None for p in players]
        passed_on = [0] * n
        tot = totals if totals is not None else tuple(0 for _ in t.sides)

        ends: list[int] = []
        board = 0
        turns = draws = passes = played = 0
        placed_double = drawn_played = limit_hit = False
        starter = setup.starter
        lead_tile = setup.lead_tile

        def place(seat: int, i: int, end: int) -> None:
            nonlocal board, spinner_open, placed_double, ends
            hands[seat] ^= 1 << i
            board |= 1 << i
            a, b = lo[i], hi[i]
            if is_double[i]:
                placed_double = True
                cross = cross_all or spinner_open
                if cross and not cross_all:
                    spinner_open = False
            else:
                cross = False
            if end < 0:
                ends = [a, a, a, a] if cross else [a, b]
            else:
                v = ends[end]
                if cross:
                    ends.append(v)
                    ends.append(v)
                else:
                    ends[end] = b if a == v else a

        # the first tile
        if setup.turned_up >= 0:
            i = setup.turned_up
            board |= 1 << i
            a = lo[i]
            if is_double[i] and (cross_all or spinner_open):
                ends = [a, a, a, a]
                spinner_open = False
            else:
                ends = [a, hi[i]]
            first_tile = i
            seat = starter
        else:
            seat = starter
            turns += 1
            hand = hands[seat]
            if lead_tile >= 0:
                mv = Move(lead_tile, -1, -1)
                r = rand[seat]
                if r is not None:
                    r()  # a random bot draws once per decision, forced or not
                else:
                    mv = players[seat].choose(
                        self._view(seat, hands, ends, board, stock, passed_on, tot, 0, actions),
                        [mv],
                    )
                    if mv != Move(lead_tile, -1, -1):
                        raise InvariantError(f"seat {seat} did not lead the required tile")
            else:
                r = rand[seat]
                if r is not None:
                    m = hand
                    k = floor(r() * hand.bit_count())
                    while k:
                        m &= m - 1
                        k -= 1
                    mv = Move((m & -m).bit_length() - 1, -1, -1)
                else:
                    moves = [Move(i, -1, -1) for i in bits(hand)]
                    mv = players[seat].choose(
                        self._view(seat, hands, ends, board, stock, passed_on, tot, 0, actions),
                        moves,
                    )
                    if mv not in moves:
                        raise InvariantError(f"seat {seat} chose {mv}, not a legal lead")
            first_tile = i = mv.tile
            hands[seat] ^= 1 << i
            board |= 1 << i
            cross = False
            if is_double[i]:
                placed_double = True
                cross = cross_all or spinner_open
                if cross:
                    spinner_open = False
            ends = [lo[i], lo[i], lo[i], lo[i]] if cross else [lo[i], hi[i]]
            played += 1
            if actions is not None:
                actions.append(Action("lead", seat, mv.tile, -1, -1))
            if hands[seat] == 0:
                return self._finish(
                    END_OUT,
                    seat,
                    setup,
                    hands,
                    fired,
                    gaps,
                    turns,
                    draws,
                    passes,
                    played,
                    placed_double,
                    drawn_played,
                    limit_hit,
                    actions,
                    first_tile,
                    dead_mask,
                    board,
                    stock,
                )
            seat = (seat + 1) % n
        if check:
            check_tiles(t, hands, stock, board, dead_mask)

        if line and actions is None and not check and None not in rand and must_play_drawn:
            end_kind, out_seat, c = self._line_random(hands, stock, ends[0], ends[1], seat, rand)
            turns += c[0]
            draws += c[1]
            passes += c[2]
            played += c[3]
            board = c[4] | board
            return self._finish(
                end_kind, out_seat, setup, hands, fired, gaps, turns, draws, passes, played,
                placed_double or bool(c[5]), bool(c[6]), bool(c[7]), actions, first_tile,
                dead_mask, board, stock,
            )  # fmt: skip

        forced_passes = 0
        end_kind = ""
        out_seat = -1
        while True:
            turns += 1
            if turns > MAX_TURNS:
                raise InvariantError("a round ran past 100000 turns")
            hand = hands[seat]
            if line:
                e0 = ends[0]
                e1 = ends[1]
                s0 = suit[e0]
                s1 = suit[e1] if e1 != e0 else 0
                legal = hand & (s0 | s1)
            else:
                legal = hand & self._union_mask(ends)
            drew = 0
            if not legal and can_draw:
                while True:
                    if limit and drew == limit:
                        limit_hit = True
                        break
                    if len(stock) <= reserve:
                        if reserve:
                            end_kind = END_RESERVE
                        break
                    i = stock.pop()
                    hands[seat] |= 1 << i
                    drew += 1
                    if actions is not None:
                        actions.append(Action("draw", seat, i))
                    if check:
                        check_tiles(t, hands, stock, board, dead_mask)
                    if line:
                        legal = (1 << i) & (s0 | s1)
                    else:
                        legal = (1 << i) & self._union_mask(ends)
                    if legal:
                        break
                draws += drew
                hand = hands[seat]
                if end_kind:
                    break
            if not legal:
                passes += 1
                forced_passes += 1
                vm = 0
                for v in ends:
                    vm |= 1 << v
                passed_on[seat] |= vm
                if actions is not None:
                    actions.append(Action("pass", seat))
                if forced_passes >= n and (not can_draw or (not reserve and not stock)):
                    end_kind = END_BLOCKED
                    break
                seat = (seat + 1) % n
                continue
            r = rand[seat]
            if line and r is not None and (drew == 0 or must_play_drawn):
                a_ = legal & s0
                b_ = legal & s1
                na = a_.bit_count()
                k = floor(r() * (na + b_.bit_count()))
                if k < na:
                    m, end = a_, 0
                else:
                    m, end, k = b_, 1, k - na
                while k:
                    m &= m - 1
                    k -= 1
                i = (m & -m).bit_length() - 1
            else:
                moves = self.legal_moves(legal, ends)
                if drew and not must_play_drawn:
                    moves.append(PASS)
                if r is not None:
                    mv = moves[floor(r() * len(moves))]
                else:
                    mv = players[seat].choose(
                        self._view(seat, hands, ends, board, stock, passed_on, tot, drew, actions),
                        moves,
                    )
                    if mv not in moves:
                        raise InvariantError(f"seat {seat} chose {mv}, not a legal move")
                if mv.tile < 0:
                    passes += 1
                    forced_passes = 0
                    if actions is not None:
                        actions.append(Action("pass", seat))
                    seat = (seat + 1) % n
                    continue
                i, end = mv.tile, mv.end
            v = ends[end]
            if check:
                check_placement(t, i, v, hands[seat])
            place(seat, i, end)
            played += 1
            if drew:
                drawn_played = True
            forced_passes = 0
            if actions is not None:
                actions.append(Action("play", seat, i, end, v))
            if check:
                check_tiles(t, hands, stock, board, dead_mask)
            if hands[seat] == 0:
                end_kind = END_OUT
                out_seat = seat
                break
            seat = (seat + 1) % n
        if end_kind != END_OUT:
            out_seat = -1
        return self._finish(
            end_kind, out_seat, setup, hands, fired, gaps, turns, draws, passes, played,
            placed_double, drawn_played, limit_hit, actions, first_tile, dead_mask, board, stock,
        )  # fmt: skip

    def _fast_round(
        self,
        rng: random.Random,
        rand: list[Any],
        round_no: int,
        prev_starter: int,
        prev_winner: int,
    ) -> RoundResult:
        """:meth:`play_round` for a line with random bots only, without recording.

        The same deal, choices and random draws as the general path (tests hold the
        results equal), with less bookkeeping: the hot path of simulations.
        """
        t = self.t
        fired: set[str] = set()
        gaps: list[Gap] = []
        if self._plain_setup:
            # setup_round's steps when no rule deals again and no tile is turned up
            hands, rest, dead = self._deal(rng)
            starter, lead_tile, lead_mode, _ = self._starter(
                hands, round_no, prev_starter, prev_winner, fired, gaps
            )
            fired.add("lead.any" if lead_mode == "any" else "lead.double")
            setup = _Setup(hands, rest[::-1], dead, None, starter, lead_tile, -1, 0)
        else:
            setup, _ = self.setup_round(
                rng,
                round_no=round_no,
                prev_starter=prev_starter,
                prev_winner=prev_winner,
                fired=fired,
                gaps=gaps,
                keep_deal=False,
            )
        lo, hi = t.lo, t.hi
        hands = setup.hands
        seat = setup.starter
        turns = played = 0
        doubles = False
        first = setup.turned_up
        if first >= 0:
            board = 1 << first
        else:
            turns = 1
            r = rand[seat]
            hand = hands[seat]
            if setup.lead_tile >= 0:
                r()
                first = setup.lead_tile
            else:  # the k-th tile of the hand (whole hands would flood the set-bits table)
                m = hand
                k = floor(r() * hand.bit_count())
                while k:
                    m &= m - 1
                    k -= 1
                first = (m & -m).bit_length() - 1
            board = 1 << first
            hands[seat] = hand ^ board
            played = 1
            doubles = t.is_double[first]
            if not hands[seat]:
                return self._finish(
                    END_OUT, seat, setup, hands, fired, gaps, 1, 0, 0, 1, doubles, False,
                    False, None, first, setup.dead, board, setup.stock,
                )  # fmt: skip
            seat = seat + 1 if seat + 1 < self.players else 0
        if self._no_draw:
            before = t.full_mask ^ setup.dead ^ board
            out_seat, passes = line_no_draw(
                hands, lo[first], hi[first], seat, rand, t.suit, t.pipsum
            )
            after = 0
            for hm in hands:
                after |= hm
            board |= before ^ after
            n_played = board.bit_count()
            return self._finish(
                END_OUT if out_seat >= 0 else END_BLOCKED, out_seat, setup, hands, fired, gaps,
                n_played - played + turns + passes, 0, passes, n_played,
                bool(board & t.double_mask), False, False, None, first, setup.dead, board,
                setup.stock,
            )  # fmt: skip
        end, out_seat, c = self._line_random(hands, setup.stock, lo[first], hi[first], seat, rand)
        return self._finish(
            end, out_seat, setup, hands, fired, gaps, turns + c[0], c[1], c[2], played + c[3],
            doubles or bool(c[5]), bool(c[6]), bool(c[7]), None, first, setup.dead,
            board | c[4], setup.stock,
        )  # fmt: skip

    def _line_random(
        self,
        hands: list[int],
        stock: list[int],
        e0: int,
        e1: int,
        seat: int,
        rand: list[Any],
    ) -> tuple[str, int, tuple[int, int, int, int, int, int, int, int]]:
        """The play loop for a line with random bots only: the hot path of simulations.

        Makes exactly the choices and random draws of the general loop (a test holds
        them equal); returns the end, the seat that went out and the counts
        ``(turns, draws, passes, played, board mask, double placed, drawn played,
        limit hit)``.
        """
        t = self.t
        suit = t.suit
        pipsum = t.pipsum
        dmask = t.double_mask
        reserve = t.reserve
        can_draw = t.draw != "none"
        limit = t.draw_limit
        if not can_draw:
            before = 0
            for h in hands:
                before |= h
            out_seat, passes = line_no_draw(hands, e0, e1, seat, rand, suit, pipsum)
            after = 0
            for h in hands:
                after |= h
            board = before ^ after
            played = board.bit_count()
            c = (played + passes, 0, passes, played, board, board & dmask, 0, 0)
            return (END_OUT if out_seat >= 0 else END_BLOCKED), out_seat, c
        before = 0
        for h in hands:
            before |= h
        code, out_seat, passes, draws, drawn, drawn_played, limit_hit = line_draw(
            hands, stock, e0, e1, seat, rand, suit, pipsum, reserve, limit
        )
        after = 0
        for h in hands:
            after |= h
        board = (before | drawn) ^ after
        played = board.bit_count()
        turns = played + passes + (1 if code == 2 else 0)
        c = (turns, draws, passes, played, board, board & dmask, drawn_played, limit_hit)
        return _ENDS[code], out_seat, c

    def _view(
        self,
        seat: int,
        hands: list[int],
        ends: list[int],
        board: int,
        stock: list[int],
        passed_on: list[int],
        totals: tuple[int, ...],
        drew: int,
        actions: list[Action] | None = None,
    ) -> PlayerView:
        history: tuple[Action, ...] = ()
        if actions is not None:
            history = tuple(
                Action("draw", a.seat) if a.kind == "draw" and a.seat != seat else a
                for a in actions
            )
        return PlayerView(
            seat=seat,
            hand=hands[seat],
            ends=tuple(ends),
            board_count=board.bit_count(),
            stock_count=len(stock),
            hand_counts=tuple([h.bit_count() for h in hands]),
            passed_on=tuple(passed_on),
            totals=totals,
            drew=drew,
            tables=self.t,
            history=history,
        )

    def _hand_values(self, hands: list[int]) -> tuple[int, ...]:
        """The scoring value left in each hand, by table lookups per chunk of the deck."""
        tables = self._hv_tables
        if self._hv_width == 16 and len(tables) <= 3:
            if len(tables) == 1:
                r0 = tables[0]
                return tuple([r0[hm] for hm in hands])
            if len(tables) == 2:
                r0, r1 = tables
                return tuple([r0[hm & 0xFFFF] + r1[hm >> 16] for hm in hands])
            r0, r1, r2 = tables
            return tuple([r0[hm & 0xFFFF] + r1[hm >> 16 & 0xFFFF] + r2[hm >> 32] for hm in hands])
        width = self._hv_width
        chunk = (1 << width) - 1
        hv = []
        for hm in hands:
            total = 0
            for row in tables:
                total += row[hm & chunk]
                hm >>= width
            hv.append(total)
        return tuple(hv)

    def _round_clauses(
        self, end: str, flags: int, fired: set[str], sfired: tuple[str, ...]
    ) -> tuple[str, ...]:
        """The sorted clause ids of a round: ``fired`` at setup, the play ``flags`` and
        the end, and the scoring's ``sfired``."""
        out = set(fired) | self._always_fired
        for bit, clause in (
            (1, "play.match"),
            (2, "play.doubles"),
            (4, "play.draw"),
            (8, "play.play_drawn"),
            (16, "play.draw_limit"),
            (32, "play.pass"),
            (64, "score.values"),
        ):
            if flags & bit:
                out.add(clause)
        out.add("end." + end)
        out.update(sfired)
        return tuple(sorted(out))

    def _finish(
        self,
        end: str,
        out_seat: int,
        setup: _Setup,
        hands: list[int],
        fired: set[str],
        gaps: list[Gap],
        turns: int,
        draws: int,
        passes: int,
        played: int,
        placed_double: bool,
        drawn_played: bool,
        limit_hit: bool,
        actions: list[Action] | None,
        first_tile: int,
        dead_mask: int,
        board: int,
        stock: list[int],
    ) -> RoundResult:
        t = self.t
        hv = self._hand_values(hands)
        held = 0
        if self.special_mask:
            for hm in hands:
                held |= hm
            held &= self.special_mask
        # scoring is a pure function of (end, out seat, hand values): kept for reuse
        score_key = (end, out_seat, hv)
        scored = self._scores.get(score_key)
        if scored is None:
            winners, points, sfired_list, sgaps_list = score_round(
                t, self.scoring, end, out_seat, hv
            )
            scored = (winners, points, tuple(sfired_list), tuple(sgaps_list))
            if len(self._scores) < SCORE_MEMO:
                self._scores[score_key] = scored
        winners, points, sfired, sgaps = scored
        flags = (
            (1 if played else 0)
            | (2 if placed_double else 0)
            | (4 if draws else 0)
            | (8 if drawn_played else 0)
            | (16 if limit_hit else 0)
            | (32 if passes else 0)
            | (64 if held else 0)
        )
        # equal keys mean equal clause sets (a set's order may differ: then two entries)
        key = (end, flags, tuple(fired), sfired)
        clauses = self._finish_clauses.get(key)
        if clauses is None:
            clauses = self._finish_clauses[key] = self._round_clauses(end, flags, fired, sfired)
        if sgaps:
            gaps.extend(sgaps)
        result = RoundResult(
            cast("RoundEnd", end),
            setup.starter,
            out_seat,
            winners,
            points,
            hv,
            turns,
            draws,
            passes,
            played,
            setup.redeals,
            clauses,
            tuple(gaps),
            setup.turned_up,
            first_tile,
            setup.deal,
            actions,
        )
        if self.check:
            check_tiles(t, hands, stock, board, dead_mask)
            check_round(self, result, hands)
        return result
