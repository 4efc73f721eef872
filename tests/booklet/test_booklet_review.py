"""A designer's review of the booklets, checked in the real PDF text.

The worked example's turn count against its own turn table, the quick reference's
set-up saying who begins and how many tiles each player gets before a lead clause
that leans on it, ``--lang de,en`` as a comma list, and the step from pips to points
in a worked example of a file that scores in bands.
"""

from __future__ import annotations

import re
from pathlib import Path

import pypdf
import pytest
import typer
from typer.testing import CliRunner

from deckgen.booklet.content import first_sentence
from deckgen.booklet.make import make_booklets
from deckgen.cli.booklet import booklet_langs
from deckgen.errors import InputError
from deckgen.rulespec import list_rules, load_rules
from deckgen.rulespec.text import number_word

BUNDLED = [r.id for r in list_rules()]
LANGS = ("de", "en")
QUICK = {"de": "Kurzübersicht", "en": "Quick reference"}
SETUP = {"de": ("Vorbereitung", "Ein Spielzug"), "en": ("Setting up", "A turn")}


def _flat(text: str) -> str:
    """PDF text as one line: hyphenated words joined, runs of spaces made one."""
    text = text.replace("\u2010\n", "").replace("\u00ad\n", "").replace("-\n", "-")
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture(scope="module")
def texts(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], str]:
    """The player's booklet (A5) of every bundled rules file, each page's text."""
    out: dict[tuple[str, str], str] = {}
    base = tmp_path_factory.mktemp("review")
    for rules_id in BUNDLED:
        for path in make_booklets(rules_id, base / rules_id, langs=LANGS):
            lang = path.stem.split("-")[1]
            pages = [p.extract_text() for p in pypdf.PdfReader(path).pages]
            out[(rules_id, lang)] = "\n".join(pages)
    return out


# -- 1. the worked example's turn count is the turn table's last row ----------------------
SENTENCE = {
    "de": re.compile(r"In der Beispielrunde.*?nach (\d+) Spielzügen"),
    "en": re.compile(r"In the example round,.*?after (\d+) turns"),
}
ROW = {
    "de": re.compile(r"^(\d+) Spieler \d+ ", re.M),
    "en": re.compile(r"^(\d+) Player \d+ ", re.M),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("rules_id", BUNDLED)
def test_worked_example_turns_are_the_tables_last_row(
    texts: dict[tuple[str, str], str], rules_id: str, lang: str
) -> None:
    text = texts[(rules_id, lang)]
    said = SENTENCE[lang].search(_flat(text))
    assert said is not None, "no worked example sentence with its turn count"
    rows = [int(m.group(1)) for m in ROW[lang].finditer(text)]
    assert rows, "no turn table"
    assert rows == sorted(rows), rows
    assert int(said.group(1)) == rows[-1], (said.group(0), rows[-1])


def test_lead_by_a_player_is_not_counted_as_a_turn() -> None:
    """draw-classic: the starter leads a tile (the engine counts it, the table does not)."""
    from deckgen.booklet.play import example_round

    ex = example_round(load_rules("draw-classic"))
    assert ex is not None
    assert ex.table_turns == ex.steps[-1].turn == ex.turns - 1


# -- 2. the quick reference says who begins and the hand sizes -----------------------------
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("rules_id", BUNDLED)
def test_quick_reference_setup_says_who_begins_and_hand_sizes(
    texts: dict[tuple[str, str], str], rules_id: str, lang: str
) -> None:
    rules = load_rules(rules_id)
    text = _flat(texts[(rules_id, lang)])
    quick = text[text.rindex(QUICK[lang]) :]
    start, stop = SETUP[lang]
    setup = quick[quick.index(start) : quick.index(stop)]
    begins = _flat(first_sentence(rules.clause_text("start.first", lang)))
    assert begins in setup, (begins, setup)
    for row in rules.deal_table():
        words = (str(row.hand_size), number_word(row.hand_size, lang))
        assert any(re.search(rf"\b{w}\b", setup) for w in words), (row.hand_size, setup)
    for cid in ("lead.any", "lead.double", "lead.turned_up", "lead.station"):
        if rules.has_clause(cid):  # the clause that leans on who begins comes after it
            lead = _flat(first_sentence(rules.clause_text(cid, lang)))
            assert setup.index(begins) < setup.index(lead), cid


def test_draw_classic_quick_reference_before_that_double() -> None:
    from deckgen.booklet.content import Extras, build_booklet
    from deckgen.booklet.html import page_format

    for fmt in ("a5", "a6"):
        quick = build_booklet(load_rules("draw-classic"), "en", page_format(fmt), Extras()).quickref
        assert quick is not None
        assert quick.hands == "Tiles each: 7 with 2, 6 with 3 or 4 players."
        heading, lines = quick.groups[0]
        assert heading == "Setting up"
        begins = next(i for i, line in enumerate(lines) if "highest double begins" in line)
        double = next(i for i, line in enumerate(lines) if "need not play that double" in line)
        assert begins < double


# -- 3. --lang takes a comma list -----------------------------------------------------------
def test_booklet_langs() -> None:
    assert booklet_langs(["de,en"]) == ["de", "en"]
    assert booklet_langs(["en", "de"]) == ["en", "de"]
    assert booklet_langs(["en, de", "de"]) == ["en", "de"]
    assert booklet_langs(None) == ["de", "en"]
    for bad in (["de,fr"], [","], [""]):
        with pytest.raises(InputError):
            booklet_langs(bad)


@pytest.fixture
def app() -> typer.Typer:
    from deckgen.cli import app as deckgen_app

    return deckgen_app


@pytest.mark.parametrize("langs", [["--lang", "de,en"], ["--lang", "en", "--lang", "de"]])
def test_cli_lang_comma_list_or_repeated(
    app: typer.Typer, tmp_path: Path, langs: list[str]
) -> None:
    result = CliRunner().invoke(
        app, ["rules", "booklet", "two-player", *langs, "--out", str(tmp_path), "--json", "-q"]
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.glob("booklet-*.pdf")) == [
        "booklet-de.pdf",
        "booklet-en.pdf",
    ]


@pytest.mark.parametrize("value", ["de,fr", ","])
def test_cli_lang_comma_list_refused(app: typer.Typer, tmp_path: Path, value: str) -> None:
    result = CliRunner().invoke(
        app, ["rules", "booklet", "two-player", "--lang", value, "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ")
    assert "--lang" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "o").exists()


# -- 4. the step from pips to points when the rules score in bands -------------------------
BAND_STEP = {
    "de": re.compile(r"(\d+(?: \+ \d+)*) = (\d+) Augen: (\d+) Punkte?\b"),
    "en": re.compile(r"(\d+(?: \+ \d+)*) = (\d+) pips: (\d+) points?\b"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_partnership_worked_example_shows_pips_and_band(
    texts: dict[tuple[str, str], str], lang: str
) -> None:
    rules = load_rules("partnership")
    bands = rules.params.scoring.bands
    assert bands is not None
    text = _flat(texts[("partnership", lang)])
    steps = list(BAND_STEP[lang].finditer(text))
    assert steps, "no step from pips to points"
    for m in steps:
        terms = [int(t) for t in m.group(1).split(" + ")]
        assert sum(terms) == int(m.group(2))
        assert int(m.group(3)) == int(m.group(2)) // bands + 1
