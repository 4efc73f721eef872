# needs: deckgen deck new mydeck.toml --set double-7 --no-samples
import deckgen

build = deckgen.build_deck("mydeck.toml", "print/mydeck", profile="meinspiel")
print(build.cards, "cards,", len(build.files), "files in", build.out_dir)
print(*sorted(p.name for p in build.files if p.parent == build.out_dir))
