"""Compile the numba engines now: ``python -m deckgen.rulecheck.warm`` (run by the
install, ``make``), so that a new user's first rules check starts as fast as the second.

Takes nothing; plays two matches of every bundled rules file on its compiled engine
(:func:`deckgen.rulecheck.fastmatch.warm`), which fills numba's cache on disk beside the
engines' source, and says how long it took.
"""

from __future__ import annotations

import sys
import time


def main(argv: list[str]) -> int:
    if argv:
        print("usage: python -m deckgen.rulecheck.warm", file=sys.stderr)
        return 2
    from deckgen.rulecheck.fastmatch import warm

    began = time.perf_counter()
    warmed = warm()
    took = time.perf_counter() - began
    if warmed:
        print(f"compiled engines warmed ({len(warmed)} rules files) in {took:.1f} s")
    else:
        print("numba is not installed (or DECKGEN_NO_JIT is set): nothing to compile")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
