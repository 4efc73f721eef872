"""The imprint card: who made the deck (free text with simple markup) and optional rules.

Takes a :class:`~deckgen.deck.drawing.DrawContext`; draws the imprint on the current
page. An ``imprint.picture`` (a logo or family photo)
takes the top of the safe area (:func:`~deckgen.deck.layoutboxes.imprint_picture_box`,
contain fit unless the deck file asks for cover) and the text gets the room below
it, so the two never overlap; callers
that choose short rules to fit the card render this very card, so they see that room.
The text is the deck file's ``imprint.text`` plus ``imprint.rules`` (short rules
that the CALLER supplies, e.g. the booklet step; deck never reads rules files itself),
set in one block that shrinks to fit. When it cannot fit even at the minimum readable
size, the card is cut short with a warning, or with ``strict_text`` an error says so.
"""

from __future__ import annotations

from deckgen.deck.colour import mix, parse_colour
from deckgen.deck.drawing import DrawContext
from deckgen.deck.geometry import Box
from deckgen.deck.layoutboxes import IMPRINT_PICTURE_GAP_PT, imprint_picture_box
from deckgen.deck.textfit import MIN_READABLE_PT, clip_to_height, fit_text, require_fit
from deckgen.deck.wording import imprint_footer, word

MAX_SIZE_PT = 9.0


def imprint_markup(ctx: DrawContext) -> str:
    """The imprint card's whole text as markup."""
    deck = ctx.deck
    spec = deck.spec.imprint
    parts = [f"**{deck.spec.name}**"]
    if spec.text.strip():
        parts.append(spec.text.strip())
    if spec.rules.strip():
        parts.append(f"**{word(deck.spec.language, 'short_rules')}**\n{spec.rules.strip()}")
    return "\n\n".join(parts)


def draw_imprint(ctx: DrawContext) -> None:
    g = ctx.geometry
    deck = ctx.deck
    spec = deck.spec.imprint
    bg = parse_colour(spec.background)
    ink = parse_colour(spec.text_colour)
    ctx.fill_box(g.page, bg)
    footer_h = 10.0
    box = Box(g.safe.x, g.safe.y + footer_h, g.safe.w, g.safe.h - footer_h)
    if deck.imprint_picture is not None:
        pic_box = imprint_picture_box(g)
        ctx.picture_in(deck.imprint_picture, pic_box, fit=spec.fit, card="the imprint card")
        box = Box(box.x, box.y, box.w, pic_box.y - IMPRINT_PICTURE_GAP_PT - box.y)
    result = fit_text(
        imprint_markup(ctx),
        width_pt=box.w,
        height_pt=box.h,
        regular=ctx.fonts.regular,
        bold=ctx.fonts.bold,
        max_size=MAX_SIZE_PT,
        min_size=MIN_READABLE_PT,
    )
    lines = result.lines
    if not result.fits:
        if ctx.strict_text:
            require_fit(
                result,
                what="the imprint card's text",
                where=str(deck.path),
                min_size=MIN_READABLE_PT,
            )
        ctx.warn(
            f"the imprint card's text does not fit even at {MIN_READABLE_PT:g} pt and is cut "
            f"short ({deck.path}, keys imprint.text / imprint.rules): shorten it"
        )
        lines = clip_to_height(result, box.h)
    ctx.text_lines(lines, box, size=result.size, leading=result.leading, colour=ink, align="left")
    lang = deck.spec.language
    footer = imprint_footer(lang, deck.dset.max_pip, len(deck.dset))
    ctx.stroke(mix(ink, bg, 0.7), 0.5)
    ctx.canvas.line(g.safe.x, g.safe.y + footer_h - 3, g.safe.x + g.safe.w, g.safe.y + footer_h - 3)
    ctx.centred_text(footer, g.trim.cx, g.safe.y + 1, size=6.5, colour=mix(ink, bg, 0.35))
