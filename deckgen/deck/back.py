"""The card back: one design for every card, so that no back can reveal its card.

Takes a :class:`~deckgen.deck.drawing.DrawContext`; draws the back on the current page:
background colour (and picture) over the bleed, an optional pattern that is
point-symmetric about the card's centre (a card looks the same turned, and a duplex
shift shows no edge), and the logo, or a drawn domino emblem when there is none.
"""

from __future__ import annotations

import math

from deckgen.deck.colour import RGB, contrast_on, mix, parse_colour
from deckgen.deck.drawing import DrawContext
from deckgen.deck.geometry import Box
from deckgen.deck.layoutboxes import logo_box
from deckgen.deck.pips import layout


def draw_back(ctx: DrawContext) -> None:
    g = ctx.geometry
    spec = ctx.deck.spec.back
    bg = parse_colour(spec.background)
    ctx.fill_box(g.page, bg)
    if ctx.deck.back_picture is not None:
        ctx.picture_in(ctx.deck.back_picture, g.page, fit="cover", card="the back")
    pattern_rgb = (
        parse_colour(spec.pattern_colour) if spec.pattern_colour else mix(bg, contrast_on(bg), 0.13)
    )
    draw_pattern(ctx, spec.pattern, pattern_rgb)
    if ctx.deck.logo is not None:
        box = logo_box(g, spec.logo_width)
        ctx.picture_in(ctx.deck.logo, box, fit="contain", card="the back")
    else:
        draw_emblem(ctx, g.trim.cx, g.trim.cy, g.safe.w * 0.42, bg)


def draw_pattern(ctx: DrawContext, pattern: str, rgb: RGB) -> None:
    if pattern == "none":
        return
    g = ctx.geometry
    c = ctx.canvas
    cx, cy = g.trim.cx, g.trim.cy
    step = min(g.trim.w, g.trim.h) / 9
    reach = math.hypot(g.page.w, g.page.h) / 2 + step
    n = int(reach / step) + 1
    c.saveState()
    path = c.beginPath()
    path.rect(g.page.x, g.page.y, g.page.w, g.page.h)
    c.clipPath(path, stroke=0, fill=0)
    if pattern == "dots":
        ctx.fill(rgb)
        for i in range(-n, n + 1):
            for j in range(-n, n + 1):
                x = cx + i * step + (step / 2 if j % 2 else 0.0)
                y = cy + j * step * 0.866
                c.circle(x, y, step * 0.12, stroke=0, fill=1)
    elif pattern == "diagonal":
        ctx.stroke(rgb, step * 0.18)
        for i in range(-2 * n, 2 * n + 1):
            off = i * step * 0.7
            c.line(cx + off - reach, cy - reach, cx + off + reach, cy + reach)
    else:  # lattice: a diamond grid with small dots at the crossings
        ctx.stroke(rgb, max(0.4, step * 0.05))
        for i in range(-2 * n, 2 * n + 1):
            off = i * step
            c.line(cx + off - reach, cy - reach, cx + off + reach, cy + reach)
            c.line(cx + off - reach, cy + reach, cx + off + reach, cy - reach)
        ctx.fill(rgb)
        for a in range(-2 * n, 2 * n + 1):
            for b in range(-2 * n, 2 * n + 1):
                if (a + b) % 2 == 0:  # the crossings of the two families of lines
                    c.circle(cx + a * step / 2, cy + b * step / 2, step * 0.09, stroke=0, fill=1)
    c.restoreState()


def draw_emblem(ctx: DrawContext, cx: float, cy: float, width: float, bg: RGB) -> None:
    """A domino drawn on its side, in a medallion: the default back when there is no logo."""
    ink = contrast_on(bg)
    c = ctx.canvas
    ctx.fill(mix(bg, ink, 0.08))
    ctx.stroke(mix(bg, ink, 0.5), max(0.6, width * 0.012))
    c.circle(cx, cy, width * 0.62, stroke=1, fill=1)
    side = width * 0.5
    tile = Box(cx - side, cy - side / 2, 2 * side, side)
    ctx.round_box(tile, side * 0.14, fill=(255, 253, 247), edge=(43, 43, 43), edge_width=0.8)
    ctx.stroke((43, 43, 43), 0.8)
    c.line(cx, tile.y + side * 0.12, cx, tile.y + side - side * 0.12)
    for value, hx in ((6, cx - side / 2), (6, cx + side / 2)):
        pl = layout(value)
        spread = side * 0.3
        ctx.fill((43, 43, 43))
        for x, y in pl.points:
            # turn the layout a quarter so the columns run along the tile
            c.circle(hx + y * spread, cy + x * spread, pl.radius * spread, stroke=0, fill=1)
