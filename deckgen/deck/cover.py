"""The cover card: a picture (or a drawn domino) above the title, subtitle and set line.

Takes a :class:`~deckgen.deck.drawing.DrawContext`; draws the cover on the current page.
Title and subtitle shrink to fit their boxes; when they cannot, a warning names the
cover card (or, with ``strict_text``, an error).
"""

from __future__ import annotations

from deckgen.deck.colour import contrast_on, mix, parse_colour, readable_mix
from deckgen.deck.drawing import DrawContext
from deckgen.deck.geometry import Box
from deckgen.deck.layoutboxes import cover_art_box, cover_split
from deckgen.deck.pips import layout
from deckgen.deck.textfit import (
    MIN_READABLE_PT,
    FitResult,
    Line,
    block_height,
    clip_to_height,
    fit_text,
    require_fit,
)
from deckgen.deck.wording import cover_set_line


def draw_cover(ctx: DrawContext) -> None:
    g = ctx.geometry
    deck = ctx.deck
    spec = deck.spec.cover
    bg = parse_colour(spec.background)
    ink = parse_colour(spec.text_colour) if spec.text_colour else contrast_on(bg)
    ctx.fill_box(g.page, bg)
    split = cover_split(g)
    if deck.cover_picture is not None:
        fit = deck.cover_fit
        art = cover_art_box(g, fit)
        ctx.picture_in(deck.cover_picture, art, fit=fit, card="the cover card")
        # A thin rule between picture and title area.
        ctx.fill_box(Box(g.page.x, split - 0.9, g.page.w, 1.8), mix(bg, ink, 0.35))
    else:
        _draw_double(ctx, Box(g.safe.x, split, g.safe.w, g.safe.y + g.safe.h - split))
    lang = deck.spec.language
    title = spec.title or deck.spec.name
    set_line_y = g.safe.y + 1
    text_box = Box(g.safe.x, g.safe.y + 13, g.safe.w, split - g.safe.y - 13 - g.trim.h * 0.04)
    title_fit = _fit(ctx, f"**{title}**", text_box.w, text_box.h * 0.55, 24, "the cover title")
    sub_fit = (
        _fit(ctx, spec.subtitle, text_box.w, text_box.h * 0.28, 11, "the cover subtitle")
        if spec.subtitle
        else None
    )
    gap = min(title_fit[0].size * 0.4, text_box.h * 0.12) if sub_fit else 0.0
    total = title_fit[1] + gap + (sub_fit[1] if sub_fit else 0.0)
    top = text_box.cy + total / 2
    ctx.text_lines(
        title_fit[2],
        Box(text_box.x, top - title_fit[1], text_box.w, title_fit[1]),
        size=title_fit[0].size,
        leading=title_fit[0].leading,
        colour=ink,
    )
    if sub_fit:
        y = top - title_fit[1] - gap
        ctx.text_lines(
            sub_fit[2],
            Box(text_box.x, y - sub_fit[1], text_box.w, sub_fit[1]),
            size=sub_fit[0].size,
            leading=sub_fit[0].leading,
            colour=mix(ink, bg, 0.1),
        )
    line = cover_set_line(lang, deck.dset.max_pip, len(deck.dset))
    ctx.centred_text(line, g.trim.cx, set_line_y, size=7.0, colour=readable_mix(ink, bg, 0.3))


def _fit(
    ctx: DrawContext, text: str, width: float, height: float, max_size: float, what: str
) -> tuple[FitResult, float, list[Line | None]]:
    """Fit ``text``; give the result, the height it takes and the lines to draw."""
    fonts = ctx.fonts
    min_size = min(max_size, MIN_READABLE_PT + 1)
    result = fit_text(
        text,
        width_pt=width,
        height_pt=height,
        regular=fonts.regular,
        bold=fonts.bold,
        max_size=max_size,
        min_size=min_size,
        line_spacing=1.15,
        language=ctx.deck.spec.language,
    )
    if result.fits and result.split_words:
        ctx.warn(
            f"{what} only fits with {', '.join(repr(w) for w in result.split_words)} cut "
            f"between two letters ({ctx.deck.path}): shorten it or add a hyphen where it "
            "may break"
        )
    if result.fits:
        return result, result.height, result.lines
    if ctx.strict_text:
        require_fit(result, what=what, where=str(ctx.deck.path), min_size=min_size)
    ctx.warn(
        f"{what} does not fit on the cover card even at {min_size:g} pt; it is cut short "
        f"({ctx.deck.path}): shorten it"
    )
    lines = clip_to_height(result, height)
    return result, block_height(lines, result.size, result.leading), lines


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
