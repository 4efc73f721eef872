"""The Mexican Train booklet draws the table from the kernel's train layout: the
station, every player's train and the Mexican Train by name, an open-train coin."""

from __future__ import annotations

import random
from collections.abc import Sequence

from deckgen.booklet.diagram import PlacedTiles, placed_diagram
from deckgen.booklet.play import example_round
from deckgen.booklet.trainlayout import train_view
from deckgen.engine import DealRecord, Engine, Move, PlayerView
from deckgen.rulespec import load_rules
from deckgen.tiles import Tile

SPEC = load_rules("mexican-train")


def test_a_pass_puts_a_coin_on_that_train() -> None:
    short = SPEC.with_changes({"deal.hand_size": {str(n): 3 for n in range(2, 9)}})
    idx = {str(t): i for i, t in enumerate(SPEC.dset.tiles)}
    hands = [["0-1", "2-3", "4-5"], ["6-12", "6-7", "7-8"]]
    rest = [str(t) for t in SPEC.dset.tiles if str(t) not in {x for h in hands for x in h}]
    deal = DealRecord([[idx[x] for x in h] for h in hands], [idx[x] for x in rest], [])
    r = Engine(short, 2).play_round(random.Random(0), [_First(), _First()], deal=deal, record=True)
    assert r.actions is not None
    kinds = [a.kind for a in r.actions]
    first_pass = kinds.index("pass")
    before = train_view(SPEC, 2, r.turned_up, r.actions[:first_pass])
    after = train_view(SPEC, 2, r.turned_up, r.actions[: first_pass + 1])
    assert not before.markers
    assert len(after.markers) == 1
    keys = [k for _, _, k in after.labels]
    assert keys == ["train:0", "train:1", "mexican"]
    station = after.tiles[0]
    assert (station[3], station[4]) == (12, 12)
    assert station[2]
    svg = placed_diagram(after, label_text=lambda k: "Mexican Train" if k == "mexican" else k)
    assert "Mexican Train" in svg
    assert "<circle" in svg


class _First:
    name = "first"

    def choose(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        return moves[0]


def test_the_example_round_shows_trains() -> None:
    ex = example_round(SPEC)
    assert ex is not None
    assert ex.lead == Tile(12, 12)
    assert isinstance(ex.start, PlacedTiles)
    assert len(ex.start.labels) == ex.players + 1
    boards = [p.board for p in ex.placements]
    assert all(isinstance(b, PlacedTiles) for b in boards)
    assert any(isinstance(b, PlacedTiles) and b.markers for b in boards)
    plays = [s for s in ex.steps if s.kind == "play"]
    assert {s.end for s in plays} <= set(range(ex.players + 1))


def test_a_chicken_foot_has_three_toes() -> None:
    from deckgen.booklet.footlayout import foot_view

    spec = load_rules("chicken-foot")
    short = spec.with_changes({"deal.hand_size": {str(n): 5 for n in range(2, 9)}})
    idx = {str(t): i for i, t in enumerate(spec.dset.tiles)}
    hands = [["1-9", "2-9", "3-9", "2-2", "1-1"], ["4-9", "5-9", "6-9", "0-2", "5-8"]]
    used = {x for h in hands for x in h}
    rest = [str(t) for t in spec.dset.tiles if str(t) not in used]
    deal = DealRecord([[idx[x] for x in h] for h in hands], [idx[x] for x in rest], [])
    r = Engine(short, 2).play_round(random.Random(0), [_First(), _First()], deal=deal, record=True)
    assert r.actions is not None
    plays = [i for i, a in enumerate(r.actions) if a.kind == "play"]
    centre = foot_view(spec, 2, r.turned_up, r.actions[: plays[5] + 1])
    assert len(centre.links) == 6
    assert len(centre.ends) == 6
    k = next(i for i in plays[6:] if spec.dset.tiles[r.actions[i].tile].is_double)
    v = spec.dset.tiles[r.actions[k].tile].low
    foot = foot_view(spec, 2, r.turned_up, r.actions[: k + 1])  # the first later double
    assert len(foot.links) == 6 + 3  # its three toes
    assert len(foot.ends) == 5 + 3  # the arm it closed has no open end any more
    doubles = [x for x in foot.tiles[1:] if x[2] and x[3] == x[4] == v]
    assert len(doubles) == 1
    assert doubles[0][5]
