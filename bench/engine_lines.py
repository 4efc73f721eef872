"""How often the rules of play are written: the kernel's rule modules against the fast
engines, in code lines (docstrings count; blank and comment lines do not).

The kernel's rule modules are :data:`KERNEL` under ``deckgen/engine/``; the fast
engines are everything under ``deckgen/engine/backends/``. The goal (issue #27) is the
fast engines at most 1.0 times the kernel. Run: ``.venv/bin/python -m
bench.engine_lines``; ``--json`` prints the figures as JSON.
"""

from __future__ import annotations

import io
import json
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "deckgen" / "engine"
KERNEL = (
    "setup",
    "layouts",
    "turn",
    "scoring",
    "finish",
    "match",
    "state",
    "trains",
    "chickenfoot",
    "endcount",
    "tables",
)
"""The kernel's modules that state rules of play (not records, bots, diagrams)."""
SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}


def code_lines(path: Path) -> int:
    """Lines of ``path`` that hold a token other than a comment."""
    lines: set[int] = set()
    text = path.read_text(encoding="utf-8")
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type in SKIP or tok.type == tokenize.ENDMARKER:
            continue
        lines.update(range(tok.start[0], tok.end[0] + 1))
    return len(lines)


def figures() -> dict[str, dict[str, int]]:
    """Code lines per module: the kernel's rule modules and the fast engines."""
    kernel = {name: code_lines(ENGINE / f"{name}.py") for name in KERNEL}
    fast = {
        p.relative_to(ENGINE).as_posix(): code_lines(p)
        for p in sorted((ENGINE / "backends").glob("*.py"))
    }
    return {"kernel": kernel, "fast": fast}


def main(argv: list[str]) -> int:
    got = figures()
    kernel, fast = sum(got["kernel"].values()), sum(got["fast"].values())
    if "--json" in argv:
        print(json.dumps({**got, "kernel_total": kernel, "fast_total": fast}, indent=2))
        return 0
    for part in ("kernel", "fast"):
        print(f"{part}:")
        for name, n in got[part].items():
            print(f"  {name:<28}{n:>6}")
    print(f"kernel rules {kernel:,} lines, fast engines {fast:,}: {fast / kernel:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
