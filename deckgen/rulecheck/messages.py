"""The rules check's sentences, English and German side by side: one template per kind.

Takes a message key and its figures (a *said* item: ``{"key": ..., "args": {...}}``);
gives the sentence in a language (:func:`say`). Every finding the check makes carries
its item as ``text`` beside its English ``message``, which is built here too, so a
finding's wording lives in one place for both languages: the report's ``message``
(English) and the designer's booklet (German, :mod:`deckgen.booklet.designer`) are the
same template filled from the same figures.

Templates are :meth:`str.format` strings. An argument may itself be a said item (a
part of a sentence that has its own words, such as where a text is or a seat), or a
list of values or items (joined by ``, ``; the format spec ``semi`` joins with ``; ``,
``or`` with `` or ``/`` oder ``). The spec ``cap`` capitalises the first letter. In
German, numbers take the decimal comma and the point between thousands
(``1.234,5``), ``e-05`` becomes ``·10⁻⁵``, and ``p = 0,01`` keeps together (no-break
spaces).

A key without a German template (a future kind) falls back to English; a finding
without ``text`` (a report written before it existed) to its ``message``.

>>> say({"key": "blocked", "args": {"n": 2, "pct": 26.47, "pct_limit": 25.0}}, "de")
'Mit 2 Spielern enden 26,5\\u202f% der Runden blockiert (Grenze 25\\u202f%).'
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

PCT = "\u202f%"
"""A German percent sign: after a narrow no-break space."""


@dataclass(frozen=True)
class Template:
    """One sentence (or part of one) in English and German."""

    en: str
    de: str | None = None


def said(key: str, /, **args: Any) -> dict[str, Any]:
    """A said item: the key of a template and the figures it names (JSON-ready)."""
    return {"key": key, "args": args}


# ---------------------------------------------------------------- the findings
_FINDINGS: dict[str, Template] = {
    "draw_heavy": Template(
        "{n} players: a round draws {draws:.1f} tiles on average, {ratio:.1f} times the "
        "{dealt} tiles dealt (limit {limit:g} times)",
        "Mit {n} Spielern werden je Runde im Mittel {draws:.1f} Steine gezogen, das "
        "{ratio:.1f}-Fache der {dealt} ausgeteilten Steine (Grenze: das {limit:g}-Fache).",
    ),
    "stock_drained": Template(
        "{n} players: {pct:.1f} % of rounds draw the whole stock of {drawable} tiles "
        "({k:,} of {of:,}; limit {pct_limit:g} %)",
        "Mit {n} Spielern wird in {pct:.1f}\u202f% der Runden der ganze Vorrat von "
        "{drawable} Steinen leer gezogen ({k:,} von {of:,}; Grenze {pct_limit:g}\u202f%).",
    ),
    "playing_time": Template(
        "{n} players: a match takes about {minutes:.0f} minutes, more than {tol:g} times "
        "the {promise:g} minutes the file promises",
        "Mit {n} Spielern dauert eine Partie etwa {minutes:.0f} Minuten, mehr als das "
        "{tol:g}-Fache der {promise:g} Minuten, die die Regeldatei verspricht.",
    ),
    "match_time": Template(
        "{n} players: a match takes about {minutes:,.0f} minutes ({hours:.1f} hours) at "
        "{pace}; a table game should end within {max_hours:g} hours: lower the target or "
        "the number of rounds",
        "Mit {n} Spielern dauert eine Partie {pace} etwa {minutes:,.0f} Minuten "
        "({hours:.1f} Stunden). Ein Tischspiel sollte nach {max_hours:g} Stunden zu Ende "
        "sein: Zielpunktzahl oder Zahl der Runden senken.",
    ),
    "pace.turns": Template("{turns:.0f} turns a round", "bei {turns:.0f} Spielzügen je Runde"),
    "pace.assumed": Template("the assumed pace", "beim angenommenen Tempo"),
    "no_winner": Template(
        "{n} players: {pct:.1f} % of rounds end with nobody going out (limit "
        "{pct_limit:g} %): players will notice that rounds often peter out",
        "Mit {n} Spielern enden {pct:.1f}\u202f% der Runden, ohne dass jemand "
        "auslegt (Grenze {pct_limit:g}\u202f%). Die Spieler werden merken, dass "
        "Runden oft im Sande verlaufen.",
    ),
    "blocked": Template(
        "{n} players: {pct:.1f} % of rounds end blocked (limit {pct_limit:g} %)",
        "Mit {n} Spielern enden {pct:.1f}\u202f% der Runden blockiert (Grenze "
        "{pct_limit:g}\u202f%).",
    ),
    "ties": Template(
        "{n} players: {pct:.1f} % of rounds end in a tie for the lowest hand (limit "
        "{pct_limit:g} %)",
        "Mit {n} Spielern enden {pct:.1f}\u202f% der Runden mit Gleichstand um die "
        "niedrigste Augensumme auf der Hand (Grenze {pct_limit:g}\u202f%).",
    ),
    "first_player": Template(
        "{n} players: the starting player wins {pct:.1f} % of the rounds won, "
        "{excess:.1f} points above the fair {fair:.1f} % (limit {pct_limit:g}; p = {p:.2g})",
        "Mit {n} Spielern gewinnt der Startspieler {pct:.1f}\u202f% der gewonnenen "
        "Runden, {excess:.1f} Prozentpunkte mehr als der gerechte Anteil von "
        "{fair:.1f}\u202f% (Grenze {pct_limit:g} Prozentpunkte; p = {p:.2g}).",
    ),
    "seat_match.excess": Template(
        "{n} players: {side} wins {pct:.1f} % of the matches, {excess:.1f} points above "
        "the fair {fair:.1f} % ({why})",
        "Mit {n} Spielern gewinnt {side} {pct:.1f}\u202f% der Partien, {excess:.1f} "
        "Prozentpunkte mehr als der gerechte Anteil von {fair:.1f}\u202f% ({why}).",
    ),
    "why.test": Template(
        "p = {p:.2g}, chi-square test of equal chances over {won:,} matches",
        "p = {p:.2g}, Chi-Quadrat-Test auf gleiche Chancen über {won:,} Partien",
    ),
    "why.rotation": Template(
        "p = {p:.2g}, chi-square test of equal chances over {won:,} matches; {sides} start "
        "{rotation} rounds of a match",
        "p = {p:.2g}, Chi-Quadrat-Test auf gleiche Chancen über {won:,} Partien; "
        "die {sides} eröffnen der Reihe nach {rotation} Runden einer Partie",
    ),
    "seat_match.rotation": Template(
        "{n} players: {side} starts {starts} of the {total} rounds of a match ({sides}: "
        "{rotation}), and the starting player wins {pct:.1f} % of rounds against a fair "
        "{fair:.1f} % (p = {p_round:.2g}): so {side} can expect an advantage per match. "
        "Measured so far: {measured:.1f} % of {won:,} matches against a fair "
        "{fair_match:.1f} % (chi-square test of equal chances: p = {p_match:.2g}; a small "
        "edge needs many matches to show)",
        "Mit {n} Spielern eröffnet {side} von den {total} Runden einer Partie {starts} "
        "({sides} der Reihe nach: {rotation}), und der Startspieler gewinnt {pct:.1f}\u202f% der "
        "Runden statt gerechter {fair:.1f}\u202f% (p = {p_round:.2g}). {side} darf "
        "also je Partie einen Vorteil erwarten. Bisher gemessen: {measured:.1f}\u202f% von "
        "{won:,} Partien statt gerechter {fair_match:.1f}\u202f% (Chi-Quadrat-Test "
        "auf gleiche Chancen: p = {p_match:.2g}; ein kleiner Vorteil zeigt sich erst nach "
        "vielen Partien).",
    ),
    "side.seat": Template("seat {number}", "Spieler {number}"),
    "side.team": Template("team {number}", "Paar {number}"),
    "sides.seat": Template("seats", "Spieler"),
    "sides.team": Template("teams", "Paare"),
    "dead_clause.players": Template(
        "{n} players: the rule {clause} can never decide anything: {proof}",
        "Mit {n} Spielern kann die Regel {clause} nie etwas entscheiden: {proof:cap}",
    ),
    "dead_clause.unused": Template(
        "the rule {clause} ({what}) can never decide anything: the parameters do not use "
        "it (the file states it anyway): remove the clause or change the parameters it "
        "describes",
        "Die Regel {clause} kann nie etwas entscheiden: Die Parameter nutzen sie nicht, "
        "die Regeldatei nennt sie trotzdem. Den Regelsatz streichen oder die Parameter "
        "ändern, die er beschreibt.",
    ),
    "dead_clause.all": Template(
        "the rule {clause} can never decide anything with {counts}: {proof}",
        "Die Regel {clause} kann {counts} etwas entscheiden: {proof:cap}",
    ),
    "counts.any": Template("any player count", "mit keiner Spielerzahl"),
    "counts.one": Template("{n} players", "mit {n} Spielern nie"),
    "dead_clause.value": Template(
        "the special value of {a}/{b} is {value}, the same as its pips: the rule changes "
        "nothing (score.values); give it another value or remove it",
        "Der Sonderwert von {a}/{b} ist {value}, so viel wie seine Augen: Die Regel "
        "ändert nichts (score.values). Einen anderen Wert geben oder ihn streichen.",
    ),
    "dead_clause.bands": Template(
        "bands of {bands} pips are wider than all pips of the set together ({most}): every "
        "round scores 1 point (score.bands)",
        "Stufen von {bands} Augen sind breiter als alle Augen des Satzes zusammen "
        "({most}): Jede Runde zählt 1 Punkt (score.bands).",
    ),
    "dead_clause.penalty_never": Template(
        "with minus points no total ever rises (each side loses its own pips and going "
        "out earns no bonus), so no match reaches {target} points: every match runs into "
        "the round limit (match.target, scoring.method = penalty); play a fixed number of "
        "rounds (match.end = rounds) or score the winner (scoring.method = winner_takes)",
        "Bei Minuspunkten steigt kein Punktestand (jede Seite verliert ihre eigenen Augen, "
        "und Ausmachen bringt keinen Bonus), also erreicht keine Partie {target} Punkte: "
        "Jede läuft bis zur Rundengrenze (match.target, scoring.method = penalty). Eine "
        "feste Zahl von Runden spielen (match.end = rounds) oder den Sieger punkten "
        "lassen (scoring.method = winner_takes).",
    ),
    "dead_clause.penalty_target": Template(
        "with minus points a total rises only by the bonus for going out ({bonus} a "
        "round) and falls by the side's own pips, so {target} points take at least "
        "{rounds} rounds in which the same side goes out, and a match may never get there "
        "(match.target, scoring.method = penalty); play a fixed number of rounds "
        "(match.end = rounds), lower the target or score the winner "
        "(scoring.method = winner_takes)",
        "Bei Minuspunkten steigt ein Punktestand nur um den Bonus fürs Ausmachen ({bonus} "
        "je Runde) und sinkt um die eigenen Augen: {target} Punkte brauchen mindestens "
        "{rounds} Runden, in denen dieselbe Seite ausmacht, und eine Partie kommt "
        "vielleicht nie dahin (match.target, scoring.method = penalty). Eine feste Zahl "
        "von Runden spielen (match.end = rounds), das Ziel senken oder den Sieger punkten "
        "lassen (scoring.method = winner_takes).",
    ),
    "rare_clause": Template(
        "{n} players: rules that almost never decide anything (below {pct_limit:g} %): {rare}",
        "Mit {n} Spielern entscheiden diese Regeln fast nie etwas "
        "(unter {pct_limit:g}\u202f%): {rare}.",
    ),
    "rare.never": Template("{clause} (never in {of:,} {per})", "{clause} (in {of:,} {per} nie)"),
    "rare.share": Template(
        "{clause} ({pct:.3g} % of {per})", "{clause} ({pct:.3g}\u202f% der {per})"
    ),
    "per.round": Template("rounds", "Runden"),
    "per.match": Template("matches", "Partien"),
    "clause_params.written_for": Template(
        "clause {clause} was written for {key} = {want}, but the file has {key} = {have}: "
        "rewrite the clause or its written_for",
        "Regelsatz {clause} wurde für {key} = {want} geschrieben, die Regeldatei hat "
        "aber {key} = {have}: den Regelsatz oder sein written_for neu schreiben.",
    ),
    "clause_params.words": Template(
        "clause {clause} says {quote}, which describes {key} = {values:or}, but the file "
        "has {key} = {have}: rewrite the clause for {have} or change {key}",
        "Regelsatz {clause} sagt {quote}, und das beschreibt {key} = {values:or}; die "
        "Regeldatei hat aber {key} = {have}: den Regelsatz für {have} neu schreiben oder "
        "{key} ändern.",
    ),
    "clause_params.summary_words": Template(
        "the summary says {quote}, which describes {key} = {values:or}, but the file has "
        "{key} = {have}: rewrite the summary for {have} or change {key}",
        "Die Kurzbeschreibung sagt {quote}, und das beschreibt {key} = {values:or}; die "
        "Regeldatei hat aber {key} = {have}: die Kurzbeschreibung für {have} neu "
        "schreiben oder {key} ändern.",
    ),
    "quote.lang": Template("'{word}' ({lang})", "{lang} „{word}“"),
    "clause_params.number": Template(
        "clause {clause} names {numbers} but the file has {key} = {have}: write "
        "{{{name}}} in the text instead of the number",
        "Regelsatz {clause} nennt {numbers}, die Regeldatei hat aber {key} = {have}: "
        "statt der Zahl {{{name}}} in den Text schreiben.",
    ),
    # texts against parameters (textcheck)
    "text_set": Template(
        "{where} ({lang}) names a double-{said_top} set, but the file plays {set}: write "
        "{{set}} instead",
        "{where:cap} nennt {lang} einen Doppel-{said_top}-Satz, gespielt wird aber mit "
        "einem Doppel-{top}-Satz: stattdessen {{set}} schreiben.",
    ),
    "text_tile.range": Template(
        "{where} ({lang}) names {tiles}, which a {set} set does not have (its highest tile "
        "is {top}/{top})",
        "{where:cap} nennt {lang} {tiles}, die es in einem Doppel-{top}-Satz nicht gibt "
        "(sein höchster Stein ist {top}/{top}).",
    ),
    "text_tile.double": Template(
        "{where} ({lang}) names {d}/{d} as the starting double, but the file has "
        "opening.required_double = {v}",
        "{where:cap} nennt {lang} {d}/{d} als den Pasch, mit dem das Spiel beginnt, die "
        "Regeldatei hat aber opening.required_double = {v}.",
    ),
    "text_tile.value": Template(
        "{where} ({lang}) gives {a}/{b} a special value, but scoring.tile_values does not list it",
        "{where:cap} gibt {lang} {a}/{b} einen Sonderwert, den scoring.tile_values nicht aufführt.",
    ),
    "text_number.role": Template(
        "{where} ({lang}) says '{word}' where it states {key} = {want}: write the "
        "placeholder instead of the number, or change the parameter",
        "{where:cap} sagt {lang} „{word}“ an der Stelle, die {key} = {want} nennt: "
        "statt der Zahl den Platzhalter schreiben oder den Parameter ändern.",
    ),
    "text_number.bands": Template(
        "{where} ({lang}) speaks of bands of {said_bands}, but the file has scoring.bands "
        "= {bands}: write {{bands}} or change the parameter",
        "{where:cap} spricht {lang} von Stufen zu {said_bands}, die Regeldatei hat aber "
        "scoring.bands = {bands}: {{bands}} schreiben oder den Parameter ändern.",
    ),
    "text_number.param": Template(
        "{where} ({lang}) says {quote} but the file has {name}: write the placeholder "
        "instead of the number, or change the parameter",
        "{where:cap} sagt {lang} {quote}, die Regeldatei hat aber {name}: statt der Zahl "
        "den Platzhalter schreiben oder den Parameter ändern.",
    ),
    "text_number.none": Template(
        "{where} ({lang}) says {quote}, a number of {kind} that no parameter of the file "
        "gives ({explain}): check the text against the parameters",
        "{where:cap} sagt {lang} {quote}, eine Zahl, die kein Parameter der Regeldatei "
        "ergibt ({explain}): den Text mit den Parametern abgleichen.",
    ),
    "quote.word": Template("'{word}'", "„{word}“"),
    "quote.kind": Template("'{phrase}'", "„{phrase}“"),
    "param.value": Template("{key} = {value}", "{key} = {value}"),
    "param.chicken_foot": Template("{arms} arms and {toes} toes", "{arms} Arme und {toes} Zehen"),
    "explain.tiles": Template(
        "hands of {sizes}, draw limit {limit}", "Hände mit {sizes} Steinen, Ziehgrenze {limit}"
    ),
    "none": Template("None", "keine"),
    "explain.param": Template("{key} = {value}", "{key} = {value}"),
    "explain.points": Template(
        "tile values, bonus, target, bands and multiples",
        "Steinwerte, Bonus, Zielpunktzahl, Stufen und Vielfache",
    ),
    "text_languages.tiles": Template(
        "{where}: German and English name different tiles (only in one of them: "
        "{tiles}): make both say the same",
        "{where:cap}: Deutsch und Englisch nennen verschiedene Steine (nur in einem von "
        "beiden: {tiles}). Beide sollen dasselbe sagen.",
    ),
    "text_languages.kind": Template(
        "{where}: the English says {en_values} {kind}, the German {de_values}: make both "
        "say the same",
        "{where:cap}: Der englische Text nennt {en_values} {kind}, der deutsche "
        "{de_values}. Beide sollen dasselbe sagen.",
    ),
    "text_languages.numbers": Template(
        "{where}: the English names the numbers {en_values}, the German {de_values}: make "
        "both say the same",
        "{where:cap}: Der englische Text nennt die Zahlen {en_values}, der deutsche "
        "{de_values}. Beide sollen dasselbe sagen.",
    ),
    "text_untranslated.english": Template(
        "{where}: the German text is English ('{start}...'): translate it",
        "{where:cap}: Der deutsche Text ist englisch („{start} …“): übersetzen.",
    ),
    "text_untranslated.short": Template(
        "{where}: the German text is much shorter than the English (a sentence is "
        "missing?): translate all of it",
        "{where:cap}: Der deutsche Text ist viel kürzer als der englische (fehlt ein "
        "Satz?): alles übersetzen.",
    ),
    "where.summary": Template("the summary", "die Kurzbeschreibung"),
    "where.clause": Template("clause {id}", "Regelsatz {id}"),
    "where.note": Template("note {id}", "Anmerkung {id}"),
    "where.reason": Template("note {id} (reason)", "die Begründung der Anmerkung {id}"),
    "lang.en": Template("en", "im englischen Text"),
    "lang.de": Template("de", "im deutschen Text"),
}

KINDS: dict[str, Template] = {
    "tiles": Template("tiles", "Steine"),
    "doubles": Template("doubles", "Pasche"),
    "points": Template("points", "Punkte"),
    "rounds": Template("rounds", "Runden"),
    "times": Template("times", "Male"),
    "arms": Template("arms", "Arme"),
    "players": Template("players", "Spieler"),
    "minutes": Template("minutes", "Minuten"),
}
"""What a number in a text counts (:data:`deckgen.rulecheck.textcheck.KINDS`)."""

# ---------------------------------------------------------------- proofs (reachability)
_PROOFS: dict[str, Template] = {
    "proof.blocked_reserve": Template(
        "a player who cannot play draws while more than the reserve of {reserve} tiles is "
        "left, so no turn passes without drawing until the stock is down to the reserve; "
        "and then the first player who cannot play ends the round (end.reserve). So nobody "
        "is ever blocked while the round goes on.",
        "wer nicht legen kann, zieht, solange mehr als die {reserve} Steine der Reserve "
        "übrig sind. Bis dahin vergeht also kein Spielzug ohne Ziehen, und danach beendet "
        "der Erste, der nicht legen kann, die Runde (end.reserve). Blockiert ist also nie "
        "jemand, solange die Runde läuft.",
    ),
    "proof.no_reserve": Template(
        "the file keeps no reserve in a stock that is drawn from",
        "die Regeldatei hält im Vorrat, aus dem gezogen wird, keine Reserve zurück.",
    ),
    "proof.no_stock": Template(
        "no tile is left to draw: every tile is dealt or stays out of play",
        "es bleibt kein Stein zum Ziehen, denn jeder Stein wird ausgeteilt oder bleibt aus "
        "dem Spiel.",
    ),
    "proof.draw_limit": Template(
        "the draw limit of {limit} is never reached: at most {most} tiles can be drawn in a "
        "whole round",
        "die Ziehgrenze von {limit} wird nie erreicht, denn in einer ganzen Runde lassen sich "
        "höchstens {most} Steine ziehen.",
    ),
    "proof.opening": Template(
        "by the exact odds of the deal, {what} cannot happen (p = 0)",
        "nach den genauen Wahrscheinlichkeiten des Gebens kann die Lage {situation} nicht "
        "eintreten (p = 0).",
    ),
    "proof.redeal": Template(
        "a hand of {hand} tiles cannot hold {doubles} doubles",
        "eine Hand von {hand} Steinen kann keine {doubles} Pasche enthalten.",
    ),
    "proof.penalty": Template(
        "penalty scoring has no lowest hand to tie for",
        "bei Minuspunkten gibt es keine niedrigste Hand, um die ein Gleichstand entstehen könnte.",
    ),
}

# ---------------------------------------------------------------- readings
_READINGS: dict[str, Template] = {
    "ambiguous_clause": Template(
        "clause {clause} can be read two ways: (1) {other}; (2) {played}; the engine plays "
        "(2); the other reading changes {changes}, over {rounds:,} rounds of {n} random "
        "players on the same deals: say in the text which one the game has (a sentence in "
        "the clause, or a note whose clauses name {clause})",
        "Regelsatz {clause} lässt sich auf zwei Arten lesen: (1) {other}; (2) {played}. "
        "Die Prüfung spielt (2). Die andere Lesart ändert {changes}, gemessen in {rounds:,} "
        "Runden mit {n} zufällig spielenden Computerspielern und denselben ausgeteilten "
        "Steinen. Im Text sagen, welche Lesart gilt: mit einem Satz im Regelsatz oder "
        "einer Anmerkung, die {clause} nennt.",
    ),
    "changes.plain": Template("{changes:semi}", "{changes:semi}"),
    "changes.kept": Template(
        "{changes:semi} (the averages stay within chance: {kept})",
        "{changes:semi} (die Mittelwerte bleiben im Rahmen des Zufalls: {kept})",
    ),
    "change.figure": Template(
        "{figure} from {played} to {other} ({p})", "{figure} von {played} auf {other} ({p})"
    ),
    "change.result": Template(
        "the result of {pct:.1f} % of rounds", "das Ergebnis von {pct:.1f}\u202f% der Runden"
    ),
    "kept.figure": Template("{figure} {played} against {other}", "{figure} {played} gegen {other}"),
    "value.pct": Template("{v:.1f} %", "{v:.1f}\u202f%"),
    "value.num": Template("{v:.1f}", "{v:.1f}"),
    "p.tiny": Template("p < 1e-6", "p < 10⁻⁶"),
    "p.value": Template("p = {p:.2g}", "p = {p:.2g}"),
    "figure.blocked": Template(
        "the share of rounds ending blocked", "die Quote der blockiert endenden Runden"
    ),
    "figure.out": Template(
        "the share of rounds ending with a player out",
        "die Quote der durch Auslegen beendeten Runden",
    ),
    "figure.draws": Template("the tiles drawn per round", "die gezogenen Steine je Runde"),
    "figure.passes": Template("the passes per round", "das Aussetzen je Runde"),
    "figure.points": Template(
        "the points written down per round", "die aufgeschriebenen Punkte je Runde"
    ),
    "reading.blocked-after-passes.played": Template(
        "the round ends only when nobody can play, so a player may still play on a train "
        "that a pass has just opened",
        "die Runde endet erst, wenn niemand mehr legen kann; wer an der Reihe ist, darf "
        "also noch an einen Zug legen, den ein Aussetzen eben geöffnet hat",
    ),
    "reading.blocked-after-passes.other": Template(
        "the round ends after a full circle of passes with nothing left to draw, even when "
        "a pass has opened a train that someone could now play on",
        "die Runde endet, wenn reihum alle aussetzen und nichts mehr zu ziehen ist, auch "
        "wenn ein Aussetzen einen Zug geöffnet hat, an den jetzt jemand legen könnte",
    ),
    "reading.draw-per-tile.played": Template(
        "the limit counts the draws for each tile to lay, so a player who must cover the "
        "double they have just laid may draw again, even if they drew that double",
        "die Grenze zählt das Ziehen für jeden Stein, der gelegt werden soll; wer den "
        "eben gelegten Pasch bedienen muss, darf also wieder ziehen, auch wenn er den "
        "Pasch selbst gezogen hat",
    ),
    "reading.draw-per-tile.other": Template(
        "the limit counts the whole turn, so a player who drew the double they laid may "
        "not draw again to cover it",
        "die Grenze gilt für den ganzen Spielzug; wer den gelegten Pasch gezogen hat, "
        "darf also nicht noch einmal ziehen, um ihn zu bedienen",
    ),
    "reading.reserve-after-own-draws.played": Template(
        "the round ends at once when the player to move cannot lay a tile with only the "
        "reserve left, even when that player's own draws have just brought the stock down "
        "to it",
        "die Runde endet sofort, wenn nur noch die Reserve übrig ist und wer an der Reihe "
        "ist, nicht legen kann, auch wenn er den Vorrat eben selbst so weit leer gezogen "
        "hat",
    ),
    "reading.reserve-after-own-draws.other": Template(
        "a player whose own draws bring the stock down to the reserve without a tile that "
        "fits passes, and the round ends only when the next player cannot lay one",
        "wer den Vorrat selbst bis auf die Reserve leer zieht, ohne einen passenden Stein "
        "zu finden, setzt aus, und die Runde endet erst, wenn der Nächste nicht legen kann",
    ),
}

# ---------------------------------------------------------------- confirmed with skilled bots
_SKILLED: dict[str, Template] = {
    "skilled.holds": Template(
        " (it holds with {bots} players in every seat too: {value})",
        " (Das gilt auch, wenn auf jedem Platz ein Computerspieler der Stufe „{bots}“ "
        "sitzt: {value}.)",
    ),
    "skilled.random": Template(
        " (with random bots only{shown})", " (Nur mit zufällig spielenden Computerspielern{shown}.)"
    ),
    "skilled.shown": Template(
        ": with {bots} players it is {value}",
        "; mit Computerspielern der Stufe „{bots}“: {value}",
    ),
    "skilled.close": Template(
        " (with {bots} players in every seat it is {value}, about the limit: {rounds:,} "
        "rounds cannot tell whether skilled play stays over it)",
        " (Mit Computerspielern der Stufe „{bots}“ auf jedem Platz: {value}, etwa an der "
        "Grenze; {rounds:,} Runden zeigen nicht, ob geübtes Spiel darüber bleibt.)",
    ),
    "skilled.minutes": Template("{v:.0f} minutes", "{v:.0f} Minuten"),
    "skilled.minutes_in": Template(
        "{v:.0f} minutes [95 % interval {lo:.0f} to {hi:.0f}]",
        "{v:.0f} Minuten [95-%-Intervall {lo:.0f} bis {hi:.0f}]",
    ),
    "skilled.times": Template(
        "{v:.1f} times the tiles dealt", "das {v:.1f}-Fache der ausgeteilten Steine"
    ),
    "skilled.times_in": Template(
        "{v:.1f} times the tiles dealt [95 % interval {lo:.1f} to {hi:.1f}]",
        "das {v:.1f}-Fache der ausgeteilten Steine [95-%-Intervall {lo:.1f} bis {hi:.1f}]",
    ),
    "skilled.starter": Template(
        "the starting player wins {v:+.1f} points over a fair share of rounds",
        "der Startspieler gewinnt {v:+.1f} Prozentpunkte mehr Runden als gerecht",
    ),
    "skilled.pct": Template("{v:.1f} %", "{v:.1f}\u202f%"),
    "skilled.pct_in": Template(
        "{v:.1f} % [95 % interval {lo:.1f} to {hi:.1f} %]",
        "{v:.1f}\u202f% [95-%-Intervall {lo:.1f} bis {hi:.1f}\u202f%]",
    ),
}

# ---------------------------------------------------------------- the verdict's reasons
_REASONS: dict[str, Template] = {
    "reason.deal": Template(
        "{n} players: the deal does not fit the set",
        "Mit {n} Spielern reicht der Satz nicht zum Geben.",
    ),
    "reason.violation": Template(
        "{n} players, match with seed {seed}: {kind} ({message}); play it again with `{reproduce}`",
        "Mit {n} Spielern, Partie mit Seed {seed}: {kind:cap} (Meldung der Engine: "
        "{message}); nachspielen mit `{reproduce}`.",
    ),
    "failure.invariant": Template(
        "the engine broke one of its own checks",
        "die Spiel-Engine hat eine ihrer eigenen Prüfungen verletzt",
    ),
    "failure.exception": Template(
        "the engine stopped with an error",
        "die Spiel-Engine ist mit einem Fehler abgebrochen",
    ),
    "reason.termination": Template(
        "{n} players: play did not end within its bounds (longest round {turns} turns, "
        "longest match {rounds} rounds)",
        "Mit {n} Spielern endete das Spiel nicht in seinen Grenzen (längste Runde {turns} "
        "Spielzüge, längste Partie {rounds} Runden).",
    ),
    "reason.round_limit": Template(
        "{n} players: {matches} of {of} matches did not end within {limit} rounds ({situation})",
        "Mit {n} Spielern endeten {matches} von {of} Partien nicht innerhalb von {limit} "
        "Runden ({situation}).",
    ),
    "reason.gap": Template(
        "{n} players: {situation} ({events}x): {description}",
        "Mit {n} Spielern trat die Lage {situation} {events}-mal ein: {what}",
    ),
    "reason.opening": Template(
        "{n} players: {situation} can happen (p = {p:.3g}) and the file does not say what "
        "happens then",
        "Mit {n} Spielern kann die Lage {situation} eintreten (p = {p:.3g}), und die "
        "Regeldatei sagt nicht, was dann gilt.",
    ),
    "gap.score.tie": Template(
        "two or more hands tie for the lowest count",
        "Zwei oder mehr Hände haben gleich wenige Augen, und die Regeldatei regelt den "
        "Gleichstand nicht; die Prüfung wertet die Runde für niemanden.",
    ),
    "gap.match.tie": Template(
        "the match ends with equal best totals",
        "Die Partie endet mit gleichen besten Summen, und die Regeldatei regelt den "
        "Gleichstand nicht; die Prüfung lässt sich die Besten den Sieg teilen.",
    ),
    "gap.match.several_at_target": Template(
        "several sides reach the target score in the same round",
        "Mehrere erreichen in derselben Runde die Zielpunktzahl, und die Regeldatei sagt "
        "nicht, wer gewinnt; die Prüfung lässt die höchste Summe gewinnen.",
    ),
    "gap.start.no_double": Template(
        "nobody holds the double the starter rule asks for",
        "Niemand hat den Pasch, den die Regel für den Start verlangt, und die Regeldatei "
        "nennt keinen Ausweg; die Prüfung lässt den mit dem schwersten Stein beginnen.",
    ),
    "gap.start.later": Template(
        "a later round starts",
        "Eine spätere Runde beginnt, und die Regeldatei sagt nicht, wer sie eröffnet; die "
        "Prüfung wendet die Regel der ersten Runde erneut an.",
    ),
    "gap.setup.redeal_limit": Template(
        "the deal was redealt 100 times in a row",
        "Es wurde 100-mal hintereinander neu gegeben; die Prüfung spielt das letzte Geben.",
    ),
    "gap.lead.no_tile": Template(
        "no tile may be turned up",
        "Der Vorrat hat keinen Stein, der aufgedeckt werden darf; die Prüfung lässt den "
        "Startspieler einen beliebigen Stein legen.",
    ),
    "gap.match.round_limit": Template(
        "the match did not end",
        "Die Partie endete nicht innerhalb von 1000 Runden; die Prüfung beendet sie mit "
        "den bisherigen Summen.",
    ),
    "gap.unstated": Template(
        "the engine applied the rule '{what}', which the file does not state",
        "Die Prüfung hat die Regel {clause} angewandt, die die Regeldatei nicht nennt.",
    ),
}

MESSAGES: dict[str, Template] = (
    _FINDINGS
    | {f"kind.{k}": t for k, t in KINDS.items()}
    | _PROOFS
    | _READINGS
    | _SKILLED
    | _REASONS
)
"""Every template by key."""


# ---------------------------------------------------------------- filling them in
class _Filler(string.Formatter):
    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Mapping) and "key" in value:
            text = say(value, self.lang)
            return _cap(text) if format_spec == "cap" else text
        if isinstance(value, list | tuple):
            joiner = {"semi": "; ", "or": " or " if self.lang == "en" else " oder "}
            return joiner.get(format_spec, ", ").join(self.format_field(v, "") for v in value)
        if format_spec == "cap":
            return _cap(str(value))
        if isinstance(value, bool) or not isinstance(value, int | float):
            return format(value, format_spec)
        text = format(value, format_spec)
        return _german_number(text) if self.lang == "de" else text


SWAP = str.maketrans(",.", ".,")
SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def _german_number(text: str) -> str:
    """``1,234.5`` -> ``1.234,5``; ``2.2e-05`` -> ``2,2·10⁻⁵``."""
    text = text.translate(SWAP)
    m = re.fullmatch(r"(-?[\d.,]+)e([+-]\d+)", text)
    if m:
        exp = str(int(m.group(2)))
        text = f"{m.group(1)}·10{exp.translate(SUPERSCRIPT)}"
    return text


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def template(key: str, lang: str) -> str | None:
    """The template of ``key`` in ``lang`` (None when there is none in that language)."""
    t = MESSAGES.get(key)
    if t is None:
        return None
    return t.en if lang == "en" else t.de


def say(item: Mapping[str, Any], lang: str) -> str:
    """The sentence of a said item in ``lang`` (English when ``lang`` has no template)."""
    key = str(item.get("key", ""))
    args = item.get("args") or {}
    text = template(key, lang)
    if text is None:
        lang, text = "en", template(key, "en")
    if text is None:
        raise KeyError(f"no message template {key!r}")
    out = _Filler(lang).vformat(text, (), dict(args))
    if lang == "de":  # "p = 0,01", "match.target = 150" stay on one line
        out = out.replace(" = ", "\u00a0=\u00a0").replace(" < ", "\u00a0<\u00a0")
    return out


def message_of(finding: Mapping[str, Any], lang: str) -> str:
    """A finding's sentence in ``lang``: from its ``text`` item (and, when skilled bots
    confirmed it, their item) when it has one and it fills in, else its English
    ``message`` (which is what English always prints)."""
    english = str(finding.get("message", ""))
    item = finding.get("text")
    if lang == "en" or not isinstance(item, Mapping) or not template(str(item.get("key")), lang):
        return english
    skilled = finding.get("skilled")
    extra = skilled.get("text") if isinstance(skilled, Mapping) else None
    try:
        return say(item, lang) + (say(extra, lang) if isinstance(extra, Mapping) else "")
    except (KeyError, IndexError, ValueError, TypeError):
        return english


def where(place: str) -> dict[str, Any]:
    """The said item of a text's place (``the summary``, ``clause play.draw``, ``note
    x``, ``note x (reason)``, as :mod:`deckgen.rulecheck.textcheck` names them)."""
    if m := re.fullmatch(r"note (\S+) \(reason\)", place):
        return said("where.reason", id=m.group(1))
    if m := re.fullmatch(r"(clause|note) (\S+)", place):
        return said(f"where.{m.group(1)}", id=m.group(2))
    return said("where.summary")


def kind(name: str | None) -> dict[str, Any] | str:
    """The said item of what a number counts (``tiles``, ``points``...)."""
    return said(f"kind.{name}") if name in KINDS else str(name)
