"""Custom domino card decks: deck file -> card fronts, back, preview and manifest.

The pipeline, one module per stage::

    spec.py (deck file -> LoadedDeck) -> geometry.py (card, bleed, tile boxes)
      -> pictures.py (Pillow: decode once, prepare per box) + fonts.py + textfit.py
      -> face.py / cover.py / imprint.py / back.py (draw one card on a reportlab canvas)
      -> render.py (PDF bytes, PNGs) -> build.py (files in a staged folder, manifest)

Interfaces other parts of deckgen rely on (keep them stable):

1. Output geometry. ``cards.pdf`` has one page per card in deck order: the cover, the
   tiles ``0-0 ... N-N``, the imprint. Every page is the card plus ``2 x bleed``;
   MediaBox = BleedBox = the whole page, TrimBox = the card. ``back.pdf`` is one page
   with the same geometry. Both are self-contained (fonts subset and embedded, each
   picture embedded once as an image XObject inside a form XObject), so sheets,
   per-card PNGs and CMYK versions can be made FROM them.
2. ``manifest.json`` (:mod:`deckgen.deck.manifest`): ``format_version`` 1, ``deck``,
   ``set``, ``card`` (``width_mm``, ``height_mm``, ``bleed_mm``, ``safe_mm``,
   ``corner_radius_mm``), ``files`` (``path``, ``kind``, ``pages``, ``sha256``) and
   ``cards`` (``index``, ``kind`` cover/tile/imprint, ``tile`` ``"a-b"`` or null, ``page``).
3. :func:`deckgen.deck.build.build_deck` ``(deck_file, out_dir=None, *,
   allow_outside=False, reporter=None, imprint_extra=None, strict_text=False,
   extra_steps=(), options=None) -> BuildResult`` writes through
   :func:`deckgen.atomic.staged_dir`. Extension point: ``extra_steps`` (and the
   module-level ``build.EXTRA_STEPS`` list) hold callables ``step(ctx: BuildContext)
   -> list[OutputFile]`` that receive the loaded deck, the stage folder, the files
   written so far (with the PDF bytes) and the caller's ``options``; what they return
   is listed in the manifest.
   Every vector colour goes through :func:`deckgen.deck.colour.pdf_colour`, every
   picture through :func:`deckgen.deck.pictures.prepare_picture`: switch CMYK on there.
4. For the booklet: :func:`deckgen.deck.render.render_cards` ``(deck, cards, *,
   fmt="pdf"|"png", dpi, imprint_rules=..., strict_text=...)`` renders chosen cards
   to PDF bytes or PNG bytes; the short rules text for the imprint card is handed in by
   the caller (``imprint_rules`` / ``build_deck(imprint_extra=...)``), deck never
   imports engine or booklet. With ``strict_text=True`` text that does not fit at the
   minimum readable size raises ``SpecError("... does not fit at the minimum readable
   size 6 pt ...")``.
5. Card sizes by name (:mod:`deckgen.deck.sizes`) or ``W x H`` mm; vendor presets
   (:mod:`deckgen.prepress.presets`, owned by the print output) fill a starter file.
"""
