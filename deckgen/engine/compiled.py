"""The engine's hot modules as machine code (mypyc), or as their plain Python source.

The random-bot loop (:mod:`deckgen.engine.backends.lean`), what it calls every round
(:mod:`deckgen.engine.setup`, :mod:`deckgen.engine.finish`) and the kernel's step by
step play (:mod:`deckgen.engine.state` with its layouts, draws, end count and invariant
checks: the rules check's judge, the bots' and people's games) are compiled with mypyc
when the package is built (``setup.py``; ``make`` does it): the same source, typed for
mypy strict, becomes C extension modules that Python imports instead of the ``.py``
files. The build is optional: without a C compiler the package installs as plain Python.

What compiled classes ask of their source: a state is copied through its constructor
(``RoundState(..., copy_of=state)``; ``object.__new__`` is refused), a class-level
name is a ``ClassVar``, and an exception that extends ``AssertionError`` lives in a
plain module (:class:`~deckgen.engine.results.InvariantError`). A test cannot swap a
function that compiled code calls (the call is direct): it changes what the code is
given instead (``tests/engine/test_engine_records.py``).

:func:`choose` runs when :mod:`deckgen.engine` imports this module, before anything
else, and decides for the modules in :data:`MODULES` together which form is used:

- ``compiled`` when every module has its extension and each ``.py`` file is still the
  source it was built from (``compiled.json``, written by ``setup.py``: a SHA-256 per
  source);
- ``pure`` otherwise: no extension was built, ``DECKGEN_NO_COMPILED=1`` is set, or a
  source changed since the build (then the extensions would run old code: the plain
  sources are imported instead, until ``make`` or ``pip install -e .`` builds again).

Compiled and plain forms are proved equal round for round
(``tests/engine/test_compiled.py``), which loads both side by side with
:func:`load_plain`. Imports nothing of ours (``setup.py`` reads :data:`MODULES` from it).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Literal

MODULES: tuple[str, ...] = (
    "deckgen.engine.turn",
    "deckgen.engine.layouts",
    "deckgen.engine.chickenfoot",
    "deckgen.engine.trains",
    "deckgen.engine.invariants",
    "deckgen.engine.endcount",
    "deckgen.engine.finish",
    "deckgen.engine.setup",
    "deckgen.engine.state",
    "deckgen.engine.backends.lean",
)
"""The compiled modules, each after those it imports."""

GROUP = "deckgen.engine.native"
"""mypyc's group: the shared library ``deckgen/engine/native__mypyc.*.so`` holds the
code of every module; each module's own extension is a small shim that loads it."""

RECORD = "compiled.json"
"""Written beside this module by the build: ``{"sources": {module: sha256}}``."""

OFF_SWITCH = "DECKGEN_NO_COMPILED"

Status = Literal["compiled", "pure"]

STATUS: Status = "pure"
"""What :func:`choose` decided for this process."""
REASON = "not decided yet"
"""Why, in a few words (``bench_engine`` prints it)."""

_ROOT = Path(__file__).resolve().parent.parent.parent


def source_file(module: str) -> Path:
    """The ``.py`` file of ``module`` (beside this package's other sources)."""
    return _ROOT.joinpath(*module.split(".")).with_suffix(".py")


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _is_extension(module: str) -> bool:
    spec = importlib.util.find_spec(module)
    origin = spec.origin if spec is not None else None
    return origin is not None and not origin.endswith(".py")


def _built_sources() -> dict[str, str]:
    try:
        record = json.loads(Path(__file__).with_name(RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    sources = record.get("sources") if isinstance(record, dict) else None
    return {str(k): str(v) for k, v in sources.items()} if isinstance(sources, dict) else {}


def decide() -> tuple[Status, str]:
    """Which form to use, and why (looks at files only; imports none of :data:`MODULES`)."""
    built = [m for m in MODULES if _is_extension(m)]
    if not built:
        return "pure", "no compiled extension was built"
    if os.environ.get(OFF_SWITCH, "") not in ("", "0"):
        return "pure", f"{OFF_SWITCH} is set"
    if len(built) < len(MODULES) or not _is_extension(GROUP + "__mypyc"):
        return "pure", "the compiled extensions are incomplete"
    record = _built_sources()
    changed = [m for m in MODULES if record.get(m) != source_hash(source_file(m))]
    if changed:
        names = ", ".join(m.rsplit(".", 1)[1] + ".py" for m in changed)
        return "pure", f"{names} changed since the build (run `make` to compile again)"
    return "compiled", "mypyc extensions built from these sources"


def load_plain(*, install: bool) -> dict[str, ModuleType]:
    """Execute the ``.py`` source of every module of :data:`MODULES`, in order.

    While one runs, the plain forms loaded before it stand in ``sys.modules``, so plain
    ``lean`` calls plain ``setup`` and ``finish``. ``install``: leave them there (every
    later import gets the plain form); otherwise put back what was there before, so the
    plain forms live beside the compiled ones (for the tests).
    """
    saved = {m: sys.modules.get(m) for m in MODULES}
    plain: dict[str, ModuleType] = {}
    try:
        for name in MODULES:
            spec = importlib.util.spec_from_file_location(name, source_file(name))
            if spec is None or spec.loader is None:  # pragma: no cover - a .py path always loads
                raise ImportError(f"cannot load {source_file(name)}")
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
            plain[name] = module
    finally:
        if not install:
            for name, old in saved.items():
                if old is None:
                    sys.modules.pop(name, None)
                else:
                    sys.modules[name] = old
    if install:
        for name, module in plain.items():
            parent, _, leaf = name.rpartition(".")
            setattr(sys.modules[parent], leaf, module)
    return plain


def choose() -> None:
    """Decide once per process (see the module docstring) and import accordingly."""
    global STATUS, REASON
    if REASON != "not decided yet":
        return
    STATUS, REASON = decide()
    if STATUS == "pure" and any(_is_extension(m) for m in MODULES):
        load_plain(install=True)


if __name__ == "deckgen.engine.compiled":  # imported by deckgen (setup.py only reads it)
    choose()
