"""The All Fives booklet's worked example shows the open ends' count and the points
scored during play, taken from the engine's round (``score.ends``)."""

from __future__ import annotations

from deckgen.booklet.play import example_round
from deckgen.rulespec import load_rules


def test_example_counts_the_ends() -> None:
    ex = example_round(load_rules("all-fives"))
    assert ex is not None
    plays = [s for s in ex.steps if s.kind == "play"]
    assert plays
    assert all(s.count >= 0 for s in plays)
    assert all(s.scored in (0, s.count) and s.scored % 5 == 0 for s in plays)
    per_side = [0] * len(ex.sides)
    side_of = {seat: i for i, side in enumerate(ex.sides) for seat in side}
    for s in plays:
        per_side[side_of[s.seat]] += s.scored
    # the lead may score too: the rest of the play points came from the lays
    assert all(p <= q for p, q in zip(per_side, ex.play_points, strict=True))
    assert sum(ex.play_points) - sum(per_side) in (0, 5, 10)
    assert all(p >= d for p, d in zip(ex.points, ex.play_points, strict=True))


def test_a_line_game_has_no_count() -> None:
    ex = example_round(load_rules("two-player"))
    assert ex is not None
    assert ex.play_points == ()
    assert all(s.count == -1 for s in ex.steps)


def test_every_board_shows_its_count() -> None:
    from deckgen.booklet.diagram import PlacedTiles

    ex = example_round(load_rules("all-fives"))
    assert ex is not None
    plays = [s for s in ex.steps if s.kind == "play"]
    for p, s in zip(ex.placements, plays, strict=True):
        if isinstance(p.board, PlacedTiles):
            keys = [k for _, _, k in p.board.labels if k.startswith("count:")]
            assert keys == [f"count:{s.count}:{s.scored}"]
