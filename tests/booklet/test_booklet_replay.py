"""Every example in a booklet is a real round: replayed through the kernel, it agrees.

The booklet's example rounds carry the seed and the computer players they were played
with. Each test plays that round again with the engine and holds the booklet against
it: every line of the turn-by-turn table (who, which tile on which open number, how many
draws, a pass), every drawn position (the tiles on the board after that turn, as the
kernel's own layout has them), and every worked example (the hands left, their sums and
each side's points). A booklet whose text or picture says something the kernel did not
do fails here.
"""

from __future__ import annotations

import random
import re
from functools import cache

import pytest

from deckgen.booklet.content import Extras, build_booklet, signed, tile_text
from deckgen.booklet.diagram import BoardView, PlacedTiles
from deckgen.booklet.example import ExampleRound
from deckgen.booklet.html import page_format
from deckgen.booklet.model import Booklet, Box, Figure, Sum, Table
from deckgen.booklet.play import ending_round, example_round
from deckgen.engine import Engine, make_bots
from deckgen.engine.board import board_after
from deckgen.engine.results import RoundResult
from deckgen.rulespec import RuleSpec, load_rules
from deckgen.tiles import Tile

GAMES = ("card-domino", "mexican-train", "all-fives", "two-player", "partnership")


@cache
def _rounds(rules_id: str) -> tuple[RuleSpec, ExampleRound, ExampleRound | None]:
    rules = load_rules(rules_id)
    ex = example_round(rules)
    assert ex is not None
    return rules, ex, ending_round(rules)


def _replay(rules: RuleSpec, ex: ExampleRound) -> tuple[Engine, RoundResult]:
    assert ex.seed >= 0, "the example does not say which seed it was played with"
    assert ex.bots, "the example does not say which computer players played it"
    engine = Engine(rules, ex.players)
    bots = make_bots(list(ex.bots), ex.players, ex.seed)
    result = engine.play_round(random.Random(ex.seed), bots, record=True)
    assert result.actions is not None
    return engine, result


def _booklet(rules_id: str, lang: str = "en") -> Booklet:
    rules, ex, ending = _rounds(rules_id)
    return build_booklet(rules, lang, page_format("a5"), Extras(example=ex, ending=ending))


def _turns(engine: Engine, result: RoundResult) -> list[tuple[int, Tile | None, int, int]]:
    """(seat, tile laid or None for a pass, value matched, cards drawn) per turn."""
    assert result.actions is not None
    tiles = engine.t.tiles
    out: list[tuple[int, Tile | None, int, int]] = []
    drawn = 0
    for a in result.actions:
        if a.kind == "draw":
            drawn += 1
        elif a.kind == "play":
            out.append((a.seat, tiles[a.tile], a.value, drawn))
            drawn = 0
        elif a.kind == "pass":
            out.append((a.seat, None, -1, drawn))
            drawn = 0
    return out


WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


@pytest.mark.parametrize("rules_id", GAMES)
def test_turn_table_is_the_kernels_round(rules_id: str) -> None:
    rules, ex, _ = _rounds(rules_id)
    engine, result = _replay(rules, ex)
    section = next(s for s in _booklet(rules_id).sections if s.key == "example")
    rows = [row for b in section.blocks if isinstance(b, Table) for row in b.rows]
    turns = _turns(engine, result)
    assert len(rows) == len(turns), "the table has other turns than the kernel played"
    for row, (seat, tile, value, drew) in zip(rows, turns, strict=True):
        turn, player, what = row
        assert player == f"Player {seat + 1}", (turn, row)
        if tile is None:
            assert "passes" in what, (turn, row)
        else:
            assert f"lays {tile_text(tile)} on the open {value}" in what, (turn, row)
        if drew:
            assert what.startswith(f"draws {WORDS[drew]} "), (turn, row, drew)
        else:
            assert not what.startswith("draws"), (turn, row)


def _tile(tiles: object, lead: object) -> Tile:
    return lead if isinstance(lead, Tile) else tiles[lead]  # type: ignore[index]


def _board_tiles(view: BoardView | PlacedTiles | None) -> set[Tile]:
    if isinstance(view, BoardView):
        return {Tile.of(a, b) for a, b in view.line}
    if isinstance(view, PlacedTiles):
        return {Tile.of(t[3], t[4]) for t in view.tiles}
    return set()


@pytest.mark.parametrize("rules_id", GAMES)
def test_every_drawn_position_is_the_kernels_board(rules_id: str) -> None:
    """The positions the play section and the turn-by-turn section draw ("after turn N")
    hold exactly the tiles the kernel's layout has on the table after that turn (a long
    train shows only its newest tiles: a subset, never a tile that is not there)."""
    rules, ex, _ = _rounds(rules_id)
    engine, result = _replay(rules, ex)
    assert result.actions is not None
    tiles = engine.t.tiles
    booklet = _booklet(rules_id)
    captions = [b.caption for b in booklet.blocks() if isinstance(b, Figure)]
    after = [c for c in captions if c.startswith(("After turn", "The same round"))]
    assert after, "no position of the example round is drawn"
    plays = [i for i, a in enumerate(result.actions) if a.kind == "play"]
    checked = 0
    for k, placement in enumerate(ex.placements):
        if placement.board is None:
            continue
        upto = plays[k] + 1
        kernel = {tiles[a.tile] for a in result.actions[:upto] if a.kind in ("lead", "play")}
        kernel.add(_tile(tiles, result.lead_tile))  # turned up, or the station
        if rules.params.board.shape != "trains":  # the kernel's own layout of the table
            assert kernel == {p.tile for p in board_after(rules, result, upto).tiles}
        drawn = _board_tiles(placement.board)
        assert placement.tile in kernel
        assert drawn <= kernel, (k, drawn - kernel)
        board = placement.board
        if not (isinstance(board, PlacedTiles) and any(k == "more" for *_, k in board.labels)):
            assert drawn == kernel, (k, kernel - drawn)
        checked += 1
    assert checked >= len(after)
    for caption in after:
        m = re.search(r"(?:turn \d+: |later: )(Player \d+) has (?:just )?laid (\d+/\d+)", caption)
        assert m, caption
        assert any(
            f"Player {p.seat + 1}" == m.group(1) and tile_text(p.tile) == m.group(2)
            for p in ex.placements
        ), caption


def _sums(box: Box) -> dict[str, list[tuple[str, str]]]:
    return {b.title: list(b.lines) for b in box.blocks if isinstance(b, Sum)}


@pytest.mark.parametrize("rules_id", GAMES)
def test_worked_examples_score_as_the_kernel_does(rules_id: str) -> None:
    rules, ex, ending = _rounds(rules_id)
    boxes = {b.title: b for b in _booklet(rules_id).blocks() if isinstance(b, Box)}
    rounds = {"Worked example": ex}
    if ending is not None and ex.end == "out":
        rounds["Worked example: nobody goes out"] = ending
    assert set(boxes) == set(rounds)
    for title, shown in rounds.items():
        box = boxes[title]
        _, result = _replay(rules, shown)
        sums = _sums(box)
        points = sums["So the round scores:"]
        assert [v for _, v in points] == [signed(p) for p in result.points]
        hands = sums["What is left in each hand:"]
        for (label, value), total in zip(hands, result.hand_values, strict=True):
            assert value.endswith(str(total)) or (total == 0 and "left" in value), (label, value)
        assert shown.end == result.end
