"""The engine's side of the booklet: a real round for the examples, facts by simulation.

Takes a :class:`~deckgen.rulespec.RuleSpec`; gives an
:class:`~deckgen.booklet.example.ExampleRound` (a round the engine played with its
bots, chosen by a fixed rule from seeded rounds, so the same rules file always shows
the same example) and :class:`~deckgen.booklet.facts.PlayFacts` simulated with random
bots, for when no rules check report is at hand.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING

from deckgen.booklet.example import ExampleRound, RecordedAction, View, build_example
from deckgen.booklet.facts import PlayFacts, facts_from_rounds
from deckgen.rulespec import RuleSpec

if TYPE_CHECKING:
    from deckgen.engine import Engine, RoundResult

EXAMPLE_SEEDS = range(1, 400)
FACT_ROUNDS = 600
"""Rounds the booklet plays for its playing time when no check report is given (the
title page rounds it to 5 minutes; the figures of a rules check are the reliable ones)."""
FACT_SEED = 20261122
MATCHES_FOR_LENGTH = 60


def facts_players(rules: RuleSpec) -> int:
    """The player count the booklet quotes facts for: the middle of the allowed counts."""
    counts = rules.player_counts
    return counts[(len(counts) - 1) // 2 + (1 if len(counts) % 2 == 0 else 0)]


def example_players(rules: RuleSpec) -> int:
    """The player count of the worked example (three when allowed: more hands to count)."""
    counts = rules.player_counts
    return 3 if 3 in counts else facts_players(rules)


def _good(turns: int, end: str, draws: int, players: int, left: int) -> int:
    """How well a round serves as an example (higher is better)."""
    score = 0
    score += 4 if end == "out" else 0
    score += 2 if draws else 0
    score += 2 if 8 <= turns <= 6 * players + 6 else 0
    score += 1 if 3 <= left <= 4 * players else 0
    return score


def example_round(rules: RuleSpec, *, players: int | None = None) -> ExampleRound | None:
    """A recorded round of ``rules`` that shows going out, drawing and a count.

    A line board is rebuilt by the booklet; a board with a spinner or crosswise doubles
    comes from the engine's :func:`~deckgen.engine.board.board_after` and is laid out
    by :mod:`deckgen.booklet.tablelayout` (positions that would overlap are not drawn).
    """
    from deckgen.engine import Engine, make_bots

    n = players or example_players(rules)
    engine = Engine(rules, n)
    best = None
    best_score = -1
    best_seed = -1
    for seed in EXAMPLE_SEEDS:
        r = engine.play_round(random.Random(seed), make_bots(["smart"], n, seed), record=True)
        if r.deal is None or r.actions is None:
            return None
        left = sum(len(h) for h in r.deal.hands) - sum(1 for a in r.actions if a.kind == "play")
        score = _good(r.turns, r.end, r.draws, n, left)
        if score > best_score:
            best, best_score, best_seed = r, score, seed
        if score >= 9:
            break
    if best is None or best.deal is None or best.actions is None:
        return None
    ex = _example_of(rules, engine, n, best)
    return replace(ex, seed=best_seed, bots=("smart",)) if ex is not None else None


ENDING_SEEDS = range(1, 3000)
"""Seeds searched, per player count, for a round that ends without anyone going out."""


def ending_round(rules: RuleSpec) -> ExampleRound | None:
    """A real round of ``rules`` that ends without anyone going out (blocked, or the
    stock down to its reserve), for the scoring of such a round.

    Searched for what it has to show, not fixed to a seed (a change to the engine
    plays a seed differently): one whose lowest hands tie, scored by the tie rule, when
    the rules say what a tie scores (``score.tie``, as the engine reports the clauses
    that decided something in a round), and one that leaves a tile of special value in
    a hand when the rules have such tiles (``score.values``). The example's player
    count is tried first, then the others; the first round that shows everything is
    taken, else the one that shows the most.
    """
    from deckgen.engine import Engine, make_bots

    tie = rules.has_clause("score.tie")
    valued = set(rules.params.scoring.tile_values)
    wanted = (2 if tie else 0) + (1 if valued else 0)
    first = example_players(rules)
    counts = [first, *(n for n in rules.player_counts if n != first)]
    best: tuple[int, ExampleRound] | None = None
    for n in counts:
        engine = Engine(rules, n)
        for seed in ENDING_SEEDS:
            bots = make_bots(["random"], n, seed)
            r = engine.play_round(random.Random(seed), bots, record=True)
            if r.end == "out" or r.deal is None or r.actions is None:
                continue
            tied = tie and "score.tie" in r.clauses
            if best is not None and (2 if tied else 0) + 1 <= best[0]:
                continue  # cannot beat the round already found
            ex = _example_of(rules, engine, n, r)
            if ex is None:
                continue
            ex = replace(ex, seed=seed, bots=("random",))
            score = (2 if tied else 0) + (
                1 if any(str(t) in valued for hand in ex.hands for t in hand) else 0
            )
            if best is None or score > best[0]:
                best = (score, ex)
            if score == wanted:
                return ex
    return best[1] if best else None


def _example_of(rules: RuleSpec, engine: Engine, n: int, best: RoundResult) -> ExampleRound | None:
    """The booklet's view of the recorded round ``best``."""
    assert best.deal is not None
    assert best.actions is not None
    turned_up = rules.params.opening.lead == "turned_up"
    line = rules.params.board.shape == "line"
    if rules.params.board.shape == "trains":  # Mexican Train: the station and the trains
        from deckgen.booklet.trainlayout import train_views

        views: tuple[View, list[View | None]] | None = train_views(rules, best)
    elif rules.params.board.shape == "chicken_foot":  # the centre's arms and the feet
        from deckgen.booklet.footlayout import foot_views

        views = foot_views(rules, best)
    else:
        views = None if line else _views(rules, best)
    counts = None
    multiple = rules.params.scoring.ends_multiple
    if multiple is not None:  # score.ends: the count after each tile, as the engine made it
        from deckgen.engine.endcount import counts_of_round

        counts = counts_of_round(
            engine.t, rules.params.board.shape, best.turned_up, best.actions, multiple
        )
    if counts is not None and views is not None:  # show the count under every board
        views = _with_counts(views, counts, best)
    hands = best.deal.hands
    if rules.params.opening.lead == "station":  # the station double left its holder's hand
        hands = _after_station(engine, best.deal.hands, best.deal.stock)
    return build_example(
        dset=rules.dset,
        players=n,
        sides=rules.teams(n),
        starter=best.starter,
        lead_tile=best.lead_tile,
        turned_up=turned_up,
        hands=hands,
        actions=[RecordedAction(a.kind, a.seat, a.tile, a.end, a.value) for a in best.actions],
        end=best.end,
        out_seat=best.out_seat,
        hand_values=best.hand_values,
        points=best.points,
        turns=best.turns,
        doubles_across=False,  # a line board: doubles lie in the row like any tile
        views=views[1] if views else None,
        start_view=views[0] if views else None,
        counts=counts,
        play_points=best.play_points,
        clauses=best.clauses,
    )


def _with_counts(
    views: tuple[View, list[View | None]],
    counts: list[tuple[int, int] | None],
    result: RoundResult,
) -> tuple[View, list[View | None]]:
    """Each board with the open ends' count after the tile just laid (``score.ends``),
    as a label under it (``count:<sum>:<points>``, put in words by the booklet)."""
    from dataclasses import replace

    from deckgen.booklet.diagram import PlacedTiles

    assert result.actions is not None
    per_play = [c for a, c in zip(result.actions, counts, strict=True) if a.kind == "play"]
    first = next((c for a, c in zip(result.actions, counts, strict=True) if a.kind == "lead"), None)

    def label(view: View | None, cp: tuple[int, int] | None) -> View | None:
        if not isinstance(view, PlacedTiles) or cp is None or not view.tiles:
            return view
        x = min(t[0] for t in view.tiles)
        y = max(t[1] + (2.0 if t[2] else 1.0) for t in view.tiles) + 1.3
        return replace(view, labels=(*view.labels, (x, y, f"count:{cp[0]}:{cp[1]}")))

    start = label(views[0], first)
    assert start is not None
    return start, [label(v, cp) for v, cp in zip(views[1], per_play, strict=True)]


def _after_station(engine: Engine, hands: list[list[int]], stock: list[int]) -> list[list[int]]:
    """The hands as play begins: the kernel's ``take_station`` on the dealt hands."""
    from deckgen.engine.tables import bits
    from deckgen.engine.trains import take_station

    masks = [sum(1 << i for i in h) for h in hands]
    take_station(engine.t, masks, stock[::-1], 1)
    return [bits(m) for m in masks]


def _views(rules: RuleSpec, result: RoundResult) -> tuple[View, list[View | None]]:
    """The start and the board after every play of ``result``, laid out on the table."""
    from deckgen.booklet.tablelayout import layout_board
    from deckgen.engine.board import board_after

    assert result.actions is not None
    start = layout_board(board_after(rules, result, 0), mark_last=False)
    assert start is not None  # a single tile always fits
    after: list[View | None] = []
    for i, act in enumerate(result.actions):
        if act.kind == "play":
            after.append(layout_board(board_after(rules, result, i + 1)))
    return start, after


def simulated_facts(
    rules: RuleSpec, *, rounds: int = FACT_ROUNDS, seed: int = FACT_SEED
) -> PlayFacts:
    """Facts from ``rounds`` first rounds played by random bots (and, for matches to a
    target score, a few whole matches for the number of rounds per match)."""
    from deckgen.engine import Engine, make_bots, play_match, simulate_rounds

    n = facts_players(rules)
    match = rules.params.match
    if match.end == "rounds" and match.rounds is not None:
        per_match = float(match.rounds)
    else:
        engine = Engine(rules, n)
        lengths = [
            len(play_match(engine, make_bots(["random"], n, s), s).rounds)
            for s in range(seed, seed + MATCHES_FOR_LENGTH)
        ]
        per_match = sum(lengths) / len(lengths)
    return facts_from_rounds(
        simulate_rounds(rules, n, seed, rounds, bots=("random",)),
        players=n,
        rounds_per_match=per_match,
        sides=rules.teams(n),
        bots="random",
    )
