"""Short rules for the imprint card: fit every preset, fail clearly when they cannot."""

from __future__ import annotations

import pytest

from deckgen.booklet.shortrules import short_rules, short_rules_for_deck, short_rules_variants
from deckgen.errors import SpecError
from deckgen.prepress.presets import all_presets
from deckgen.rulespec import list_rules, load_rules


@pytest.mark.parametrize("preset", all_presets(), ids=lambda p: p.name)
@pytest.mark.parametrize("lang", ["de", "en"])
def test_fits_every_preset(preset, lang: str) -> None:  # type: ignore[no-untyped-def]
    for rules in list_rules():
        text = short_rules(
            rules,
            lang,
            card_width_mm=preset.card_width_mm,
            card_height_mm=preset.card_height_mm,
            safe_mm=preset.safe_mm,
        )
        assert text in short_rules_variants(rules, lang)
        assert text.startswith(rules.summary(lang))  # the summary leads


def test_text_comes_from_the_rules_file() -> None:
    rules = load_rules("card-domino")
    changed = rules.with_changes({"turn.draw_limit": 2})
    for lang in ("de", "en"):
        old, new = short_rules_variants(rules, lang), short_rules_variants(changed, lang)
        assert all("3" in t for t in old)
        assert old != new
        assert rules.clause_text("play.draw_limit", lang) in old[0]
        assert changed.clause_text("play.draw_limit", lang) in new[0]


def test_a_bigger_card_gets_fuller_rules() -> None:
    rules = load_rules("card-domino")
    small = short_rules(rules, "en", card_width_mm=44, card_height_mm=67)
    big = short_rules(rules, "en", card_width_mm=70, card_height_mm=120)
    variants = short_rules_variants(rules, "en")
    assert variants.index(big) < variants.index(small)


def test_too_small_fails_clearly() -> None:
    rules = load_rules("card-domino")
    with pytest.raises(SpecError) as err:
        short_rules(rules, "de", card_width_mm=35, card_height_mm=40, imprint_text="Verlag " * 60)
    message = str(err.value)
    assert "minimum readable size 6 pt" in message
    assert "card-domino" in message
    assert "larger card" in message


def test_checked_by_the_deck_itself() -> None:
    from deckgen.booklet.make import demo_deck
    from deckgen.deck.render import render_cards

    rules = load_rules("card-domino")
    deck = demo_deck(rules, "en")
    text = short_rules_for_deck(rules, deck)
    render_cards(deck, ["imprint"], imprint_rules=text, strict_text=True)  # fits
    fuller = short_rules_variants(rules, "en")
    assert fuller.index(text) > 0  # the demo card is too small for the fullest text
    with pytest.raises(SpecError, match="minimum readable size"):
        render_cards(deck, ["imprint"], imprint_rules=fuller[0], strict_text=True)


@pytest.mark.parametrize("ref", ["card-domino", "kartendomino"])
def test_deck_file_names_its_rules(ref: str) -> None:
    from deckgen.booklet.shortrules import imprint_rules_for
    from deckgen.deck.render import render_cards
    from deckgen.deck.spec import deck_from_data
    from deckgen.resources import images_dir
    from deckgen.specfile import load_toml

    path = images_dir() / "demo-deck.toml"
    data = load_toml(path, what="deck file")
    data["imprint"]["rules"] = ref
    data["language"] = "de"
    deck = deck_from_data(data, path=path)
    text = imprint_rules_for(deck)
    rules = load_rules("card-domino")
    assert text in short_rules_variants(rules, "de")
    render_cards(deck, ["imprint"], imprint_rules=text, strict_text=True)


def test_deck_file_free_text_and_unknown_rules() -> None:
    from deckgen.booklet.make import demo_deck
    from deckgen.booklet.shortrules import imprint_rules_for
    from deckgen.errors import InputError

    deck = demo_deck(load_rules("card-domino"), "en")
    assert imprint_rules_for(deck) is not None  # the demo deck names card-domino
    deck = deck.with_imprint_rules("")
    assert imprint_rules_for(deck) is None  # no rules named
    free = deck.with_imprint_rules("Lay matching numbers end to end; first out wins.")
    assert imprint_rules_for(free) is None
    with pytest.raises(InputError, match="card-domino"):
        imprint_rules_for(deck.with_imprint_rules("card-dominoo"))


def test_every_short_rules_level_says_how_points_are_scored() -> None:
    """The end of the game is counted in points, so no selection may drop the scoring."""
    from deckgen.booklet.shortrules import LEVELS
    from deckgen.rulespec import list_rules

    for spec in list_rules():
        scoring = [c for c in spec.clause_ids() if c.startswith("score.")]
        for level in LEVELS[:-1]:
            chosen = [c for c in level if spec.has_clause(c)]
            if "match.end" in chosen:
                assert any(c in chosen for c in scoring), (spec.id, level)
            assert (
                "play.draw_limit" not in chosen
                or "play.draw" in chosen
                or not spec.has_clause("play.draw")
            ), (spec.id, level)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_selection_keeps_how_to_play_a_card(lang: str) -> None:
    for spec in list_rules():
        match = spec.clause_text("play.match", lang)
        for text in short_rules_variants(spec, lang):
            assert match in text, (spec.id, lang, text[:80])


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_shortened_selection_says_what_is_left_out(lang: str) -> None:
    more = {"de": "Ausführlicher im Regelheft:", "en": "More in the rule booklet:"}[lang]
    for spec in list_rules():
        variants = short_rules_variants(spec, lang)
        assert more not in variants[0]
        for text in variants[1:]:
            assert text.rstrip().splitlines()[-1].startswith(more), (spec.id, text[-120:])
    last = short_rules_variants(load_rules("card-domino"), "de")[-1]
    assert last.endswith("Verteilen, Rundenbeginn, Ziehen, Rundenende, Wertung und Spielende.")


def test_german_demo_imprint_keeps_the_matching_rule() -> None:
    from deckgen.booklet.make import demo_deck

    rules = load_rules("card-domino")
    deck = demo_deck(rules, "de")
    text = short_rules_for_deck(rules, deck, lang="de")
    assert rules.clause_text("play.match", "de") in text
    if text != short_rules_variants(rules, "de")[0]:
        assert "Ausführlicher im Regelheft:" in text
