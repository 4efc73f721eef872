"""The cover card: a picture (or a drawn domino) above the title, subtitle and set line.

Takes a :class:`~deckgen.deck.drawing.DrawContext`; draws the cover on the current page.
Title and subtitle shrink to fit their boxes; when they cannot, a warning names the
cover card (or, with ``strict_text``, an error).
"""

from __future__ import annotations

from deckgen.deck.colour import contrast_on, mix, parse_colour
from deckgen.deck.drawing import DrawContext
from deckgen.deck.geometry import Box
from deckgen.deck.layoutboxes import cover_art_box, cover_split
from deckgen.deck.pips import layout
from deckgen.deck.textfit import MIN_READABLE_PT, clip_to_height, fit_text, require_fit

SET_LINE = {
    "en": "Domino · {set} · {tiles} tiles",
    "de": "Domino · {set} · {tiles} Steine",
}
SET_NAME = {"en": "double-{n}", "de": "Doppel-{n}"}


def draw_cover(ctx: DrawContext) -> None:
    g = ctx.geometry
    deck = ctx.deck
    spec = deck.spec.cover
    bg = parse_colour(spec.background)
    ink = parse_colour(spec.text_colour) if spec.text_colour else contrast_on(bg)
    ctx.fill_box(g.page, bg)
    split = cover_split(g)
    art = cover_art_box(g)
    if deck.cover_picture is not None:
        ctx.picture_in(deck.cover_picture, art, fit="cover", card="the cover card")
        # A thin rule between picture and title area.
        ctx.fill_box(Box(g.page.x, split - 0.9, g.page.w, 1.8), mix(bg, ink, 0.35))
    else:
        _draw_double(ctx, Box(g.safe.x, split, g.safe.w, g.safe.y + g.safe.h - split))
    lang = deck.spec.language
    title = spec.title or deck.spec.name
    text_box = Box(g.safe.x, g.safe.y, g.safe.w, split - g.safe.y - g.trim.h * 0.03)
    title_box = Box(text_box.x, text_box.y + text_box.h * 0.42, text_box.w, text_box.h * 0.58)
    _fit_block(ctx, f"**{title}**", title_box, max_size=26, ink=ink, what="the cover title")
    sub_box = Box(text_box.x, text_box.y + text_box.h * 0.16, text_box.w, text_box.h * 0.26)
    if spec.subtitle:
        _fit_block(ctx, spec.subtitle, sub_box, max_size=12, ink=ink, what="the cover subtitle")
    line = SET_LINE[lang].format(
        set=SET_NAME[lang].format(n=deck.dset.max_pip), tiles=len(deck.dset)
    )
    ctx.centred_text(line, g.trim.cx, text_box.y + 1, size=7.0, colour=mix(ink, bg, 0.3))


def _fit_block(
    ctx: DrawContext, text: str, box: Box, *, max_size: float, ink: tuple[int, int, int], what: str
) -> None:
    fonts = ctx.fonts
    min_size = min(max_size, MIN_READABLE_PT + 1)
    result = fit_text(
        text,
        width_pt=box.w,
        height_pt=box.h,
        regular=fonts.regular,
        bold=fonts.bold,
        max_size=max_size,
        min_size=min_size,
        line_spacing=1.15,
    )
    lines = result.lines
    if not result.fits:
        if ctx.strict_text:
            require_fit(result, what=what, where=str(ctx.deck.path), min_size=min_size)
        ctx.warn(
            f"{what} does not fit on the cover card even at {min_size:g} pt; it is cut short "
            f"({ctx.deck.path}): shorten it"
        )
        lines = clip_to_height(result, box.h)
    ctx.text_lines(
        lines,
        box,
        size=result.size,
        leading=result.leading,
        colour=ink,
        valign="middle",
        height=min(result.height, box.h),
    )


def _draw_double(ctx: DrawContext, area: Box) -> None:
    """The set's highest double, drawn large across the art area."""
    n = ctx.deck.dset.max_pip
    side = min(area.w / 2.2, area.h * 0.7)
    tile = Box(area.cx - side, area.cy - side / 2, 2 * side, side)
    shadow = Box(tile.x + side * 0.03, tile.y - side * 0.04, tile.w, tile.h)
    bg = parse_colour(ctx.deck.spec.cover.background)
    ctx.round_box(shadow, side * 0.12, fill=mix(bg, (0, 0, 0), 0.35))
    face = parse_colour(ctx.deck.spec.faces.tile_colour)
    edge = parse_colour(ctx.deck.spec.faces.tile_edge)
    ctx.round_box(tile, side * 0.12, fill=face, edge=edge, edge_width=1.0)
    c = ctx.canvas
    ctx.stroke(edge, 1.0)
    c.line(tile.cx, tile.y + side * 0.1, tile.cx, tile.y + side * 0.9)
    pl = layout(n)
    spread = side * 0.31
    ctx.fill(ctx.deck.value_colours[n])
    for hx in (tile.x + side / 2, tile.cx + side / 2):
        for x, y in pl.points:
            c.circle(hx + y * spread, tile.cy + x * spread, pl.radius * spread, stroke=0, fill=1)
