"""Decks from a spreadsheet of orders: one deck folder per row, local pool or Redis queue.

The pipeline, one module per stage::

    sheet.py (CSV/XLSX -> rows of text; xlsx.py: a workbook, streamed)
      -> columns.py (column -> deck-file key)
      -> orders.py (validate every row: Order or Problem; inputs.py: the fingerprint)
      -> pool.py (local worker processes) or rqueue.py (jobs on Redis; wire.py: JSON
         only; jobclass.py: only deckgen's own jobs run; redisurl.py: URL and password)
      -> job.py (build one order into .staging/, publish.py: rename into place, zip)
      -> outcome.py (a line per row, JSON)

:func:`deckgen.batch.run.run_batch` is the library call behind ``deckgen batch``.
``batch`` sits beside the CLI, above the pillars: it draws decks through
:mod:`deckgen.deck` and reaches the print outputs only through :mod:`.printing`.
"""
