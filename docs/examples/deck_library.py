# needs: deckgen deck new mydeck.toml --set double-7
import deckgen
from deckgen.deck.render import render_cards

build = deckgen.build_deck("mydeck.toml", "out/", sheets="A4", duplex="long", preview=False)
print(*(path.name for path in build.files))
pdf_bytes = render_cards("mydeck.toml", ["cover", "3-5"], fmt="pdf")
pngs = render_cards("mydeck.toml", ["3-5"], fmt="png", dpi=150)
print(pdf_bytes[:5], len(pngs), "PNG of", pngs[0][1:4])
