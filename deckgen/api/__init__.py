"""The functions behind ``import deckgen``: each a thin wrapper over one pillar.

A programmer imports them from :mod:`deckgen` (lazily, see ``deckgen/__init__.py``);
the CLI calls exactly these functions, so a command and its Python call do the same.
Each module here combines pillars the way :mod:`deckgen.product` and
:mod:`deckgen.demo` do, and imports the heavy ones (reportlab, WeasyPrint) inside the
functions only.

- :mod:`deckgen.api.decks`: :func:`build_deck` (everything ``deckgen deck build`` writes);
- :mod:`deckgen.api.games`: :func:`play_match` and its :class:`Match`;
- :mod:`deckgen.api.rounds`: :func:`new_round`, a round stepped move by move;
- :mod:`deckgen.api.checks`: :func:`check_rules` and its :class:`RulesCheck`;
- :mod:`deckgen.api.booklets`: :func:`make_booklet`.
"""
