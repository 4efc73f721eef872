"""``make bench``: the engines' line counts (:mod:`bench.engine_lines`), then every
``bench/bench_*.py`` module's ``main()`` in turn, so one run gives every figure."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def main() -> int:
    here = Path(__file__).parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    if not names:
        print("no benchmarks yet")
        return 0
    only = set(sys.argv[1:])
    if not only or "engine_lines" in only:
        from bench import engine_lines

        print("== engine_lines")
        engine_lines.main([])
    for name in names:
        if only and name not in only:
            continue
        print(f"== {name}")
        module = importlib.import_module(f"bench.{name}")
        module.main()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
