import deckgen

match = deckgen.play_match("card-domino", players=3, bots=["smart", "greedy"], seed=7)
print("winner:", *match.winner_names(), "after", len(match.result.rounds), "rounds")
print("totals:", match.totals, "record:", match.write_record("game.json"))
