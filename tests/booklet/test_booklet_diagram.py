"""Diagrams: pure SVG strings, tiles defined once and placed with <use>, drawn right."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from deckgen.booklet.diagram import BoardView, diagram, hand
from deckgen.tiles import Tile

SVG = "{http://www.w3.org/2000/svg}"


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _find(element: ET.Element, tag: str) -> ET.Element:
    found = element.find(tag)
    assert found is not None, tag
    return found


def _get(element: ET.Element, name: str) -> str:
    value = element.get(name)
    assert value is not None, name
    return value


def test_diagram_is_pure_and_well_formed() -> None:
    board = BoardView(line=((6, 2), (2, 2), (2, 5)), spinner=1, up=((2, 3),), down=((2, 4),))
    a = diagram(board, style="pips", title="A <position>")
    assert a == diagram(board, style="pips", title="A <position>")
    root = _parse(a)
    assert root.tag == SVG + "svg"
    assert _find(root, SVG + "title").text == "A <position>"  # escaped, then parsed back


def test_each_face_defined_once_and_used() -> None:
    board = BoardView(line=((3, 5), (5, 5), (5, 3), (3, 3)))
    root = _parse(diagram(board))
    defs = _find(root, SVG + "defs")
    ids = [g.get("id") for g in defs]
    assert len(ids) == len(set(ids))
    # bodies (across, upright) + the faces 3 and 5, each once
    assert len(ids) == 4
    uses = root.findall(SVG + "use")
    assert len(uses) == 4 * 3  # a body and two halves per tile
    assert {_get(u, "href")[1:] for u in uses} <= set(ids)


@pytest.mark.parametrize("value", range(19))
def test_pip_counts(value: int) -> None:
    """Pips for every value up to double-18: no numeral instead of pips above 12."""
    root = _parse(hand([Tile(value, value)]))
    faces = [g for g in _find(root, SVG + "defs") if g.get("id", "").endswith(f"p{value}")]
    assert len(faces) == 1
    assert len(faces[0].findall(SVG + "circle")) == value


@pytest.mark.parametrize("value", range(19))
def test_diagram_pips_are_the_cards_pip_table(value: int) -> None:
    """One pip table: the diagram's pips are deck.pips' layout (y turned for SVG),
    so they read the same turned round, as the cards do."""
    from deckgen.booklet.diagram import PIP_SPREAD
    from deckgen.deck.pips import layout

    root = _parse(hand([Tile(value, value)]))
    face = next(g for g in _find(root, SVG + "defs") if g.get("id", "").endswith(f"p{value}"))
    drawn = sorted(
        (round(float(_get(c, "cx")), 2), round(float(_get(c, "cy")), 2))
        for c in face.findall(SVG + "circle")
    )
    table = layout(value)
    expected = sorted(
        (round(x * PIP_SPREAD, 2) + 0.0, round(-y * PIP_SPREAD, 2) + 0.0) for x, y in table.points
    )
    assert drawn == expected
    assert drawn == sorted((-x + 0.0, -y + 0.0) for x, y in drawn)
    radii = {float(_get(c, "r")) for c in face.findall(SVG + "circle")}
    assert radii <= {round(table.radius * PIP_SPREAD, 3)}


def test_numerals_style_and_big_values() -> None:
    svg = hand([Tile(0, 9), Tile(12, 15)], style="numerals")
    texts = re.findall(r"<text[^>]*>(\d+)</text>", svg)
    assert sorted(int(t) for t in texts) == [9, 12, 15]  # 0 is blank


def test_board_must_match() -> None:
    with pytest.raises(ValueError, match="must match"):
        BoardView(line=((1, 2), (3, 4)))
    with pytest.raises(ValueError, match="spinner"):
        BoardView(line=((1, 2),), up=((1, 3),))


def test_long_line_snakes_within_max_width() -> None:
    board = BoardView(line=tuple((i % 7, (i + 1) % 7) for i in range(14)), doubles_across=False)
    natural = _parse(diagram(board, unit_mm=6))
    assert float(_get(natural, "width").removesuffix("mm")) > 100
    root = _parse(diagram(board, unit_mm=6, max_width_mm=100))
    width = float(_get(root, "width").removesuffix("mm"))
    height = float(_get(root, "height").removesuffix("mm"))
    assert width <= 100.01
    assert height > 2 * 6  # at least two rows of tiles 6 mm high
    assert len(root.findall(SVG + "use")) == 14 * 3  # every tile still drawn
    # the tiles keep their printed size: one half is still 6 mm
    _x0, _y0, vw, _vh = (float(v) for v in _get(root, "viewBox").split())
    assert width / vw * 20 == pytest.approx(6, rel=0.01)


def test_spinner_board_shrinks_to_max_width() -> None:
    board = BoardView(
        line=((1, 2), (2, 2), *((2 + i % 5, 2 + (i + 1) % 5) for i in range(10))),
        spinner=1,
        up=((2, 5),),
    )
    root = _parse(diagram(board, unit_mm=6, max_width_mm=100))
    assert float(_get(root, "width").removesuffix("mm")) == pytest.approx(100)
