"""The arrows that must never exist (design.md): checked on every module's imports.

- ``tiles`` imports nothing of ours;
- ``engine`` never imports ``deck`` or ``booklet`` (the engine knows no paper);
- ``deck`` never imports ``engine``, ``booklet``, ``rulespec`` or ``prepress`` (text such
  as the short rules is handed to it by its caller; prepress reads finished cards);
- ``prepress`` never imports ``engine``, ``booklet`` or ``rulespec`` (it knows finished
  PDFs and vendor profiles, not rules);
- ``rulespec`` never imports ``engine``;
- nothing imports ``cli``.

Imports inside functions count too: a lazy import is still an arrow.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "deckgen"

FORBIDDEN: dict[str, tuple[str, ...]] = {
    "deckgen.tiles": ("deckgen",),
    "deckgen.engine": ("deckgen.deck", "deckgen.booklet", "deckgen.cli"),
    "deckgen.deck": (
        "deckgen.engine",
        "deckgen.booklet",
        "deckgen.rulespec",
        "deckgen.prepress",
        "deckgen.cli",
    ),
    "deckgen.prepress": ("deckgen.engine", "deckgen.booklet", "deckgen.rulespec", "deckgen.cli"),
    "deckgen.rulespec": ("deckgen.engine", "deckgen.deck", "deckgen.booklet", "deckgen.cli"),
    "deckgen": ("deckgen.cli",),
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name == "deckgen" or name.startswith("deckgen.")}


def _rules_for(module: str) -> list[str]:
    """Every forbidden target that applies to ``module`` (by its most specific owners)."""
    out: list[str] = []
    for owner, targets in FORBIDDEN.items():
        if module == owner or module.startswith(owner + "."):
            out.extend(t for t in targets if not (module == t or module.startswith(t + ".")))
    return out


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: _module_name(p))
def test_no_forbidden_import(path: Path) -> None:
    module = _module_name(path)
    if module.startswith("deckgen.cli") or module == "deckgen.__main__":
        return  # the CLI (and its entry point) may import everything; it is only never imported
    bad = sorted(
        name
        for name in _imports(path)
        for target in _rules_for(module)
        if (name == target or name.startswith(target + "."))
        and not (module == "deckgen.tiles" and name == "deckgen")
    )
    if module == "deckgen.tiles":
        bad = sorted(_imports(path))
    assert not bad, f"{module} must not import {bad} (design.md: arrows that must never exist)"
