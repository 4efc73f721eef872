"""``python -m deckgen``: the same as the ``deckgen`` console script."""

from deckgen.cli import main

main()
