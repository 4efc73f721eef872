"""A tile card's front: card background, the domino tile with its two halves, corner index.

Takes a :class:`~deckgen.deck.drawing.DrawContext` and a tile; draws on the current
page. Each half shows its value as pips (:mod:`deckgen.deck.pips`), a numeral, a
picture (value 0 blank unless the deck gives a picture for 0), or a picture with
small pips in a badge, in the corner farthest from what the photo shows (its faces).
"""

from __future__ import annotations

import math
from typing import Literal

from deckgen.deck.colour import RGB, mix, parse_colour
from deckgen.deck.drawing import DrawContext
from deckgen.deck.geometry import Box
from deckgen.deck.layoutboxes import focus_box_on_card, use_for, value_picture_box
from deckgen.deck.pips import SPREAD, layout
from deckgen.tiles import Tile


def draw_card_background(ctx: DrawContext, *, card: str) -> None:
    """The card colour (and picture) over the whole page, bleed included."""
    g = ctx.geometry
    ctx.fill_box(g.page, parse_colour(ctx.deck.spec.card.background))
    if ctx.deck.card_picture is not None:
        ctx.picture_in(ctx.deck.card_picture, g.page, fit="cover", card=card)


def draw_tile_card(ctx: DrawContext, tile: Tile) -> None:
    """Everything on the front of the card for ``tile``."""
    name = f"tile {tile}"
    draw_card_background(ctx, card=name)
    draw_tile(ctx, tile, card=name)
    if ctx.deck.spec.card.corner_index:
        draw_corner_index(ctx, tile)


def draw_tile(ctx: DrawContext, tile: Tile, *, card: str) -> None:
    g = ctx.geometry
    faces = ctx.deck.spec.faces
    face_rgb = parse_colour(faces.tile_colour)
    edge_rgb = parse_colour(faces.tile_edge)
    tile_box = g.tile
    side = g.half_side
    radius = side * 0.12
    # A soft drop shadow, then the tile body with its edge.
    shadow = Box(tile_box.x + side * 0.025, tile_box.y - side * 0.035, tile_box.w, tile_box.h)
    card_rgb = parse_colour(ctx.deck.spec.card.background)
    ctx.round_box(shadow, radius, fill=mix(card_rgb, (0, 0, 0), 0.28))
    ctx.round_box(tile_box, radius, fill=face_rgb, edge=edge_rgb, edge_width=max(0.6, side * 0.012))
    for index, (value, half) in enumerate(zip(tile.values, g.halves, strict=True)):
        if index == 1 and faces.half_rotation:
            # the second half reads upright when the card is turned round
            c = ctx.canvas
            c.saveState()
            c.translate(half.cx, half.cy)
            c.rotate(180)
            c.translate(-half.cx, -half.cy)
            draw_half(ctx, value, half, card=card, radius=radius)
            c.restoreState()
        else:
            draw_half(ctx, value, half, card=card, radius=radius)
    # The dividing line and the brass pin in the middle, as on a real tile.
    c = ctx.canvas
    inset = side * 0.1
    ctx.stroke(edge_rgb, max(0.7, side * 0.014))
    if g.upright:
        c.line(tile_box.x + inset, tile_box.cy, tile_box.x + tile_box.w - inset, tile_box.cy)
    else:
        c.line(tile_box.cx, tile_box.y + inset, tile_box.cx, tile_box.y + tile_box.h - inset)
    ctx.fill((190, 150, 70))
    ctx.stroke(mix((190, 150, 70), (0, 0, 0), 0.35), 0.5)
    c.circle(tile_box.cx, tile_box.cy, side * 0.035, stroke=1, fill=1)


def _value_rgb(ctx: DrawContext, value: int) -> RGB:
    return ctx.deck.value_colours[value]


def draw_half(ctx: DrawContext, value: int, half: Box, *, card: str, radius: float) -> None:
    style = ctx.deck.spec.faces.style
    if style == "pips":
        draw_pips(ctx, value, half.cx, half.cy, half.w, _value_rgb(ctx, value))
    elif style == "numerals":
        draw_numeral(ctx, value, half)
    else:
        inner = value_picture_box(half)
        pic = ctx.deck.picture_for(value)
        fit = ctx.deck.spec.faces.fit
        if pic is not None:
            ctx.picture_in(pic, inner, fit=fit, card=card, radius=radius * 0.7)
        if style == "pictures+pips" and value > 0:
            focus = None if pic is None else focus_box_on_card(pic, use_for(inner, fit, pic))
            draw_badge(ctx, value, inner, badge_corner(focus, inner.w, inner.h))


def draw_pips(ctx: DrawContext, value: int, cx: float, cy: float, side: float, rgb: RGB) -> None:
    """The pips of ``value`` centred on (cx, cy) in a half of ``side`` points.

    Each (value, size, colour) is drawn once into a form XObject that every half
    showing it reuses: smaller files and much faster drawing than repeating the curves.
    """
    pl = layout(value)
    if not pl.points:
        return
    c = ctx.canvas
    name = "Pips{}_{}_{:02x}{:02x}{:02x}".format(value, round(side * 100), *rgb)
    if not c.hasForm(name):
        spread = side * SPREAD
        r = pl.radius * spread
        c.beginForm(name, -side / 2, -side / 2, side / 2, side / 2)
        ctx.fill(rgb)
        for x, y in pl.points:
            c.circle(x * spread, y * spread, r, stroke=0, fill=1)
        # A small highlight gives the pips a drilled, painted look (inside each pip).
        ctx.fill(mix(rgb, (255, 255, 255), 0.35))
        for x, y in pl.points:
            c.circle(x * spread - r * 0.25, y * spread + r * 0.25, r * 0.3, stroke=0, fill=1)
        c.endForm()
    c.saveState()
    c.translate(cx, cy)
    c.doForm(name)
    c.restoreState()


def draw_numeral(ctx: DrawContext, value: int, half: Box) -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    text = str(value)
    font = ctx.fonts.bold
    size = half.w * (0.62 if value < 10 else 0.48)
    rgb = (
        _value_rgb(ctx, value)
        if value
        else mix(parse_colour(ctx.deck.spec.faces.ink), (255, 255, 255), 0.55)
    )
    baseline = half.cy - size * 0.36
    ctx.centred_text(text, half.cx, baseline, size=size, colour=rgb, bold=True)
    if text in ("6", "9"):
        # Underline 6 and 9 so that a turned tile cannot be misread.
        width = stringWidth(text, font, size)
        ctx.stroke(rgb, size * 0.06)
        y = baseline - size * 0.1
        ctx.canvas.line(half.cx - width * 0.35, y, half.cx + width * 0.35, y)


Corner = Literal["top-left", "top-right", "bottom-left", "bottom-right"]
CORNERS: tuple[Corner, ...] = ("top-left", "top-right", "bottom-left", "bottom-right")
"""In order of preference when two corners are equally far from the photo's subject."""
BADGE_SIDE = 0.36
"""The pip badge's side, as a share of the card picture's width."""
BADGE_PAD = 0.045
"""The badge's distance from the picture's edges, as a share of its width."""

Rect = tuple[float, float, float, float]


def badge_rect(corner: Corner, box_w: float, box_h: float) -> Rect:
    """The pip badge in a card picture of ``box_w`` x ``box_h`` (any unit): left, top,
    right, bottom in 0..1 of the picture box, top-left origin (as a browser draws).

    >>> [round(v, 3) for v in badge_rect("top-left", 10, 10)]
    [0.045, 0.045, 0.405, 0.405]
    >>> [round(v, 4) for v in badge_rect("bottom-right", 10, 20)]
    [0.595, 0.7975, 0.955, 0.9775]
    """
    side_x, pad_x = BADGE_SIDE, BADGE_PAD
    side_y, pad_y = BADGE_SIDE * box_w / box_h, BADGE_PAD * box_w / box_h
    left = pad_x if corner.endswith("left") else 1 - pad_x - side_x
    top = pad_y if corner.startswith("top") else 1 - pad_y - side_y
    return (left, top, left + side_x, top + side_y)


def badge_corner(focus_box: Rect | None, box_w: float, box_h: float) -> Corner:
    """The corner of a card picture (``box_w`` x ``box_h``) for the pip badge: the one
    whose badge covers least of ``focus_box`` (what the photo is about: left, top,
    right, bottom in 0..1 of the picture box, top-left origin, as
    :func:`deckgen.deck.layoutboxes.focus_box_on_card` gives it), and of those the one
    farthest from its centre; top-left without a focus.

    >>> badge_corner((0.0, 0.0, 0.4, 0.4), 10, 10)
    'bottom-right'
    >>> badge_corner((0.6, 0.1, 0.9, 0.5), 10, 10)
    'bottom-left'
    >>> badge_corner(None, 10, 10)
    'top-left'
    """
    if focus_box is None:
        return "top-left"
    fl, ft, fr, fb = focus_box
    fx, fy = (fl + fr) / 2, (ft + fb) / 2

    def score(corner: Corner) -> tuple[float, float, int]:
        bl, bt, br, bb = badge_rect(corner, box_w, box_h)
        overlap = max(0.0, min(br, fr) - max(bl, fl)) * max(0.0, min(bb, fb) - max(bt, ft))
        distance = math.hypot(((bl + br) / 2 - fx) * box_w, ((bt + bb) / 2 - fy) * box_h)
        return (round(overlap, 6), -round(distance, 6), CORNERS.index(corner))

    return min(CORNERS, key=score)


def draw_badge(ctx: DrawContext, value: int, inner: Box, corner: Corner = "top-left") -> None:
    """Small pips on a light rounded badge in ``corner`` of the card picture."""
    left, top, right, bottom = badge_rect(corner, inner.w, inner.h)
    box = Box(
        inner.x + left * inner.w,
        inner.y + (1 - bottom) * inner.h,
        (right - left) * inner.w,
        (bottom - top) * inner.h,
    )
    side = box.w
    face = parse_colour(ctx.deck.spec.faces.tile_colour)
    ctx.round_box(box, side * 0.2, fill=face, edge=mix(face, (0, 0, 0), 0.3), edge_width=0.4)
    draw_pips(ctx, value, box.cx, box.cy, side * 1.08, _value_rgb(ctx, value))


def draw_corner_index(ctx: DrawContext, tile: Tile) -> None:
    """``a|b`` in the top-left corner and, turned, in the bottom-right one, inside the
    safe area rounded with the card's corner radius (:mod:`deckgen.deck.cornerindex`).

    On a card with a background picture the index sits on a small plate of the card
    colour, so it stays readable.
    """
    from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth

    from deckgen.deck.cornerindex import place_index
    from deckgen.units import PT_PER_MM

    g = ctx.geometry
    card_rgb = parse_colour(ctx.deck.spec.card.background)
    on_picture = ctx.deck.card_picture is not None
    ink = mix(parse_colour(ctx.deck.spec.faces.tile_edge), card_rgb, 0.1)
    size = min(9.0, max(6.0, g.safe.h * 0.045))
    text = f"{tile.low}|{tile.high}"
    width = stringWidth(text, ctx.fonts.bold, size)
    ascent, descent = getAscentDescent(ctx.fonts.bold, size)
    pad = size * 0.3 if on_picture else 0.0
    spot = place_index(width, ascent, descent, pad, ctx.deck.corner_radius_mm * PT_PER_MM)
    c = ctx.canvas
    for turned in (False, True):
        c.saveState()
        if turned:
            c.translate(g.safe.x + g.safe.w, g.safe.y)
            c.rotate(180)
        else:
            c.translate(g.safe.x, g.safe.y + g.safe.h)
        # local frame: origin at the corner, text runs right, card interior is below
        if on_picture:
            left, bottom, right, top = spot.box
            plate = Box(left, bottom, right - left, top - bottom)
            ctx.round_box(plate, size * 0.3, fill=card_rgb)
        ctx.fill(ink)
        c.setFont(ctx.fonts.bold, size)
        c.drawString(spot.x, spot.baseline, text)
        c.restoreState()
