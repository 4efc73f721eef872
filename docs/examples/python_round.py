import deckgen
from deckgen.engine import make_bots

steps = deckgen.new_round("two-player", seed=4)
bot = make_bots(["greedy"], 2, seed=4)[1]
while not steps.is_over:
    moves = steps.legal_moves()
    if steps.seat == 0:  # seat 0: always the first legal move
        move = moves[0]
    else:  # seat 1: ask the greedy bot, as a match would
        move = bot.choose(steps.view, moves)
    print(f"seat {steps.seat}: {steps.describe(move)}", f"({len(moves)} legal)")
    for action in steps.apply(move)[1:]:  # what the rules forced after the move
        print(f"  then seat {action.seat} {action.kind}s")
result = steps.result()
print("round over:", result.end, "points", result.points, "clauses", len(result.clauses))
