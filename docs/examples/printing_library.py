# needs: deckgen deck new mydeck.toml --set double-6 --no-samples
# needs: deckgen deck build mydeck.toml --out out --no-preview --quiet
from pathlib import Path

from deckgen.prepress.imposition import SheetOptions, impose_sheets
from deckgen.prepress.pdfout import save_pdf
from deckgen.prepress.presets import load_preset, preset_names
from deckgen.prepress.printout import PrintOptions
from deckgen.product import build_printed_deck, load_printed_deck

print(preset_names())

# a deck file built for a vendor: made to its card, every rule checked
deck = load_printed_deck("mydeck.toml")
meinspiel = PrintOptions(preset=load_preset("meinspiel"))
result = build_printed_deck(deck, "meinspiel-out", meinspiel)
print(len(result.files), "files, ending with", result.files[-1].name)

# or only sheets, from finished card PDFs
imposed = impose_sheets(
    Path("out/cards.pdf"), Path("out/back.pdf"), SheetOptions(paper="Letter", duplex="long")
)
save_pdf(imposed.pdf, "sheets.pdf")
