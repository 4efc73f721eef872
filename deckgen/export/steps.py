"""Which exports a deck build runs: the one place that reads them off the options and the
vendor preset.

Takes whether ``--tts`` was asked for and the build's preset, resolved once with its
print options (:func:`deckgen.prepress.printstep.options_for`: the one named, else the
deck file's own); gives the export steps to run before the print step (which may turn
the PDFs into CMYK). A preset asks for an export by listing it among its ``outputs``
(``tts``). Used by ``deck build`` (:mod:`deckgen.api.decks`) and by every deck of a
batch (:mod:`deckgen.batch.job`), so both make the same files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckgen.deck.build import OutputStep
    from deckgen.prepress.presets import VendorPreset


def export_steps_for(*, tts: bool, preset: VendorPreset | None) -> list[OutputStep]:
    """The export steps of a planned build, whose preset is already resolved."""
    if tts or (preset is not None and "tts" in preset.outputs):
        from deckgen.export.tts import tts_step

        return [tts_step]
    return []
