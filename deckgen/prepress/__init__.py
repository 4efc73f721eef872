"""Finished cards to a vendor's files: profiles, sheets, marks, duplex, CMYK, PDF/X, preflight.

Takes what :mod:`deckgen.deck` drew (``cards.pdf`` and ``back.pdf``: one page per card,
card plus bleed, TrimBox = the card) and gives what a print shop or a home printer
wants. One module per stage::

    presets.py (vendor profiles) -> printstep.py (the build step, ``deck check``)
      -> printout.py (what a profile wants, :class:`~deckgen.prepress.printout.PrintOptions`)
      -> cmyk.py (sRGB -> CMYK, K-only text) -> pdfx.py (PDF/X-4, PDF/X-1a)
      -> sheetlayout.py / imposition.py / marks.py / calibration.py (home sheets)
      -> cardfiles.py (one file per card, interleaved) -> rasterize.py / pngwrite.py (PNGs)
      -> preflight.py (what a shop would send back)

Units: :mod:`deckgen.units` (mm, pt, px at a dpi). ``deck`` never imports this package.
"""
