import deckgen

try:
    deckgen.play_match("two-player", players=5)
except deckgen.DeckgenError as error:
    print("error:", error)
try:
    deckgen.build_deck("no-such-deck.toml")
except deckgen.DeckgenError as error:
    print(type(error).__name__, "-", error.what)
