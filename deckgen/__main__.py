"""``python -m deckgen``: the same as the ``deckgen`` console script."""

from deckgen.cli import main

if __name__ == "__main__":  # worker processes started by spawn re-import this module
    main()
