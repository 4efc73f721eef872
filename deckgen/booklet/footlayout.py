"""A Chicken Foot table as the booklet draws it: the centre double, its six arms and
every foot with its three toes.

Takes a rules file with ``board.shape = "chicken_foot"`` and a round the engine
recorded; gives :class:`~deckgen.booklet.diagram.PlacedTiles` views after any number of
actions. The round is laid again through the kernel's own
:class:`~deckgen.engine.chickenfoot.ChickenFoot` layout (which end each tile went on,
which doubles grew feet); this module only decides where things lie on paper, as a
tree read from the middle outward:

- the centre double stands upright; three arms run to its right, three to its left;
- an arm is a row of tiles; a double at the end of a row stands across it, and its
  three toes leave it along dashed lines that splay like a chicken's toes;
- every end still open gets an arrow (a missing arm or toe too, at its start).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from deckgen.booklet.diagram import PlacedTiles
from deckgen.booklet.example import View
from deckgen.engine.chickenfoot import CENTRE_ARMS, ChickenFoot
from deckgen.engine.results import Action, RoundResult
from deckgen.engine.tables import compile_tables
from deckgen.rulespec import RuleSpec

ROW = 1.6
"""Distance between neighbouring rows (arms or toes), in half-tile units."""
GAP_X = 1.6
"""Room for the dashed line from a double to its arms or toes."""


@dataclass
class _Chain:
    """An arm or a toe: its tiles from the inside out, and the toes of a final double."""

    tiles: list[tuple[int, int, bool, bool]] = field(default_factory=list)
    """(inner value, outer value, double, marked) per tile."""
    toes: list[_Chain] = field(default_factory=list)

    def leaves(self) -> int:
        return sum(t.leaves() for t in self.toes) if self.toes else 1


@dataclass
class _Drawing:
    tiles: list[tuple[float, float, bool, int, int, bool]] = field(default_factory=list)
    ends: list[tuple[float, float, str]] = field(default_factory=list)
    links: list[tuple[float, float, float, float]] = field(default_factory=list)


def _draw(chain: _Chain, x: float, top: float, side: int, out: _Drawing) -> tuple[float, float]:
    """Draw ``chain`` from ``x`` outward (``side`` 1 right, -1 left) in the block of
    rows starting at ``top``; return where its row begins (x, y) for the link to it."""
    cy = top + (chain.leaves() - 1) * ROW / 2
    start = (x, cy)
    for inner, outer, double, marked in chain.tiles:
        if double:
            left = x if side > 0 else x - 1.0
            out.tiles.append((left, cy - 1.0, True, inner, outer, marked))
            x += side * 1.08
        else:
            left = x if side > 0 else x - 2.0
            first, second = (inner, outer) if side > 0 else (outer, inner)
            out.tiles.append((left, cy - 0.5, False, first, second, marked))
            x += side * 2.08
    if chain.toes:
        row = top
        for toe in chain.toes:
            tx = x + side * GAP_X
            begin = _draw(toe, tx, row, side, out)
            out.links.append((x, cy, begin[0], begin[1]))
            row += toe.leaves() * ROW
    else:
        out.ends.append((x, cy, "E" if side > 0 else "W"))
    return start


def foot_view(
    rules: RuleSpec, players: int, centre: int, actions: Sequence[Action], *, mark_last: bool = True
) -> PlacedTiles:
    """The table after ``actions`` of a round whose centre double is ``centre``."""
    t = compile_tables(rules, players)
    tiles = rules.dset.tiles
    lay = ChickenFoot()
    lay.start(t, centre)
    arms = [_Chain() for _ in range(CENTRE_ARMS)]
    chain_of = list(arms)
    last: _Chain | None = None
    for a in actions:
        if a.kind != "play":
            continue
        v = lay.ends[a.end]
        n_before = len(lay.ends)
        lay.place(t, a.tile, a.end)
        tile = tiles[a.tile]
        chain = chain_of[a.end]
        chain.tiles.append((v, tile.other(v), tile.is_double, False))
        last = chain
        for _ in range(n_before, len(lay.ends)):  # the toes of a double
            toe = _Chain()
            chain.toes.append(toe)
            chain_of.append(toe)
    if mark_last and last is not None:
        i, o, d, _ = last.tiles[-1]
        last.tiles[-1] = (i, o, d, True)
    s = tiles[centre].low
    out = _Drawing()
    out.tiles.append((-0.5, -1.0, True, s, s, False))
    half = CENTRE_ARMS // 2
    for side, group in ((1, arms[:half]), (-1, arms[half:])):
        rows = sum(c.leaves() for c in group)
        top = -(rows - 1) * ROW / 2
        for chain in group:
            x0 = side * (0.5 + GAP_X)
            begin = _draw(chain, x0, top, side, out)
            out.links.append((side * 0.5, max(-0.8, min(0.8, begin[1])), begin[0], begin[1]))
            top += chain.leaves() * ROW
    return PlacedTiles(tiles=tuple(out.tiles), ends=tuple(out.ends), links=tuple(out.links))


def foot_views(rules: RuleSpec, result: RoundResult) -> tuple[View, list[View | None]]:
    """The table at the start and after every play of ``result``."""
    assert result.actions is not None
    n = len(result.hand_values)
    start = foot_view(rules, n, result.turned_up, [], mark_last=False)
    after: list[View | None] = [
        foot_view(rules, n, result.turned_up, result.actions[: i + 1])
        for i, a in enumerate(result.actions)
        if a.kind == "play"
    ]
    return start, after
