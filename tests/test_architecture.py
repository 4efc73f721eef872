"""The arrows that must never exist (design.md): checked on every module's imports.

- ``tiles`` imports nothing of ours;
- ``engine`` never imports ``deck`` or ``booklet`` (the engine knows no paper);
- ``deck`` never imports ``engine``, ``booklet``, ``rulespec`` or ``prepress`` (text such
  as the short rules is handed to it by its caller; prepress reads finished cards);
- ``prepress`` never imports ``engine``, ``booklet`` or ``rulespec`` (it knows finished
  PDFs and vendor profiles, not rules);
- ``rulespec`` never imports ``engine``;
- ``rulecheck`` never imports ``deck``, ``prepress`` or ``booklet`` (it judges rules,
  it draws nothing);
- ``engine`` never imports ``rulecheck`` (the check plays through the engine, never the
  other way round);
- nothing outside ``engine/backends/`` implements play: no other module compiles with
  numba, defines an engine's methods, or reaches an engine but through the registry and
  its protocol;
- nothing imports ``cli``;
- no import cycle, of any length, between deckgen's modules.

Imports inside functions count too: a lazy import is still an arrow. So do imports
under ``if TYPE_CHECKING:``: a cycle that only types close is still two modules that
cannot be understood apart (name the shape with a Protocol, or move the shared type
into a module of its own).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "deckgen"

FORBIDDEN: dict[str, tuple[str, ...]] = {
    "deckgen.tiles": ("deckgen",),
    "deckgen.engine": ("deckgen.deck", "deckgen.booklet", "deckgen.rulecheck", "deckgen.cli"),
    "deckgen.deck": (
        "deckgen.engine",
        "deckgen.booklet",
        "deckgen.rulespec",
        "deckgen.prepress",
        "deckgen.cli",
    ),
    "deckgen.prepress": ("deckgen.engine", "deckgen.booklet", "deckgen.rulespec", "deckgen.cli"),
    "deckgen.rulespec": ("deckgen.engine", "deckgen.deck", "deckgen.booklet", "deckgen.cli"),
    "deckgen.rulecheck": ("deckgen.deck", "deckgen.prepress", "deckgen.booklet", "deckgen.cli"),
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


BACKENDS = "deckgen.engine.backends"
INTERFACE = {f"{BACKENDS}.{m}" for m in ("registry", "protocol", "rounds", "matches", "arrays")}
"""What the rest of deckgen may import of the fast engines: the registry, the protocol
and the shapes they take and give."""
ENGINE_METHODS = {"replay", "play_matches", "play_rounds", "first_rule", "hands_of"}
"""Methods that only an engine's class defines (the protocol's and the batch engines')."""


@pytest.mark.parametrize("path", MODULES, ids=lambda p: _module_name(p))
def test_nothing_outside_the_backends_implements_play(path: Path) -> None:
    module = _module_name(path)
    if module.startswith(BACKENDS + ".") or module == BACKENDS:
        return
    imports = _imports(path) | _edges(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    outside = sorted(
        name
        for name in imports
        if name.startswith(BACKENDS + ".")
        and name not in INTERFACE
        and not any(name.startswith(i + ".") for i in INTERFACE)
        and not (module == "deckgen.engine.core" and name == f"{BACKENDS}.lean")
    )
    assert not outside, (
        f"{module} reaches the fast engines {outside}: go through "
        f"{BACKENDS}.registry and its protocol"
    )
    numba = [
        n.names[0].name if isinstance(n, ast.Import) else n.module
        for n in ast.walk(tree)
        if (isinstance(n, ast.Import | ast.ImportFrom) and any(a.name == "numba" for a in n.names))
        or (isinstance(n, ast.ImportFrom) and n.module == "numba")
    ]
    assert not numba, f"{module} compiles with numba: a fast engine lives in {BACKENDS}"
    defined = sorted(
        f.name
        for c in ast.walk(tree)
        if isinstance(c, ast.ClassDef)
        for f in c.body
        if isinstance(f, ast.FunctionDef) and f.name in ENGINE_METHODS
    )
    assert not defined, f"{module} defines {defined}: an engine's methods live in {BACKENDS}"


MODULE_NAMES = {_module_name(path): path for path in MODULES}


def _edges(path: Path) -> set[str]:
    """The deckgen modules that ``path`` imports (relative imports resolved; ``from
    package import module`` as the module, ``from module import name`` as the module)."""
    module = _module_name(path)
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package[: len(package) - (node.level - 1)]
                base = ".".join([*parent, base] if base else parent)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in MODULE_NAMES else base)
    return {name for name in found if name in MODULE_NAMES and name != module}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules, each as one cycle path.

    >>> import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    [['a', 'b', 'c', 'a']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_cycle_through(graph, group) for group in groups]


def _cycle_through(graph: dict[str, set[str]], group: list[str]) -> list[str]:
    """A shortest path from the group's first module back to itself, inside the group."""
    start = group[0]
    members = set(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v] & members):
            if w == start:
                return [*paths[v], start]
            if w not in paths:
                paths[w] = [*paths[v], w]
                queue.append(w)
    raise AssertionError(f"no cycle through {start}")  # a group always has one


def test_no_import_cycle() -> None:
    graph = {name: _edges(path) for name, path in MODULE_NAMES.items()}
    cycles = import_cycles(graph)
    assert not cycles, "import cycles (design.md: no import cycles):\n" + "\n".join(
        " -> ".join(cycle) for cycle in cycles
    )


def test_the_cycle_finder_finds_cycles() -> None:
    assert import_cycles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b", "a"]]
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    assert _edges(PACKAGE / "engine" / "core.py") >= {"deckgen.engine.state"}
