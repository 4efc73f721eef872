"""The player's booklet and the designer's edition (issue 26), and the press file (issue 23).

What a player reads is only the game and a quick reference; the notes, the check's
statistics, the clause coverage, the findings and the skill ladder are the designer's.
Every clause that changes the board or the score is shown at work by a diagram, a
table or a worked example. The print edition has a multiple of 4 pages, its blanks
just before the back cover; imposition implies it. Card pictures speak the booklet's
language. No page of a player's booklet is mostly empty by accident.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pikepdf
import pypdfium2 as pdfium
import pytest

from deckgen.booklet.content import QUICK_GROUPS, Extras, build_booklet, first_sentence
from deckgen.booklet.html import page_format
from deckgen.booklet.model import Booklet, Para, Table
from deckgen.booklet.play import ending_round, example_round
from deckgen.booklet.printedition import saddle_stitch_pages
from deckgen.rulespec import RuleSpec, list_rules, load_rules

A5 = page_format("a5")
DESIGNER_ONLY = {"notes", "findings", "coverage", "ladder"}


@cache
def _report() -> dict[str, Any]:
    from deckgen.booklet.make import quick_check

    return quick_check(load_rules("card-domino"))


@cache
def _examples(rules_id: str) -> tuple[Any, Any]:
    rules = load_rules(rules_id)
    return example_round(rules), ending_round(rules)


def _booklet(rules: RuleSpec, lang: str, edition: str = "player", **kw: Any) -> Booklet:
    ex, ending = _examples(rules.id)
    extras = Extras(example=ex, ending=ending, edition=edition, **kw)  # type: ignore[arg-type]
    return build_booklet(rules, lang, A5, extras)


# -- player / designer ------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["de", "en"])
def test_player_booklet_is_only_the_game(lang: str) -> None:
    rules = load_rules("card-domino")
    player = _booklet(rules, lang, report=_report())
    keys = {s.key for s in player.sections}
    assert not keys & DESIGNER_ONLY
    assert not any(k.startswith("players-") for k in keys)
    text = " ".join(str(getattr(b, "text", "")) for b in player.blocks())
    for note in rules.notes(lang):
        assert note.reason not in text
    assert not re.search(r"\d+[.,]\d\s?%", text), "statistics in the player's booklet"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_designer_edition_has_everything_the_player_leaves_out(lang: str) -> None:
    rules = load_rules("card-domino")
    report = _report()
    designer = _booklet(rules, lang, "designer", report=report)
    keys = [s.key for s in designer.sections]
    assert set(keys) >= DESIGNER_ONLY
    assert {f"players-{n}" for n in report["players"]} <= set(keys)
    player_keys = [s.key for s in _booklet(rules, lang).sections]
    assert keys[: len(player_keys)] == player_keys  # the same booklet, then more
    coverage = next(s for s in designer.sections if s.key == "coverage")
    table = next(b for b in coverage.blocks if isinstance(b, Table))
    assert [row[0] for row in table.rows] == rules.clause_ids()
    for key in report["players"]:
        page = next(s for s in designer.sections if s.key == f"players-{key}")
        assert page.new_page
        figures = [b for b in page.blocks if b.kind == "figure"]
        assert len(figures) == 2, "a page per player count with its charts"
        cells = [c for b in page.blocks if isinstance(b, Table) for r in b.rows for c in r]
        assert any("\u2013" in c and "%" in c for c in cells), "shares with their intervals"
    assert designer.title.kicker


# -- the quick reference ---------------------------------------------------------------
@pytest.mark.parametrize("rules_id", ["card-domino", "mexican-train", "all-fives"])
def test_quick_reference_is_short_and_has_the_five_parts(rules_id: str) -> None:
    rules = load_rules(rules_id)
    for lang in ("de", "en"):
        quick = _booklet(rules, lang).quickref
        assert quick is not None
        headings = [h for h, _ in quick.groups]
        assert len(headings) == len(QUICK_GROUPS) == 5, headings
        lines = [line for _, group in quick.groups for line in group]
        full = " ".join(c.text for s in rules.sections(lang) for c in s.clauses)
        assert sum(map(len, lines)) < 0.5 * len(full), "it repeats the whole rules"
        for line in lines:
            assert any(
                first_sentence(c.text) == line for s in rules.sections(lang) for c in s.clauses
            )
        assert not re.search(r"\d\s?%", " ".join(lines) + quick.note)
        assert quick.note == ""  # figures from the booklet's own rounds are not "reliable"


def test_quick_reference_playing_time_only_from_the_check() -> None:
    from deckgen.booklet.facts import facts_from_report

    rules = load_rules("card-domino")
    facts = facts_from_report(_report(), players=3)
    assert facts is not None
    quick = _booklet(rules, "en", facts=facts).quickref
    assert quick is not None
    assert re.fullmatch(r"A round takes about \d+ minutes\.", quick.note)


# -- every rule that changes the board or the score is shown at work ----------------------
BOARD_OR_SCORE = re.compile(
    r"^(lead\.|score\.|play\.(match|doubles|trains|satisfy_double|open_train|chicken_foot)$)"
)
UNREACHED = {("double-twelve", "score.tie")}
"""(rules, clause) no real round of the booklet's search shows: a blocked double-12 round
is rare (about 1 in 2,000) and one whose lowest hands tie rarer still."""


def test_every_clause_that_changes_board_or_score_is_shown() -> None:
    missing = []
    for rules in list_rules():
        booklet = _booklet(rules, "en")
        shown = {c for b in booklet.blocks() for c in getattr(b, "shows", ())}
        clauses = {b.clause for b in booklet.blocks() if isinstance(b, Para)}
        for cid in rules.clause_ids():
            assert cid in clauses, f"{rules.id}: clause {cid} is not printed"
            unshown = BOARD_OR_SCORE.match(cid) and cid not in shown
            if unshown and (rules.id, cid) not in UNREACHED:
                missing.append(f"{rules.id}: {cid}")
    assert not missing, "clauses with no diagram or example: " + ", ".join(missing)


# -- the press file -------------------------------------------------------------------
@pytest.mark.parametrize("pages", [2, 5, 7, 8, 10, 13])
def test_press_pages_are_a_multiple_of_4_with_blanks_before_the_back_cover(
    make_labelled_pdf: Any, pages: int
) -> None:
    import io

    padded = saddle_stitch_pages(make_labelled_pdf(pages))
    doc = pdfium.PdfDocument(padded)
    n = len(doc)
    assert n % 4 == 0
    assert n - pages < 4
    texts = [doc[i].get_textpage().get_text_range().strip() for i in range(n)]
    assert texts[: pages - 1] == [f"P{k}" for k in range(1, pages)]
    assert texts[pages - 1 : n - 1] == [""] * (n - pages)  # the blanks
    assert texts[-1] == f"P{pages}"  # the back cover stays the back cover
    with pikepdf.open(io.BytesIO(padded)) as pdf:
        boxes = {tuple(float(v) for v in p.mediabox) for p in pdf.pages}
        assert len(boxes) == 1


def test_impose_without_print_makes_the_print_edition(tmp_path: Path) -> None:
    from deckgen.booklet.make import make_booklets
    from deckgen.booklet.printedition import PrintOptions

    paths = make_booklets(
        "two-player", tmp_path, langs=("en",), impose=True, printing=PrintOptions(colour="rgb")
    )
    names = [p.name for p in paths]
    assert names == ["booklet-en.pdf", "booklet-en-press.pdf", "booklet-en-print.pdf"]
    with pikepdf.open(tmp_path / "booklet-en-press.pdf") as press:
        assert len(press.pages) % 4 == 0
        trim = [float(v) for v in press.pages[0].TrimBox]
        media = [float(v) for v in press.pages[0].mediabox]
        assert media[2] - trim[2] == pytest.approx(3 / 25.4 * 72, abs=0.05)  # 3 mm bleed


# -- card pictures speak the booklet's language -------------------------------------------
@pytest.mark.parametrize(
    ("rules_id", "names"),
    [
        ("two-player", {"de": "Domino zu zweit", "en": "Two-Player Domino"}),
        ("card-domino", {"de": "Bilder-Domino", "en": "Picture Domino"}),
        ("mexican-train", {"de": "Mexikanischer Zug", "en": "Mexican Train"}),
    ],
)
def test_card_pictures_in_the_booklets_language(rules_id: str, names: dict[str, str]) -> None:
    from deckgen.booklet.make import demo_deck

    rules = load_rules(rules_id)
    for lang, name in names.items():
        deck = demo_deck(rules, lang)
        assert deck.spec.name == name
        assert deck.spec.language == lang
        other = names["en" if lang == "de" else "de"]
        cover = deck.spec.cover
        assert other not in str(cover.title if cover else "")
        assert other not in str(cover.subtitle if cover else "")
        subtitle = str(cover.subtitle if cover else "")
        assert ("Spieler" in subtitle) == (lang == "de"), subtitle  # not "Our family domino"


def test_each_language_gets_its_own_card_pictures() -> None:
    from deckgen.booklet.make import prepare

    prepared = prepare(load_rules("two-player"), fmt=A5, langs=("de", "en"))
    for lang, name in (("de", "Domino zu zweit"), ("en", "Two-Player Domino")):
        alts = [c.alt for c in prepared.pictures[lang].cards]
        assert alts[0] == name, alts
    assert prepared.pictures["de"].served != prepared.pictures["en"].served  # the cover differs


# -- no page mostly empty by accident ---------------------------------------------------
def _filled(pdf_path: Path) -> list[float]:
    """Per page, how far down the text block the lowest ink reaches (0..1)."""
    doc = pdfium.PdfDocument(pdf_path)
    out = []
    top, bottom = 17 / 210, 1 - 17 / 210  # the A5 text block's margins
    for i in range(len(doc)):
        im = doc[i].render(scale=0.5).to_pil().convert("L")
        w, h = im.size
        y0, y1 = int(top * h) + 6, int(bottom * h)
        lowest = y0
        for y in range(y0, y1):
            darkest, _ = im.crop((int(0.08 * w), y, int(0.92 * w), y + 1)).getextrema()
            if darkest < 200:
                lowest = y
        out.append((lowest - y0) / (y1 - y0))
    return out


@pytest.mark.parametrize("lang", ["de", "en"])
def test_no_page_mostly_empty_in_card_domino(
    card_domino_booklets: dict[str, Path], lang: str
) -> None:
    filled = _filled(card_domino_booklets[f"booklet-{lang}.pdf"])
    # the cover, the last page of the rules (before the quick reference) and the
    # quick reference itself may end where their text ends
    body = filled[1:-2]
    thin = [(i + 2, f) for i, f in enumerate(body) if f < 0.7]
    assert not thin, f"pages mostly empty (page, share of the text block used): {thin}"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules_id", "lang"), [("mexican-train", "en"), ("all-fives", "en"), ("all-fives", "de")]
)
def test_no_page_mostly_empty(tmp_path: Path, rules_id: str, lang: str) -> None:
    from deckgen.booklet.make import make_booklets

    (path,) = make_booklets(rules_id, tmp_path, langs=(lang,))
    filled = _filled(path)
    thin = [(i + 2, f) for i, f in enumerate(filled[1:-2]) if f < 0.7]
    assert not thin, f"pages mostly empty (page, share of the text block used): {thin}"
