"""Compile the numba engines now: ``python -m deckgen.engine.backends.warm`` (run by the
install, ``make``), so that a new user's first rules check starts as fast as the second.

Takes nothing; plays two matches of every bundled rules file on the compiled engine the
registry chooses for a large run (:func:`warm`), which fills numba's cache on disk
beside the engines' source, and says how long it took.
"""

from __future__ import annotations

import sys
import time

from deckgen.engine.backends.jit import HAVE_JIT


def warm() -> list[str]:
    """Play two matches of each bundled rules file on its compiled engine, random and
    greedy bots, with the check's own calls. Returns what was warmed (nothing without
    numba)."""
    import numpy as np

    from deckgen.engine.backends.registry import choose
    from deckgen.engine.tables import compile_tables
    from deckgen.rulespec import list_rules

    if not HAVE_JIT:
        return []
    done = []
    for spec in list_rules():
        n = spec.player_counts[0]
        t = compile_tables(spec, n)
        rng = np.random.default_rng(0)
        names = []
        for kinds in (("random",) * n, ("greedy",) * n):
            backend = choose(spec, t, kinds, rounds_per_worker=1 << 62)
            if backend is None:
                continue
            backend.make(spec, t).play_matches(rng, 2, kinds)
            names.append(backend.name)
        done.append(f"{spec.id}: {', '.join(sorted(set(names)))}")
    return done


def main(argv: list[str]) -> int:
    if argv:
        print("usage: python -m deckgen.engine.backends.warm", file=sys.stderr)
        return 2
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
