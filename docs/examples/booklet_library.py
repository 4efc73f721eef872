# needs: deckgen rules check card-domino --rounds 20000 --report check.json --quiet
from deckgen.booklet.make import load_check_report, make_booklets
from deckgen.resources import images_dir

paths = make_booklets(
    "card-domino",
    "output/demo",
    langs=("en",),
    fmt="a5",
    deck=images_dir() / "demo-deck.toml",
    check_report=load_check_report("check.json"),
    impose=True,
    age=6,
)
print(*(path.name for path in paths))
