# needs: deckgen deck new mydeck.toml --set double-6
# needs: deckgen deck build mydeck.toml --out out --no-preview --quiet
from pathlib import Path

from deckgen.deck.imposition import SheetOptions, impose_sheets
from deckgen.deck.pdfout import save_pdf
from deckgen.deck.presets import load_preset, preset_names
from deckgen.deck.printout import PrintOptions, make_print_outputs

print(preset_names())
imposed = impose_sheets(
    Path("out/cards.pdf"), Path("out/back.pdf"), SheetOptions(paper="A4", duplex="long")
)
save_pdf(imposed.pdf, "sheets.pdf")

# everything a preset wants, into the folder that holds cards.pdf and back.pdf
labels = ["cover"] + [f"{a}-{b}" for a in range(7) for b in range(a, 7)] + ["imprint"]
result = make_print_outputs(Path("out"), labels, PrintOptions(preset=load_preset("meinspiel")))
print(len(result.files), "files, CMYK:", result.cmyk, "preflight ok:", result.preflight.ok)
