"""SVG diagrams of domino positions and hands, drawn by our own code as pure functions.

Takes plain values (a :class:`BoardView` of oriented tiles, or a list of tiles) and
gives an SVG string that the booklet puts inline into its HTML, so the diagram stays
vector in the PDF. Each distinct half-face (the pips or numeral of a value) and the
tile body are defined once in ``<defs>`` and placed with ``<use>``.

>>> svg = diagram(BoardView(line=((3, 5), (5, 5), (5, 1))), style="pips")
>>> svg.startswith("<svg") and svg.count("<use") == 9
True
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from deckgen.deck.pips import SPREAD, layout
from deckgen.tiles import Tile

Style = Literal["pips", "numerals"]
STYLES: tuple[str, ...] = ("pips", "numerals")

UNIT = 20.0
"""One half of a tile is ``UNIT`` x ``UNIT`` user units; a whole tile 2 x 1 units."""
GAP = 1.6
INK = "#1a1a1a"  # a neutral grey: black ink only (K) once converted to CMYK
TILE_FILL = "#fffdf7"
HIGHLIGHT = "#b3261e"
END_MARK = "#1f5f8b"

PIP_SPREAD = SPREAD * UNIT
"""Pip centres at +-1 of the pip table sit this far from the centre of a half, as on
the cards (:data:`deckgen.deck.pips.SPREAD`)."""


@dataclass(frozen=True)
class BoardView:
    """A position as the players see it on the table.

    ``line`` holds the tiles of the main line from left to right, each as the pair of
    values (left half, right half) in the direction it lies. ``spinner`` is the index
    in ``line`` of a double that opened two more directions; ``up`` and ``down`` are
    the tiles laid from it, each as (value next to the spinner, value away from it).
    ``highlight`` holds the tiles to mark (``("line", i)``, ``("up", i)``, ...), for
    example the one just played.
    """

    line: tuple[tuple[int, int], ...]
    spinner: int | None = None
    up: tuple[tuple[int, int], ...] = ()
    down: tuple[tuple[int, int], ...] = ()
    highlight: frozenset[tuple[str, int]] = field(default_factory=frozenset)
    doubles_across: bool = True
    """Draw doubles crosswise in the line (the custom when doubles are special);
    False lays them lengthwise like any tile."""

    def __post_init__(self) -> None:
        for (_, b), (c, _) in zip(self.line, self.line[1:], strict=False):
            if b != c:
                raise ValueError(f"tiles in a line must match: {b} next to {c}")
        if (self.up or self.down) and self.spinner is None:
            raise ValueError("arms up or down need a spinner in the line")
        if self.spinner is not None:
            if not 0 <= self.spinner < len(self.line):
                raise ValueError("spinner index outside the line")
            value = self.line[self.spinner][0]
            for arm in (self.up, self.down):
                if arm and arm[0][0] != value:
                    raise ValueError("the first tile of an arm must match the spinner")
                for (_, b), (c, _) in itertools.pairwise(arm):
                    if b != c:
                        raise ValueError(f"tiles in an arm must match: {b} next to {c}")

    @property
    def values(self) -> set[int]:
        return {v for t in (*self.line, *self.up, *self.down) for v in t}


@dataclass
class _Placed:
    x: float
    y: float
    vertical: bool
    first: int  # value on the left (horizontal) or top (vertical) half
    second: int
    marked: bool


def _half_id(prefix: str, value: int, style: str) -> str:
    return f"{prefix}-{'n' if style == 'numerals' else 'p'}{value}"


def _half_def(prefix: str, value: int, style: str) -> str:
    hid = _half_id(prefix, value, style)
    if style == "numerals":
        if value == 0:
            return f'<g id="{hid}"></g>'
        return (
            f'<g id="{hid}"><text x="0" y="4.6" text-anchor="middle" font-size="13" '
            f'font-family="Booklet Sans, DejaVu Sans" font-weight="bold" '
            f'fill="{INK}">{value}</text></g>'
        )
    pips = layout(value)  # the cards' pip table (y up there, y down in SVG)
    r = round(pips.radius * PIP_SPREAD, 3)
    circles = "".join(
        f'<circle cx="{round(x * PIP_SPREAD, 3) + 0:g}" cy="{round(-y * PIP_SPREAD, 3) + 0:g}" '
        f'r="{r:g}"/>'
        for x, y in pips.points
    )
    return f'<g id="{hid}" fill="{INK}">{circles}</g>'


def _defs(prefix: str, values: Iterable[int], style: str) -> str:
    w, h, r = 2 * UNIT, UNIT, 2.6
    body_h = (
        f'<g id="{prefix}-h"><rect x="0" y="0" width="{w:g}" height="{h:g}" rx="{r}" '
        f'fill="{TILE_FILL}" stroke="{INK}" stroke-width="0.9"/>'
        f'<line x1="{UNIT:g}" y1="3" x2="{UNIT:g}" y2="{h - 3:g}" stroke="{INK}" '
        f'stroke-width="0.7"/></g>'
    )
    body_v = (
        f'<g id="{prefix}-v"><rect x="0" y="0" width="{h:g}" height="{w:g}" rx="{r}" '
        f'fill="{TILE_FILL}" stroke="{INK}" stroke-width="0.9"/>'
        f'<line x1="3" y1="{UNIT:g}" x2="{h - 3:g}" y2="{UNIT:g}" stroke="{INK}" '
        f'stroke-width="0.7"/></g>'
    )
    halves = "".join(_half_def(prefix, v, style) for v in sorted(set(values)))
    return f"<defs>{body_h}{body_v}{halves}</defs>"


def _tile_svg(prefix: str, p: _Placed, style: str) -> str:
    parts = [f'<use href="#{prefix}-{"v" if p.vertical else "h"}" x="{p.x:g}" y="{p.y:g}"/>']
    half = UNIT / 2
    if p.vertical:
        centres = ((p.x + half, p.y + half), (p.x + half, p.y + UNIT + half))
    else:
        centres = ((p.x + half, p.y + half), (p.x + UNIT + half, p.y + half))
    for (cx, cy), value in zip(centres, (p.first, p.second), strict=True):
        parts.append(f'<use href="#{_half_id(prefix, value, style)}" x="{cx:g}" y="{cy:g}"/>')
    if p.marked:
        w, h = (UNIT, 2 * UNIT) if p.vertical else (2 * UNIT, UNIT)
        parts.append(
            f'<rect x="{p.x - 1.4:g}" y="{p.y - 1.4:g}" width="{w + 2.8:g}" '
            f'height="{h + 2.8:g}" rx="3.6" fill="none" stroke="{HIGHLIGHT}" '
            f'stroke-width="1.4"/>'
        )
    return "".join(parts)


def _layout(board: BoardView) -> list[_Placed]:
    """Place every tile; y = 0 is the centre line of the main line."""
    placed: list[_Placed] = []
    x = 0.0
    spinner_box: tuple[float, float, float, float] | None = None  # x, y, w, h
    for i, (a, b) in enumerate(board.line):
        marked = ("line", i) in board.highlight
        if a == b and (board.doubles_across or i == board.spinner):
            placed.append(_Placed(x, -UNIT, True, a, b, marked))
            if i == board.spinner:
                spinner_box = (x, -UNIT, UNIT, 2 * UNIT)
            x += UNIT + GAP
        else:
            placed.append(_Placed(x, -UNIT / 2, False, a, b, marked))
            if i == board.spinner:
                spinner_box = (x, -UNIT / 2, 2 * UNIT, UNIT)
            x += 2 * UNIT + GAP
    if spinner_box is not None:
        sx, sy, sw, sh = spinner_box
        cx = sx + sw / 2
        for arm, direction in ((board.up, -1), (board.down, 1)):
            edge = sy if direction < 0 else sy + sh
            for j, (near, far) in enumerate(arm):
                marked = (("up" if direction < 0 else "down"), j) in board.highlight
                if near == far:  # a double in an arm lies across it
                    h = UNIT
                    y = edge - GAP - h if direction < 0 else edge + GAP
                    placed.append(_Placed(cx - UNIT, y, False, near, far, marked))
                else:
                    h = 2 * UNIT
                    y = edge - GAP - h if direction < 0 else edge + GAP
                    first, second = (far, near) if direction < 0 else (near, far)
                    placed.append(_Placed(cx - UNIT / 2, y, True, first, second, marked))
                edge = y if direction < 0 else y + h
    return placed


def _prefix(kind: str, payload: object, style: str) -> str:
    digest = hashlib.sha1(repr((kind, payload, style)).encode()).hexdigest()[:8]
    return f"{kind}{digest}"


def _svg(
    content: str,
    box: tuple[float, float, float, float],
    *,
    unit_mm: float,
    max_width_mm: float | None,
    title: str,
) -> str:
    x0, y0, w, h = box
    scale = unit_mm / UNIT
    width_mm, height_mm = w * scale, h * scale
    if max_width_mm is not None and width_mm > max_width_mm:
        height_mm *= max_width_mm / width_mm
        width_mm = max_width_mm
    from html import escape

    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" '
        f'viewBox="{x0:g} {y0:g} {w:g} {h:g}" width="{width_mm:.2f}mm" '
        f'height="{height_mm:.2f}mm"><title>{escape(title)}</title>{content}</svg>'
    )


def _snake(board: BoardView, max_width: float) -> tuple[list[_Placed], str, str]:
    """Lay a long line in rows that turn like a snake: row 1 left to right, row 2
    right to left below it, and so on. Gives the tiles, the connectors between rows
    and the two open-end marks."""
    flat = _layout(
        BoardView(line=board.line, highlight=board.highlight, doubles_across=board.doubles_across)
    )
    widths = [UNIT if p.vertical else 2 * UNIT for p in flat]
    rows: list[list[int]] = [[]]
    used = 0.0
    for i, w in enumerate(widths):
        if rows[-1] and used + w > max_width:
            rows.append([])
            used = 0.0
        rows[-1].append(i)
        used += w + GAP
    tall = any(p.vertical for p in flat)
    pitch = (2 * UNIT if tall else UNIT) + 5 * GAP
    width = max(sum(widths[i] + GAP for i in row) - GAP for row in rows)
    placed: list[_Placed] = []
    connectors = []
    for r, row in enumerate(rows):
        x = 0.0
        y0 = r * pitch
        for i in row:
            p = flat[i]
            w = widths[i]
            if r % 2 == 0:
                placed.append(_Placed(x, p.y + y0, p.vertical, p.first, p.second, p.marked))
            else:  # right to left: mirror the place and turn the tile round
                first, second = (p.first, p.second) if p.vertical else (p.second, p.first)
                placed.append(_Placed(width - x - w, p.y + y0, p.vertical, first, second, p.marked))
            x += w + GAP
        if r + 1 < len(rows):
            side = width + 3.0 if r % 2 == 0 else -3.0
            bulge = 6.0 if r % 2 == 0 else -6.0
            connectors.append(
                f'<path d="M{side - (3.0 if r % 2 == 0 else -3.0):g},{y0:g} '
                f"C{side + bulge:g},{y0:g} {side + bulge:g},{y0 + pitch:g} "
                f'{side - (3.0 if r % 2 == 0 else -3.0):g},{y0 + pitch:g}" fill="none" '
                f'stroke="{END_MARK}" stroke-width="1.1" stroke-dasharray="2 1.6"/>'
            )
    last_y = (len(rows) - 1) * pitch
    last = placed[-len(rows[-1]) :]
    marks = _arrow(0.0, 0.0, -1)
    if (len(rows) - 1) % 2 == 0:
        marks += _arrow(max(p.x + (UNIT if p.vertical else 2 * UNIT) for p in last), last_y, 1)
    else:
        marks += _arrow(min(p.x for p in last), last_y, -1)
    return placed, "".join(connectors), marks


def diagram(
    board: BoardView,
    *,
    style: Style = "pips",
    unit_mm: float = 5.0,
    max_width_mm: float | None = None,
    mark_open_ends: bool = True,
    title: str = "",
) -> str:
    """An SVG picture of ``board``: tiles as they lie, open ends marked.

    ``unit_mm`` is the printed size of one half. A line without a spinner that would
    be wider than ``max_width_mm`` is laid out in rows that turn like a snake, as
    players do on a small table; a board with a spinner shrinks to fit instead.
    ``title`` is the accessible description.
    """
    if style not in STYLES:
        raise ValueError(f"unknown diagram style '{style}'; use one of {', '.join(STYLES)}")
    if not board.line:
        raise ValueError("an empty board has nothing to draw")
    prefix = _prefix("d", board, style)
    placed = _layout(board)
    extra = ""
    marks = ""
    xs = [p.x for p in placed] + [p.x + (UNIT if p.vertical else 2 * UNIT) for p in placed]
    pad = 9.0 if mark_open_ends else 4.0
    natural_mm = (max(xs) - min(xs) + 2 * pad) * unit_mm / UNIT
    if (
        max_width_mm is not None
        and natural_mm > max_width_mm
        and board.spinner is None
        and len(board.line) > 1
    ):
        room = max_width_mm * UNIT / unit_mm - 2 * pad - 8.0
        placed, extra, snake_marks = _snake(board, room)
        if mark_open_ends:
            marks = snake_marks
    elif mark_open_ends:
        marks = _arrow(min(xs), 0.0, -1) + _arrow(max(xs), 0.0, 1)
    xs = [p.x for p in placed] + [p.x + (UNIT if p.vertical else 2 * UNIT) for p in placed]
    ys = [p.y for p in placed] + [p.y + (2 * UNIT if p.vertical else UNIT) for p in placed]
    side = pad + (8.0 if extra else 0.0)
    box = (min(xs) - side, min(ys) - 4.0, max(xs) - min(xs) + 2 * side, max(ys) - min(ys) + 8.0)
    tiles = "".join(_tile_svg(prefix, p, style) for p in placed)
    content = _defs(prefix, board.values, style) + tiles + extra + marks
    return _svg(content, box, unit_mm=unit_mm, max_width_mm=max_width_mm, title=title)


def _arrow(x: float, y: float, direction: int) -> str:
    """A small arrow head at ``(x, y)`` pointing outward (``direction`` -1 or 1)."""
    tip = x + direction * 7.0
    base = x + direction * 2.0
    return (
        f'<path d="M{base:g},{y - 3.5:g} L{tip:g},{y:g} L{base:g},{y + 3.5:g} Z" '
        f'fill="{END_MARK}"/>'
    )


def hand(
    tiles: Sequence[Tile],
    *,
    style: Style = "pips",
    unit_mm: float = 4.0,
    max_width_mm: float | None = None,
    title: str = "",
) -> str:
    """An SVG picture of a hand: the tiles upright side by side, in the given order."""
    if style not in STYLES:
        raise ValueError(f"unknown diagram style '{style}'; use one of {', '.join(STYLES)}")
    prefix = _prefix("h", tuple(tiles), style)
    placed = [
        _Placed(i * (UNIT + GAP * 2), 0.0, True, t.high, t.low, False) for i, t in enumerate(tiles)
    ]
    values = {v for t in tiles for v in t.values}
    if not placed:
        box = (0.0, 0.0, UNIT, 2 * UNIT)
        return _svg("", box, unit_mm=unit_mm, max_width_mm=max_width_mm, title=title)
    width = len(tiles) * (UNIT + GAP * 2) - GAP * 2
    box = (-1.5, -1.5, width + 3.0, 2 * UNIT + 3.0)
    content = _defs(prefix, values, style) + "".join(_tile_svg(prefix, p, style) for p in placed)
    return _svg(content, box, unit_mm=unit_mm, max_width_mm=max_width_mm, title=title)


@dataclass(frozen=True)
class PlacedTiles:
    """A position already laid out on the table (for boards with more than two ends).

    ``tiles`` holds, per tile, ``(x, y, vertical, first, second, marked)``: the top-left
    corner in half-tile units, whether it lies upright, the value on its left (upright:
    top) half and on its other half, and whether to outline it. ``ends`` holds the
    open ends as ``(x, y, direction)`` with direction ``"E"``, ``"W"``, ``"N"``, ``"S"``.
    """

    tiles: tuple[tuple[float, float, bool, int, int, bool], ...]
    ends: tuple[tuple[float, float, str], ...] = ()
    labels: tuple[tuple[float, float, str], ...] = ()
    """Text at ``(x, y)`` (left edge, baseline), as keys the caller's ``label_text``
    turns into words (a train's owner, the Mexican Train): the view stays language-free."""
    markers: tuple[tuple[float, float], ...] = ()
    """Round markers at ``(x, y)`` (centre), such as the coin on an open train."""
    links: tuple[tuple[float, float, float, float], ...] = ()
    """Thin lines from ``(x1, y1)`` to ``(x2, y2)`` (a train to its station)."""

    @property
    def values(self) -> set[int]:
        return {v for t in self.tiles for v in (t[3], t[4])}


def _end_arrow(x: float, y: float, direction: str) -> str:
    dx, dy = {"E": (1, 0), "W": (-1, 0), "N": (0, -1), "S": (0, 1)}[direction]
    tip_x, tip_y = x + dx * 7.0, y + dy * 7.0
    bx, by = x + dx * 2.0, y + dy * 2.0
    px, py = -dy * 3.5, dx * 3.5
    return (
        f'<path d="M{bx + px:g},{by + py:g} L{tip_x:g},{tip_y:g} L{bx - px:g},{by - py:g} Z" '
        f'fill="{END_MARK}"/>'
    )


def placed_diagram(
    view: PlacedTiles,
    *,
    style: Style = "pips",
    unit_mm: float = 5.0,
    max_width_mm: float | None = None,
    title: str = "",
    label_text: Callable[[str], str] = str,
) -> str:
    """An SVG picture of a laid-out position (see :class:`PlacedTiles`)."""
    if style not in STYLES:
        raise ValueError(f"unknown diagram style '{style}'; use one of {', '.join(STYLES)}")
    if not view.tiles:
        raise ValueError("an empty board has nothing to draw")
    prefix = _prefix("p", view, style)
    placed = [
        _Placed(x * UNIT, y * UNIT, vertical, first, second, marked)
        for x, y, vertical, first, second, marked in view.tiles
    ]
    xs = [p.x for p in placed] + [p.x + (UNIT if p.vertical else 2 * UNIT) for p in placed]
    ys = [p.y for p in placed] + [p.y + (2 * UNIT if p.vertical else UNIT) for p in placed]
    xs += [x * UNIT for x, _, _ in view.ends]
    ys += [y * UNIT for _, y, _ in view.ends]
    texts = [(x, y, label_text(key)) for x, y, key in view.labels]
    for x, y, text in texts:  # a rough width: 0.55 em per character at 9 units
        xs += [x * UNIT, x * UNIT + len(text) * 5.0]
        ys += [y * UNIT - 8.0, y * UNIT + 2.0]
    pad = 9.0
    box = (min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad)
    tiles = "".join(_tile_svg(prefix, p, style) for p in placed)
    marks = "".join(_end_arrow(x * UNIT, y * UNIT, d) for x, y, d in view.ends)
    links = "".join(
        f'<line x1="{a * UNIT:g}" y1="{b * UNIT:g}" x2="{c * UNIT:g}" y2="{d * UNIT:g}" '
        f'stroke="{INK}" stroke-width="0.6" stroke-dasharray="2 1.5"/>'
        for a, b, c, d in view.links
    )
    coins = "".join(
        f'<circle cx="{x * UNIT:g}" cy="{y * UNIT:g}" r="{UNIT * 0.32:g}" fill="{HIGHLIGHT}" '
        f'stroke="{INK}" stroke-width="0.6"/>'
        for x, y in view.markers
    )
    from html import escape

    words = "".join(
        f'<text x="{x * UNIT:g}" y="{y * UNIT:g}" font-size="9" '
        f'font-family="Booklet Sans, DejaVu Sans" fill="{INK}">{escape(text)}</text>'
        for x, y, text in texts
    )
    content = _defs(prefix, view.values, style) + links + tiles + marks + coins + words
    return _svg(content, box, unit_mm=unit_mm, max_width_mm=max_width_mm, title=title)


def any_diagram(
    board: BoardView | PlacedTiles,
    *,
    style: Style = "pips",
    unit_mm: float = 5.0,
    max_width_mm: float | None = None,
    title: str = "",
    label_text: Callable[[str], str] = str,
) -> str:
    """:func:`diagram` for a line, :func:`placed_diagram` for a laid-out position."""
    if isinstance(board, PlacedTiles):
        return placed_diagram(
            board,
            style=style,
            unit_mm=unit_mm,
            max_width_mm=max_width_mm,
            title=title,
            label_text=label_text,
        )
    return diagram(board, style=style, unit_mm=unit_mm, max_width_mm=max_width_mm, title=title)
