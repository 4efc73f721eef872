"""The booklets read as a player learning the game reads them (issue 11, "the same care").

Each test names one gap a new player tripped over: the dealer used before anyone is
told who deals, a quick reference without the start card, broken German in the
turn-by-turn table, engine jargon on the page, notes that speak of an older
description for a designer's own file, cards in a tile game, and the worked example or
a diagram split across two pages (checked in the real PDF).
"""

from __future__ import annotations

import itertools
import re
import shutil
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Literal

import pikepdf
import pypdfium2 as pdfium
import pytest

from deckgen.booklet.content import Extras, _Builder, build_booklet, first_sentence
from deckgen.booklet.example import ExampleRound
from deckgen.booklet.facts import PlayFacts
from deckgen.booklet.html import page_format
from deckgen.booklet.i18n import po_path
from deckgen.booklet.model import Block, Booklet, Box, CardRow, Figure, Para, Sum, Table
from deckgen.rulespec import RuleSpec, list_rules, load_rules, load_rules_file

BUNDLED = [r.id for r in list_rules()]
LANGS = ("de", "en")

FACTS = PlayFacts(
    source="simulation",
    rounds=2000,
    players=3,
    blocked_share=0.4,
    starter_win_share=0.36,
    turns_per_round=20.0,
    rounds_per_match=4.0,
    seconds_per_turn=10.0,
    minutes_per_match=20.0,
    bots="random,greedy",
)


@cache
def _example(rules_id: str) -> ExampleRound | None:
    from deckgen.booklet.play import example_round

    return example_round(load_rules(rules_id))


def _booklet(
    rules: RuleSpec,
    lang: str,
    fmt: str = "a5",
    *,
    example: bool = True,
    edition: Literal["player", "designer"] = "player",
) -> Booklet:
    ex = _example(rules.id) if example and rules.path is not None else None
    extras = Extras(facts=FACTS, example=ex, edition=edition)
    return build_booklet(rules, lang, page_format(fmt), extras)


def _texts(block: Block) -> Iterator[str]:
    if isinstance(block, Para):
        yield (block.lead + " " if block.lead else "") + block.text
    elif isinstance(block, Table):
        yield block.caption
        yield from block.header
        for row in block.rows:
            yield from row
    elif isinstance(block, Figure | CardRow):
        yield block.caption
    elif isinstance(block, Sum):
        yield block.title
        for line in block.lines:
            yield from line
    elif isinstance(block, Box):
        yield block.title
        for inner in block.blocks:
            yield from _texts(inner)


def _all_text(b: Booklet) -> list[str]:
    out = [b.title.name, b.title.subtitle, *b.title.facts, b.title.footnote, b.title.publisher]
    for s in b.sections:
        out.append(s.title)
        for block in s.blocks:
            out.extend(_texts(block))
    if b.quickref is not None:
        out += [b.quickref.title, b.quickref.note]
        for heading, lines in b.quickref.groups:
            out += [heading, *lines]
    return [t for t in out if t]


# -- who deals (and who is White) ------------------------------------------------------
ROLES = {
    "de": [
        (re.compile(r"\bGeber"), re.compile(r"wer gibt|gibt|teilt")),
        (re.compile(r"\bWeiß\b"), re.compile(r"wer Weiß ist")),
    ],
    "en": [
        (re.compile(r"\bdealer"), re.compile(r"who deals|deals")),
        (re.compile(r"\bWhite\b"), re.compile(r"who is White")),
    ],
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("rules_id", BUNDLED)
def test_a_role_is_assigned_before_the_word_is_used(rules_id: str, lang: str) -> None:
    """ "the player on the dealer's left" means nothing until someone has been told to deal."""
    paras = [
        t
        for s in _booklet(load_rules(rules_id), lang, example=False).sections
        for block in s.blocks
        for t in _texts(block)
    ]
    for role, assigned in ROLES[lang]:
        using = [t for t in paras if role.search(t)]
        if using:
            assert assigned.search(using[0]), f"says nothing about who it is: {using[0]}"


def test_card_domino_says_who_deals_in_its_setup() -> None:
    setup = next(
        s
        for s in _booklet(load_rules("card-domino"), "de", example=False).sections
        if s.key == "setup"
    )
    assert any("ausgelost, wer gibt" in t for b in setup.blocks for t in _texts(b))


# -- quick reference ----------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["a5", "a6"])
@pytest.mark.parametrize("rules_id", BUNDLED)
def test_quick_reference_says_how_a_round_starts_and_how_to_play(rules_id: str, fmt: str) -> None:
    rules = load_rules(rules_id)
    for lang in LANGS:
        quick = _booklet(rules, lang, fmt, example=False).quickref
        assert quick is not None
        lines = [line for _, group in quick.groups for line in group]
        for cid in ("play.match", "lead.turned_up", "lead.double", "lead.any", "lead.station"):
            if rules.has_clause(cid):
                assert first_sentence(rules.clause_text(cid, lang)) in lines, (cid, lang)


def test_card_domino_quick_reference_names_the_start_card() -> None:
    quick = _booklet(load_rules("card-domino"), "de", example=False).quickref
    assert quick is not None
    setup = dict(quick.groups)["Vorbereitung"]
    assert any("aufgedeckt" in line and "Runde" in line for line in setup)


# -- the turn-by-turn table ----------------------------------------------------------------
def _builder(rules_id: str, lang: str) -> _Builder:
    return _Builder(load_rules(rules_id), lang, page_format("a5"), Extras())


@pytest.mark.parametrize(
    ("rules_id", "drew", "tile", "expected"),
    [
        ("card-domino", 0, (3, 5), "legt 3/5 an die offene 5"),
        ("card-domino", 1, (3, 5), "zieht eine Karte und legt dann 3/5 an die offene 5"),
        ("card-domino", 2, (3, 5), "zieht zwei Karten und legt dann 3/5 an die offene 5"),
        ("card-domino", 0, None, "kann keine Karte anlegen und setzt aus"),
        ("card-domino", 1, None, "zieht eine Karte, kann sie nicht anlegen und setzt aus"),
        ("card-domino", 3, None, "zieht drei Karten, kann immer noch keine anlegen und setzt aus"),
        ("double-twelve", 1, (3, 5), "zieht einen Stein und legt dann 3/5 an die offene 5"),
        (
            "double-twelve",
            4,
            None,
            "zieht vier Steine, kann immer noch keinen anlegen und setzt aus",
        ),
        ("double-twelve", 0, None, "kann keinen Stein anlegen und setzt aus"),
    ],
)
def test_german_turn_lines_are_whole_sentences(
    rules_id: str, drew: int, tile: tuple[int, int] | None, expected: str
) -> None:
    assert _builder(rules_id, "de").turn_text(drew, tile, 5) == expected


@pytest.mark.parametrize("rules_id", ["card-domino", "double-twelve"])
def test_turn_table_of_the_real_round_reads_well(rules_id: str) -> None:
    rules = load_rules(rules_id)
    word = "Karte" if rules.params.pieces == "cards" else "Stein"
    count = r"(eine?n?|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|\d\d+)"
    pattern = re.compile(
        rf"^(zieht {count} {word}e?n?(, kann (sie|ihn) nicht anlegen| und legt dann \d+/\d+ an die "
        rf"offene \d+|, kann immer noch keinen? anlegen)( und setzt aus)?"
        rf"|legt \d+/\d+ an die offene \d+|kann keinen? {word} anlegen und setzt aus)$"
    )
    example = next(s for s in _booklet(rules, "de").sections if s.key == "example")
    cells = [row[2] for b in example.blocks if isinstance(b, Table) for row in b.rows]
    assert cells
    bad = [c for c in cells if not pattern.match(c) or ", dann" in c]
    assert not bad, bad
    assert any(c.startswith("zieht") for c in cells), "the example round shows no drawing"


# -- no engine jargon ------------------------------------------------------------------
JARGON = [
    "Engine",
    "engine",
    "Regeldatei",
    "rules file",
    "Vorlage",
    "the source",
    "The source",
    "ziehenden",
    "bots",
    "Referenz",
    "Platz 0",
    "seat 0",
]


PARAMETER = re.compile(r"\b(players|deal|opening|board|turn|scoring|match)\.[a-z_]+")
HYPHEN_TILE = re.compile(r"\b\d{1,2}-\d{1,2}\b")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("rules_id", BUNDLED)
def test_no_engine_jargon_on_the_page(rules_id: str, lang: str) -> None:
    rules = load_rules(rules_id)
    b = _booklet(rules, lang)
    for text in _all_text(b):
        for word in JARGON:
            assert word not in text, (word, text)
        assert not PARAMETER.search(text), text  # a rules file key such as match.target
        assert not HYPHEN_TILE.search(text), text  # tiles are written 6/6
    cover = " ".join([b.title.subtitle, *b.title.facts, b.title.footnote, b.title.publisher])
    assert rules.id not in cover


def test_german_turns_are_spielzuege_where_zug_means_train() -> None:
    """In Mexican Train "Zug" is a train; a turn is always a "Spielzug" in German, so the
    turn table and its captions never read as "train 12"."""
    b = _booklet(load_rules("mexican-train"), "de")
    texts = list(_all_text(b))
    assert any("Mexikanischer Zug" in t for t in texts)
    for text in texts:
        assert not re.search(r"\bNach Zug \d", text), text
        assert not re.search(r"\b\d+ Zügen\b", text), text
    assert any(t == "Spielzug" for t in texts), "the turn table's header"


@pytest.mark.parametrize("lang", LANGS)
def test_catalogs_carry_no_jargon(lang: str) -> None:
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    for m in catalog:
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for text in strings:
            for word in JARGON:
                assert word not in str(text), (word, text)


def test_cover_of_the_real_pdf_names_no_file(card_domino_booklets: dict[str, Path]) -> None:
    for lang in LANGS:
        doc = pdfium.PdfDocument(card_domino_booklets[f"booklet-{lang}.pdf"])
        cover = doc[0].get_textpage().get_text_range()
        assert "card-domino" not in cover
        assert "Regeldatei" not in cover
        assert "rules" not in cover
        assert ("36 Karten" if lang == "de" else "36 cards") in cover


# -- notes: an older description only where there was one ---------------------------------
def _notes(b: Booklet) -> list[str]:
    section = next(s for s in b.sections if s.key == "notes")
    return [t for block in section.blocks for t in _texts(block)]


def test_bundled_seed_file_says_it_comes_from_an_older_description() -> None:
    notes = _notes(_booklet(load_rules("card-domino"), "de", example=False, edition="designer"))
    assert "älteren Beschreibung" in notes[0]


def test_a_designers_own_file_is_not_said_to_come_from_an_older_description(
    tmp_path: Path,
) -> None:
    bundled = load_rules("card-domino")
    assert bundled.path is not None
    own = tmp_path / "my-game.toml"
    shutil.copy(bundled.path, own)
    rules = load_rules_file(own)
    for lang, older in (("de", "älter"), ("en", "older")):
        notes = _notes(_booklet(rules, lang, example=False, edition="designer"))
        assert not any(older in n.split(":")[0] for n in notes), notes[:3]
        assert older not in notes[0]
        assert notes[1].startswith("Entscheidung:" if lang == "de" else "Decision:")


# -- the set's own word --------------------------------------------------------------------
@pytest.mark.parametrize("rules_id", [r for r in BUNDLED if load_rules(r).params.pieces == "tiles"])
def test_a_tile_game_says_tiles_everywhere(rules_id: str) -> None:
    rules = load_rules(rules_id)
    for lang, wrong in (("de", re.compile(r"Karte")), ("en", re.compile(r"\bcards?\b"))):
        for text in _all_text(_booklet(rules, lang)):
            assert not wrong.search(text), (lang, text)


def test_double_twelve_deal_table_and_turns_say_steine() -> None:
    b = _booklet(load_rules("double-twelve"), "de")
    setup = next(s for s in b.sections if s.key == "setup")
    table = next(block for block in setup.blocks if isinstance(block, Table))
    assert "Steine je Spieler" in table.header
    en = _booklet(load_rules("double-twelve"), "en")
    assert en.title.publisher == "91 tiles · double-12"


def test_card_game_says_cards() -> None:
    b = _booklet(load_rules("card-domino"), "de")
    texts = " ".join(_all_text(b))
    assert "Karten je Spieler" in texts
    assert "Stein " not in texts


# -- nothing split across pages, in the real PDF ----------------------------------------------
def _figure_caption_pages(pdf_path: Path) -> list[tuple[str, int, int]]:
    """(alt text, page of the picture, page of its caption) for every tagged figure."""
    pairs: list[tuple[str, int, int]] = []
    with pikepdf.open(pdf_path) as pdf:
        pages = {p.objgen: i for i, p in enumerate(pdf.pages)}

        def kids(e: pikepdf.Dictionary) -> list[pikepdf.Dictionary]:
            k = e.get("/K")
            items = list(k) if isinstance(k, pikepdf.Array) else [k]
            return [x for x in items if isinstance(x, pikepdf.Dictionary)]

        def walk(e: pikepdf.Dictionary) -> None:
            ks = kids(e)
            for a, b in itertools.pairwise(ks):
                if str(a.get("/S")) == "/Figure" and str(b.get("/S")) == "/Caption":
                    alt = str(a.get("/Alt", ""))
                    pairs.append((alt, pages[a.Pg.objgen], pages[b.Pg.objgen]))  # type: ignore[index]
            for x in ks:
                walk(x)

        root = pdf.Root.StructTreeRoot
        assert isinstance(root, pikepdf.Dictionary)
        walk(root)
    return pairs


def _page_texts(pdf_path: Path) -> list[str]:
    doc = pdfium.PdfDocument(pdf_path)
    return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]


def _check_not_split(pdf_path: Path, lang: str) -> None:
    pairs = _figure_caption_pages(pdf_path)
    after = "Nach Spielzug" if lang == "de" else "After turn"
    assert any(alt.startswith(after) for alt, _, _ in pairs), pairs
    split = [(alt, a, b) for alt, a, b in pairs if a != b]
    assert not split, f"figures split from their captions: {split}"
    texts = _page_texts(pdf_path)
    box = (
        ("RECHENBEISPIEL", "Punkte dieser Runde")
        if lang == "de"
        else (
            "WORKED EXAMPLE",
            "So the round scores",
        )
    )
    title = re.compile(re.escape(box[0]) + r"(?!:)")  # not "... : NOBODY GOES OUT"
    on = [
        [i for i, t in enumerate(texts) if (title.search(t) if k == 0 else mark in t)]
        for k, mark in enumerate(box)
    ]
    assert len(on[0]) == 1, f"box title on pages {on[0]}"
    assert on[0][0] in on[1], f"worked example box on pages {on}"  # its sums on its page


@pytest.mark.parametrize("lang", LANGS)
def test_card_domino_box_and_pictures_stay_whole(
    card_domino_booklets: dict[str, Path], lang: str
) -> None:
    _check_not_split(card_domino_booklets[f"booklet-{lang}.pdf"], lang)


@pytest.mark.slow
def test_partnership_worked_example_box_is_not_split(tmp_path: Path) -> None:
    """In the partnership booklet the box used to start on one page and end on the next."""
    from deckgen.booklet.make import make_booklets

    (path,) = make_booklets("partnership", tmp_path, langs=("de",))
    _check_not_split(path, "de")


def test_quick_reference_still_fits_its_one_page(card_domino_booklets: dict[str, Path]) -> None:
    """Set-up, a turn, the end of a round, scoring, the end of the game: one page, the last."""
    for lang, title, last in (
        ("de", "Kurzübersicht", "Spielende"),
        ("en", "Quick reference", "End of the game"),
    ):
        texts = _page_texts(card_domino_booklets[f"booklet-{lang}.pdf"])
        assert [i for i, t in enumerate(texts) if title in t] == [1, len(texts) - 1]
        assert last in texts[-1]
        assert "Page" not in texts[-2] or title not in texts[-2]
