"""Boards with a spinner or crosswise doubles, laid out on the table from engine states."""

from __future__ import annotations

import random

import pytest

from deckgen.booklet.diagram import PlacedTiles, placed_diagram
from deckgen.booklet.tablelayout import layout_board
from deckgen.engine import Engine, make_bots
from deckgen.engine.board import board_after
from deckgen.rulespec import load_rules


def _rects(view: PlacedTiles) -> list[tuple[float, float, float, float]]:
    return [(x, y, 1.0 if v else 2.0, 2.0 if v else 1.0) for x, y, v, *_ in view.tiles]


@pytest.mark.parametrize("seed", range(1, 6))
def test_real_positions_lay_out_without_overlap(seed: int) -> None:
    spec = load_rules("double-twelve")
    result = Engine(spec, 3).play_round(
        random.Random(seed), make_bots(["smart"], 3, seed), record=True
    )
    assert result.actions is not None
    drawn = 0
    for i, act in enumerate(result.actions):
        if act.kind != "play":
            continue
        board = board_after(spec, result, i + 1)
        view = layout_board(board)
        if view is None:
            continue
        drawn += 1
        assert len(view.tiles) == len(board.tiles)
        rects = _rects(view)
        for a in range(len(rects)):
            for b in range(a + 1, len(rects)):
                ra, rb = rects[a], rects[b]
                apart = (
                    ra[0] + ra[2] <= rb[0] + 1e-6
                    or rb[0] + rb[2] <= ra[0] + 1e-6
                    or ra[1] + ra[3] <= rb[1] + 1e-6
                    or rb[1] + rb[3] <= ra[1] + 1e-6
                )
                assert apart
        assert sum(t[5] for t in view.tiles) == 1  # the tile just laid is outlined
        assert len(view.ends) == len(board.ends)
        # every half shown is a value of the tile placed there
        shown = sorted(tuple(sorted((t[3], t[4]))) for t in view.tiles)
        assert shown == sorted(tuple(sorted(p.tile.values)) for p in board.tiles)
    assert drawn >= 5


def test_crosswise_double_opens_arms() -> None:
    spec = load_rules("double-twelve")
    for seed in range(1, 40):
        result = Engine(spec, 2).play_round(
            random.Random(seed), make_bots(["random"], 2, seed), record=True
        )
        board = board_after(spec, result)
        if sum(p.crosswise for p in board.tiles) >= 2:
            view = layout_board(board)
            if view is None:
                continue
            directions = {d for _, _, d in view.ends}
            assert {"N", "S"} & directions or len(view.ends) > 2
            svg = placed_diagram(view, max_width_mm=120)
            assert svg.count("<use") == 3 * len(view.tiles)
            return
    pytest.fail("no round with two crosswise doubles that lays out")
