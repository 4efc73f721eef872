"""A Mexican Train table as the booklet draws it: the station, every train, open markers.

Takes a rules file with ``board.shape = "trains"`` and a round the engine recorded;
gives :class:`~deckgen.booklet.diagram.PlacedTiles` views of the table after any
number of actions. The round is laid again through the kernel's own
:class:`~deckgen.engine.trains.Trains` layout (the station, where each tile went,
which trains are open), so the picture is the engine's position; this module only
decides where things lie on paper:

- the station double stands upright on the left;
- each train is a row to its right, the players' trains in seat order and the Mexican
  Train last, joined to the station by a dashed line, with its name after its open end;
- a long train shows its newest tiles (a "..." label says some are left out);
- a red coin at the start of a row marks an open train.

Labels are keys (``train:<seat>``, ``mexican``, ``more``) that the booklet turns into
words in its language.
"""

from __future__ import annotations

from collections.abc import Sequence

from deckgen.booklet.diagram import PlacedTiles
from deckgen.booklet.example import View
from deckgen.engine.results import Action, RoundResult
from deckgen.engine.tables import compile_tables
from deckgen.engine.trains import Trains
from deckgen.rulespec import RuleSpec

ROW = 2.3
"""Distance between train rows, in half-tile units."""
START_X = 3.2
"""Where each train row begins (right of the station)."""
SHOWN = 6
"""At most this many tiles of a train are drawn (the newest)."""


def train_view(
    rules: RuleSpec,
    players: int,
    station: int,
    actions: Sequence[Action],
    *,
    mark_last: bool = True,
) -> PlacedTiles:
    """The table after ``actions`` of a round whose station double is ``station``."""
    t = compile_tables(rules, players)
    tiles = rules.dset.tiles
    lay = Trains()
    lay.start(t, station)
    rows: list[list[tuple[int, int, bool, bool]]] = [[] for _ in range(players + 1)]
    last = -1
    for a in actions:
        lay.to_move(a.seat)
        if a.kind == "play":
            v = lay.ends[a.end]
            lay.place(t, a.tile, a.end)
            tile = tiles[a.tile]
            rows[a.end].append((v, tile.other(v), tile.is_double, False))
            last = a.end
        elif a.kind == "pass":
            lay.passed(a.seat)
    if mark_last and last >= 0:
        v, w, d, _ = rows[last][-1]
        rows[last][-1] = (v, w, d, True)
    s = tiles[station].low
    n = players + 1
    top = -(n - 1) * ROW / 2
    placed: list[tuple[float, float, bool, int, int, bool]] = [(0.0, -1.0, True, s, s, False)]
    ends: list[tuple[float, float, str]] = []
    labels: list[tuple[float, float, str]] = []
    markers: list[tuple[float, float]] = []
    links: list[tuple[float, float, float, float]] = []
    for k, row in enumerate(rows):
        cy = top + k * ROW  # the row's centre line
        x = START_X
        links.append((1.0, max(-0.8, min(0.8, cy)), x - 0.15, cy))
        shown = row[-SHOWN:]
        if len(row) > SHOWN:
            labels.append((x, cy + 0.25, "more"))
            x += 1.2
        for inner, outer, double, marked in shown:
            if double:  # a double lies across its train
                placed.append((x, cy - 1.0, True, inner, outer, marked))
                x += 1.08
            else:
                placed.append((x, cy - 0.5, False, inner, outer, marked))
                x += 2.08
        ends.append((x - 0.04, cy, "E"))
        labels.append((x + 0.55, cy + 0.22, "mexican" if k == players else f"train:{k}"))
        if k < players and lay.open[k]:
            markers.append((START_X - 0.75, cy))
    return PlacedTiles(
        tiles=tuple(placed),
        ends=tuple(ends),
        labels=tuple(labels),
        markers=tuple(markers),
        links=tuple(links),
    )


def train_views(rules: RuleSpec, result: RoundResult) -> tuple[View, list[View | None]]:
    """The table at the start and after every play of ``result`` (as the booklet's
    example wants them)."""
    assert result.actions is not None
    n = len(result.hand_values)
    start = train_view(rules, n, result.turned_up, [], mark_last=False)
    after: list[View | None] = [
        train_view(rules, n, result.turned_up, result.actions[: i + 1])
        for i, a in enumerate(result.actions)
        if a.kind == "play"
    ]
    return start, after
