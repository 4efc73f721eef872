"""``python -m deckgen`` and the ``deckgen`` console script.

The command line's start-up runs with Python's cyclic garbage collector off until the
command's work begins (:mod:`deckgen.startup`).
"""

from deckgen import startup


def main() -> None:
    """Run the ``deckgen`` command line."""
    startup.loading()
    from deckgen.cli import main as run

    run()


if __name__ == "__main__":  # worker processes started by spawn re-import this module
    main()
