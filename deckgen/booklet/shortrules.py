"""The short rules for the imprint card: the rules file's own sentences, cut to fit a card.

Takes a :class:`~deckgen.rulespec.RuleSpec`, a language and a card (its size, or a
loaded deck); gives the short rules text in the deck's simple markup (paragraphs,
``**bold**``), the fullest of a few fixed selections of clauses that fits the imprint
card at no less than the deck's minimum readable size (6 pt). When even the shortest
selection does not fit, a SpecError says so and what to change. The deck receives the
text from its caller (``render_cards(imprint_rules=...)`` /
``build_deck(imprint_extra=...)``); it never reads rules files itself.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from deckgen.deck.geometry import MM
from deckgen.errors import SpecError
from deckgen.rulespec import RuleSpec
from deckgen.rulespec.text import render

if TYPE_CHECKING:
    from deckgen.deck.spec import LoadedDeck

FOOTER_PT = 10.0
"""Height the imprint card keeps for its footer line (as drawn by ``deck.imprint``)."""

LEAD_CLAUSES = ("lead.turned_up", "lead.double", "lead.any")
HOW_TO_PLAY = "play.match"
"""How a card is played: every selection keeps it (a card without it teaches nothing)."""

LEVELS: tuple[tuple[str, ...], ...] = (
    (
        "setup.deal",
        *LEAD_CLAUSES,
        "start.first",
        HOW_TO_PLAY,
        "play.draw",
        "play.draw_limit",
        "play.play_drawn",
        "end.out",
        "end.reserve",
        "end.blocked",
        "score.out",
        "score.bonus",
        "score.blocked",
        "match.end",
    ),
    (
        "setup.deal",
        *LEAD_CLAUSES,
        HOW_TO_PLAY,
        "play.draw",
        "play.draw_limit",
        "end.out",
        "score.out",
        "score.bonus",
        "match.end",
    ),
    (
        HOW_TO_PLAY,
        "play.draw",
        "play.draw_limit",
        "end.reserve",
        "score.out",
        "score.bonus",
        "match.end",
    ),
    (HOW_TO_PLAY, "play.draw", "play.draw_limit", "score.out", "match.end"),
    (HOW_TO_PLAY, "play.draw", "score.out", "match.end"),
    (HOW_TO_PLAY,),
)
"""Selections of clause ids, fullest first; each level prints the summary first and
keeps how a card is played. Every level but the last says how points are scored before
it says how the game ends, since the end of the game is counted in those points. A
level that leaves out clauses of the fullest one ends with a line naming what is left
out (:func:`left_out_line`)."""

TOPICS: tuple[tuple[str, str], ...] = (
    ("setup.", "the deal"),
    ("lead.", "how a round begins"),
    ("start.", "how a round begins"),
    ("play.", "drawing"),
    ("end.", "when a round ends"),
    ("score.", "scoring"),
    ("match.", "the end of the game"),
)
"""Clause id prefixes and the topic a left-out clause belongs to (gettext message ids)."""


def _topic_label(topic: str, lang: str) -> str:
    from deckgen.booklet.i18n import translations

    t = translations(lang)
    labels = {
        "the deal": t.gettext("the deal"),
        "how a round begins": t.gettext("how a round begins"),
        "drawing": t.gettext("drawing"),
        "when a round ends": t.gettext("when a round ends"),
        "scoring": t.gettext("scoring"),
        "the end of the game": t.gettext("the end of the game"),
    }
    return labels[topic]


def left_out_line(rules: RuleSpec, lang: str, chosen: list[str]) -> str:
    """``More in the rule booklet: drawing and scoring.``: the topics of the clauses of the
    fullest selection that ``chosen`` leaves out ("" when none is left out)."""
    from deckgen.booklet.i18n import translations

    fullest = [c for c in LEVELS[0] if rules.has_clause(c)]
    topics: list[str] = []
    for cid in fullest:
        if cid in chosen:
            continue
        for prefix, topic in TOPICS:
            if cid.startswith(prefix) and topic not in topics:
                topics.append(topic)
                break
    if not topics:
        return ""
    t = translations(lang)
    labels = [_topic_label(x, lang) for x in topics]
    listed = (
        labels[0]
        if len(labels) == 1
        else (", ".join(labels[:-1]) + " " + t.gettext("and") + " " + labels[-1])
    )
    return t.gettext("More in the rule booklet: %(topics)s.") % {"topics": listed}


def short_rules_variants(rules: RuleSpec, lang: str) -> list[str]:
    """The short rules texts of ``rules`` in ``lang``, fullest first (no duplicates).

    Every variant has the summary and how a card is played (``play.match``); a variant
    that leaves out clauses of the fullest one says which topics are missing.
    """
    summary = render(rules.summary(lang), rules.text_params(lang))
    out: list[str] = []
    for level in LEVELS:
        chosen = [cid for cid in level if rules.has_clause(cid)]
        clauses = [rules.clause_text(cid, lang) for cid in chosen]
        text = summary if not clauses else summary + "\n\n" + " ".join(clauses)
        note = left_out_line(rules, lang, chosen)
        if note:
            text += "\n\n" + note
        if text not in out:
            out.append(text)
    return out


def _imprint_text(deck_name: str, imprint_text: str, rules_text: str, lang: str) -> str:
    from deckgen.deck.wording import word

    heading = word(lang, "short_rules")
    parts = [f"**{deck_name}**"]
    if imprint_text.strip():
        parts.append(imprint_text.strip())
    parts.append(f"**{heading}**\n{rules_text}")
    return "\n\n".join(parts)


def short_rules(
    rules: RuleSpec,
    lang: str,
    *,
    card_width_mm: float,
    card_height_mm: float,
    safe_mm: float = 4.0,
    deck_name: str = "",
    imprint_text: str = "",
) -> str:
    """The fullest short rules text that fits a card of this size at a readable size.

    The imprint card also carries ``deck_name`` and ``imprint_text``; they are measured
    with the rules. Uses the deck's bundled font and its text fitting.
    """
    from deckgen.deck.fonts import load_fonts
    from deckgen.deck.imprint import MAX_SIZE_PT
    from deckgen.deck.textfit import MIN_READABLE_PT, fit_text

    fonts = load_fonts()
    width_pt = (card_width_mm - 2 * safe_mm) * MM
    height_pt = (card_height_mm - 2 * safe_mm) * MM - FOOTER_PT
    for text in short_rules_variants(rules, lang):
        result = fit_text(
            _imprint_text(deck_name or rules.name(lang), imprint_text, text, lang),
            width_pt=width_pt,
            height_pt=height_pt,
            regular=fonts.regular,
            bold=fonts.bold,
            max_size=MAX_SIZE_PT,
            min_size=MIN_READABLE_PT,
        )
        if result.fits:
            return text
    raise SpecError(
        f"the short rules of '{rules.id}' do not fit on a {card_width_mm:g} x "
        f"{card_height_mm:g} mm imprint card at the minimum readable size "
        f"{MIN_READABLE_PT:g} pt, not even as the one-sentence summary",
        where="imprint card",
        fix="use a larger card size, shorten imprint.text, or leave the short rules off "
        "the imprint card",
    )


def short_rules_for_deck(rules: RuleSpec, deck: LoadedDeck, *, lang: str | None = None) -> str:
    """The fullest short rules text that the deck's own imprint card accepts.

    Each candidate is fitted to the deck's imprint card by the deck's own text fitting
    (:func:`deckgen.deck.imprint.imprint_fits`: its fonts, card size and layout decide,
    nothing is drawn); SpecError when none fits at the minimum readable size.
    """
    from deckgen.deck.imprint import imprint_fits

    language = lang or deck.spec.language
    if rules.dset != deck.dset:
        raise SpecError(
            f"the rules '{rules.id}' play {rules.dset.name} but the deck is {deck.dset.name}",
            where=str(deck.path),
            fix=f'use rules for {deck.dset.name} or set = "{rules.dset.name}" in the deck file',
        )
    for text in short_rules_variants(rules, language):
        if imprint_fits(deck, text):
            return text
    raise SpecError(
        f"the short rules of '{rules.id}' do not fit on the imprint card of "
        f"{deck.spec.name} ({deck.width_mm:g} x {deck.height_mm:g} mm) at the minimum "
        "readable size, not even as the one-sentence summary",
        where=str(deck.path),
        fix="use a larger card size, shorten imprint.text, or leave the short rules off "
        "the imprint card",
    )


RULES_REF = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$")
"""What ``imprint.rules`` holds when it names a rules file rather than free text."""


def imprint_rules_for(deck: LoadedDeck) -> str | None:
    """The short rules a deck file asks for with ``imprint.rules = "<rules id>"``.

    Gives the fullest short rules text of that rules file (id, German or English alias)
    that fits the deck's imprint card, in the deck's language, for
    ``build_deck(imprint_extra=...)``; None when the key is empty or holds free text
    (the deck prints that as it is). An unknown id is an InputError with a suggestion;
    rules that cannot fit are a SpecError.
    """
    from deckgen.errors import InputError
    from deckgen.paths import resolve_inside
    from deckgen.rulespec import bundled_suggestion, find_bundled, load_rules_file

    ref = deck.spec.imprint.rules.strip()
    if not ref or not RULES_REF.match(ref):
        return None
    where = f"{deck.path}, key imprint.rules"
    if ref.endswith(".toml"):
        # A rules file of the deck's own: read from the deck's folder, staying inside it.
        path = resolve_inside(deck.path.resolve().parent, ref, where=where)
        rules = load_rules_file(path)
    else:
        found = find_bundled(ref)
        if found is None:
            hint = bundled_suggestion(ref)
            if not hint:
                return None  # a one-word free text, printed as it is
            raise InputError(
                f"unknown rules '{ref}'; {hint}",
                where=where,
                fix="name a bundled rules id (`deckgen rules list`), a .toml file next to "
                "the deck file, or write the text you want printed",
            )
        rules = found
    return short_rules_for_deck(rules, deck, lang=deck.spec.language)
