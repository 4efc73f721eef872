"""All Fives' ``play.match``: a tile may go on every open end that shows its number (the
spinner's four sides included, note ``spinner-sides``), and where the ends count
(``score.ends``) two such ends are two moves whenever the board or the count differs.

The clause is read here on its own, from the layout's open ends, and held to the kernel's
``legal_moves``: every placement the clause allows is listed (or is the same as a listed
one: same tile, same board and count after it), nothing else is, and no two listed
moves are the same. Before the fix the kernel kept one move per number, so the spinner's
free side was never offered while a long side showed the same number.
"""

from __future__ import annotations

import random

import deckgen
from deckgen.engine import Engine, Move
from deckgen.engine.players import RandomBot
from deckgen.engine.state import RoundState
from deckgen.rulespec import load_rules


def _after(state: RoundState, move: Move) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """The board as the rules see it after ``move``: the open ends' kinds (sorted), the
    count, and the points scored in play."""
    x = state.copy()
    x.step(move)
    ec = x.endcount
    assert ec is not None
    return tuple(sorted(ec.kinds(x.layout.ends))), ec.count(x.layout.ends), tuple(x.play_points)


def _clause_placements(state: RoundState) -> list[Move]:
    """Every (tile, end) the clause allows: a tile the seat may lay, on any open end
    showing one of its numbers."""
    t = state.t
    ends = state.layout.ends
    return [
        Move(i, e, v)
        for i in range(len(t.tiles))
        if state.legal >> i & 1
        for e, v in enumerate(ends)
        if v in (t.lo[i], t.hi[i])
    ]


def test_legal_moves_are_every_matching_open_end() -> None:
    spec = load_rules("all-fives")
    offered_side = 0
    for players in (2, 3, 4):
        engine = Engine(spec, players)
        for seed in range(40):
            rng = random.Random(seed)
            state = engine.start_round(rng)
            bot = RandomBot(random.Random(1000 + seed))
            while not state.is_over:
                moves = state.legal_moves()
                if state.layout.ends:
                    placements = [m for m in moves if not m.is_pass]
                    wanted = _clause_placements(state)
                    assert set(placements) <= set(wanted), "a listed move the clause forbids"
                    outcome = {m: _after(state, m) for m in placements}
                    assert len(set(outcome.values())) == len(placements), (
                        f"two listed moves give the same board and count: {placements}"
                    )
                    for m in wanted:
                        same = [x for x in placements if x.tile == m.tile]
                        got = _after(state, m)
                        assert any(outcome[x] == got for x in same), (
                            f"seed {seed}, {players} players: tile {spec.dset.tiles[m.tile]} "
                            f"on end {m.end} of {state.layout.ends} (the clause allows it) "
                            f"is not among the legal moves {placements}"
                        )
                    offered_side += any(m.end >= 2 for m in placements)
                state.step(bot.choose(state.view((0,) * len(state.t.sides)), moves))
    assert offered_side > 100  # the spinner's sides were really offered


def test_seed_2_the_spinners_side_counts_20() -> None:
    """``new_round("all-fives", players=2, seed=2)``: after 5-5 and 4-5, the 5-6 may go
    on the other long side (count 10) or on the spinner's free side (count 20)."""
    steps = deckgen.new_round("all-fives", players=2, seed=2)

    def find(name: str, end: int) -> Move:
        return next(
            m for m in steps.legal_moves() if str(steps.tile(m.tile)) == name and m.end == end
        )

    steps.apply(find("5-5", -1))
    steps.apply(find("4-5", 0))
    on_long = steps.copy()
    on_long.apply(find("5-6", 1))
    steps.apply(find("5-6", 2))
    for s, count in ((on_long, 10), (steps, 20)):
        st = s._state
        assert st.endcount is not None
        assert st.endcount.count(st.layout.ends) == count
        assert st.play_points == [10 + count, 0]  # the lead's 10, then the count


def test_apply_takes_an_end_of_the_same_kind() -> None:
    """Both long sides of a fresh spinner are one move; laying on the second is legal
    too (the rules allow it) and gives the same board and count."""
    steps = deckgen.new_round("all-fives", players=2, seed=2)
    lead = next(m for m in steps.legal_moves() if str(steps.tile(m.tile)) == "5-5")
    steps.apply(lead)
    listed = next(m for m in steps.legal_moves() if str(steps.tile(m.tile)) == "4-5")
    assert listed.end == 0
    assert Move(listed.tile, 1, 5) not in steps.legal_moves()
    other = steps.copy()
    steps.apply(listed)
    other.apply(Move(listed.tile, 1, 5))
    a, b = steps._state, other._state
    assert a.endcount is not None
    assert b.endcount is not None
    assert sorted(a.endcount.kinds(a.layout.ends)) == sorted(b.endcount.kinds(b.layout.ends))
    assert a.play_points == b.play_points


def test_a_person_sees_what_each_end_counts() -> None:
    """At the terminal the two places for 5-6 are told apart by what they count."""
    from io import StringIO

    from deckgen.engine.human import HumanPlayer

    steps = deckgen.new_round("all-fives", players=2, seed=2)
    for name, end in (("5-5", -1), ("4-5", 0)):
        steps.apply(
            next(m for m in steps.legal_moves() if str(steps.tile(m.tile)) == name and m.end == end)
        )
    out = StringIO()
    moves = steps.legal_moves()
    chosen = HumanPlayer(StringIO("1\n"), out).choose(steps.view, moves)
    assert chosen == moves[0]
    text = out.getvalue()
    assert "play 5-6 on the 5 (end 1): the ends count 10, scores 10" in text
    assert "play 5-6 on the 5 (end 2): the ends count 20, scores 20" in text
    assert "play 2-5 on the 5 (end 1): the ends count 6\n" in text
