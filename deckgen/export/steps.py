"""Which exports a deck build runs: the one place that reads them off the options and the
vendor preset.

Takes the loaded deck, whether ``--tts`` was asked for, and the preset (the deck file's
own when none is named); gives the export steps to run before the print step (which
may turn the PDFs into CMYK). A preset asks for an export by listing it among its
``outputs`` (``tts``). Used by ``deck build`` (:mod:`deckgen.api.decks`) and by every
deck of a batch (:mod:`deckgen.batch.job`), so both make the same files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckgen.deck.build import OutputStep
    from deckgen.deck.spec import LoadedDeck
    from deckgen.prepress.presets import VendorPreset


def preset_outputs(deck: LoadedDeck, preset: str | None = None) -> list[str]:
    """The outputs the vendor preset lists (``preset``, else the deck file's own)."""
    from deckgen.prepress.presets import load_preset

    name = preset or deck.spec.preset
    if not name:
        return []
    return list(load_preset(name, where=f"{deck.path}: key preset").outputs)


def export_steps(deck: LoadedDeck, *, tts: bool, preset: str | None = None) -> list[OutputStep]:
    """The export steps for ``deck``: Tabletop Simulator when asked for or listed."""
    if tts or "tts" in preset_outputs(deck, preset):
        return export_steps_for(tts=True, preset=None)
    return []


def export_steps_for(*, tts: bool, preset: VendorPreset | None) -> list[OutputStep]:
    """The export steps of a planned build, whose preset is already resolved."""
    if tts or (preset is not None and "tts" in preset.outputs):
        from deckgen.export.tts import tts_step

        return [tts_step]
    return []
