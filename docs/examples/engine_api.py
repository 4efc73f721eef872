import random

from deckgen.engine import Engine, make_bots, play_match
from deckgen.engine.board import board_after
from deckgen.engine.record import load_record, match_record, record_json, replay
from deckgen.rulespec import load_rules

spec = load_rules("card-domino")
seed, names = 7, ["random", "greedy", "smart"]
engine = Engine(spec, players=3, check_invariants=False)  # compile once per process
bots = make_bots(names, 3, seed)  # the last name repeats
r = engine.play_round(random.Random(seed), bots)  # RoundResult
print(r.end, r.winners, r.points, r.hand_values)  # end: "out" | "blocked" | "reserve"
print(r.turns, r.draws, r.passes, r.tiles_played, r.redeals, r.starter, r.out_seat)
print(r.clauses, r.gaps)  # clause ids that decided something; Gap(situation, ...)
m = play_match(engine, bots, seed, record=True)  # MatchResult
print(len(m.rounds), m.totals, m.winners, m.clauses, m.totals_after[0])
rec = match_record(spec, m, seed=seed, bots=names)  # JSON-ready, docs/game-record.md
with open("game.json", "w", encoding="utf-8") as f:
    f.write(record_json(rec))
print(replay(load_record("game.json")).ok)
board = board_after(spec, m.rounds[0], upto=10)  # Board for a diagram
print(type(board).__name__, len(board.tiles))
