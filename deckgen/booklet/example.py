"""A real simulated round, reduced to what the booklet shows: positions, hands, points.

Takes what the engine recorded of a round (the lead tile, the actions with the end
played on and the value matched, the deal, the result) and gives an
:class:`ExampleRound`: the board after the lead, a board later in the round with the
last tile marked, the hands left at the end and each side's points. Rebuilding the
line from the actions is plain bookkeeping; the engine's own result supplies the
points, so the booklet's arithmetic is the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deckgen.booklet.diagram import BoardView, PlacedTiles
from deckgen.tiles import DominoSet, Tile

View = BoardView | PlacedTiles


@dataclass(frozen=True)
class Placement:
    """A tile laid in the round and the board right after it."""

    seat: int
    tile: Tile
    value: int
    """The number it was matched against."""
    board: View | None
    """The board right after it (None when it cannot be drawn without overlaps)."""
    turn: int
    drew: int = 0
    """Cards the player drew in this turn before laying this one."""


@dataclass(frozen=True)
class Step:
    """One turn of the round: a lay (``tile`` against ``value``) or a pass."""

    turn: int
    seat: int
    kind: str
    tile: Tile | None
    value: int
    drew: int
    count: int = -1
    """The open ends' count after this lay, when the rules score it (else -1)."""
    scored: int = 0
    """Points that count earned (``score.ends``)."""
    end: int = -1
    """The engine's end index the tile went on (a train: the owner's seat, or the
    player count for the Mexican Train)."""


@dataclass(frozen=True)
class ExampleRound:
    players: int
    sides: tuple[tuple[int, ...], ...]
    starter: int
    lead: Tile
    turned_up: bool
    start: View
    placements: tuple[Placement, ...]
    end: str
    out_seat: int
    hands: tuple[tuple[Tile, ...], ...]
    """Tiles left in each seat's hand when the round ended."""
    hand_values: tuple[int, ...]
    points: tuple[int, ...]
    """Points of each side in this round, as the engine scored them."""
    turns: int
    draws: int
    steps: tuple[Step, ...] = ()
    play_points: tuple[int, ...] = ()
    """Of ``points``, what each side scored during play (``score.ends``)."""
    seed: int = -1
    bots: tuple[str, ...] = ()
    """The seed and the computer players the engine played this round with: replaying
    them through the kernel gives the same round (``tests/booklet/test_booklet_replay.py``)."""
    clauses: tuple[str, ...] = ()
    """The clauses that decided something in this round, as the engine reported them
    (``score.tie``: the lowest hands tied and the tie rule scored the round)."""

    @property
    def table_turns(self) -> int:
        """The turns as the booklet numbers them: the number of the turn table's last row.

        The engine's ``turns`` counts the starter's lead as a turn; the table begins
        with the first turn after the lead (the lead is the start position), so a round
        opened by a player's lead has one turn more in the engine than in the table.
        A round without recorded steps keeps the engine's count."""
        return self.steps[-1].turn if self.steps else self.turns

    def position_after(self, placements: int) -> Placement | None:
        """The placement number ``placements`` (1-based), or the last drawable one before it."""
        drawable = [p for p in self.placements[:placements] if p.board is not None]
        return drawable[-1] if drawable else None


class LineBuilder:
    """Rebuilds a line board (two open ends) from lead and placements."""

    def __init__(self, lead: Tile, *, doubles_across: bool = True) -> None:
        self.line: list[tuple[int, int]] = [(lead.low, lead.high)]
        self.marked = 0
        self.doubles_across = doubles_across

    @property
    def ends(self) -> tuple[int, int]:
        return (self.line[0][0], self.line[-1][1])

    def place(self, tile: Tile, end: int, value: int) -> None:
        """Lay ``tile`` at open end ``end`` (0 left, 1 right) against ``value``."""
        left, right = self.ends
        if end == 0 and left != value and right == value:
            end = 1  # the engine numbers ends the other way round
        elif end == 1 and right != value and left == value:
            end = 0
        if end == 0:
            if left != value:
                raise ValueError(f"{tile} cannot go on the open {left}")
            self.line.insert(0, (tile.other(value), value))
            self.marked = 0
        else:
            if right != value:
                raise ValueError(f"{tile} cannot go on the open {right}")
            self.line.append((value, tile.other(value)))
            self.marked = len(self.line) - 1

    def view(self, *, mark: bool = True) -> BoardView:
        highlight = frozenset({("line", self.marked)}) if mark else frozenset()
        return BoardView(
            line=tuple(self.line), highlight=highlight, doubles_across=self.doubles_across
        )


@dataclass(frozen=True)
class RecordedAction:
    """An engine action in plain values (deck indices), see ``engine.results.Action``."""

    kind: str
    seat: int
    tile: int = -1
    end: int = -1
    value: int = -1


def build_example(
    *,
    dset: DominoSet,
    players: int,
    sides: Sequence[Sequence[int]],
    starter: int,
    lead_tile: int,
    turned_up: bool,
    hands: Sequence[Sequence[int]],
    actions: Sequence[RecordedAction],
    end: str,
    out_seat: int,
    hand_values: Sequence[int],
    points: Sequence[int],
    turns: int,
    doubles_across: bool = True,
    views: Sequence[View | None] | None = None,
    start_view: View | None = None,
    counts: Sequence[tuple[int, int] | None] | None = None,
    play_points: Sequence[int] = (),
    clauses: Sequence[str] = (),
) -> ExampleRound:
    """An :class:`ExampleRound` from a recorded round (deck indices).

    A line board is rebuilt here; for other boards the caller passes ``start_view`` and
    ``views`` (one per ``play`` action, None where it cannot be drawn). ``counts``:
    per action, the open ends' count and its points, when the rules score during play.
    """
    lead = dset.tile(lead_tile)
    builder = LineBuilder(lead, doubles_across=doubles_across)
    line = views is None
    held = [set(h) for h in hands]
    placements: list[Placement] = []
    steps: list[Step] = []
    start: View = builder.view(mark=False) if line or start_view is None else start_view
    turn = 0
    draws = 0
    drawn_now = 0
    for k, act in enumerate(actions):
        cp = counts[k] if counts is not None else None
        if act.kind == "lead":
            held[act.seat].discard(act.tile)
            continue
        if act.kind == "draw":
            draws += 1
            drawn_now += 1
            held[act.seat].add(act.tile)
            continue
        if act.kind == "pass":
            turn += 1
            steps.append(Step(turn, act.seat, "pass", None, -1, drawn_now))
            drawn_now = 0
            continue
        if act.kind == "play":
            turn += 1
            tile = dset.tile(act.tile)
            held[act.seat].discard(act.tile)
            view: View | None
            if views is None:
                builder.place(tile, act.end, act.value)
                view = builder.view()
            else:
                view = views[len(placements)]
            placements.append(Placement(act.seat, tile, act.value, view, turn, drawn_now))
            steps.append(
                Step(
                    turn,
                    act.seat,
                    "play",
                    tile,
                    act.value,
                    drawn_now,
                    cp[0] if cp is not None else -1,
                    cp[1] if cp is not None else 0,
                    act.end,
                )
            )
            drawn_now = 0
    left = tuple(tuple(sorted(dset.tile(i) for i in h)) for h in held)
    return ExampleRound(
        players=players,
        sides=tuple(tuple(s) for s in sides),
        starter=starter,
        lead=lead,
        turned_up=turned_up,
        start=start,
        placements=tuple(placements),
        end=end,
        out_seat=out_seat,
        hands=left,
        hand_values=tuple(hand_values),
        points=tuple(points),
        turns=turns,
        draws=draws,
        steps=tuple(steps),
        play_points=tuple(play_points),
        clauses=tuple(clauses),
    )
