"""Build hook: the engine's hot modules compiled with mypyc (everything else is in
pyproject.toml).

The modules are listed in ``deckgen/engine/compiled.py`` (read here without importing
deckgen). mypyc turns them into C and setuptools compiles that: ``pip install -e .``
puts the extensions beside the sources, ``pip wheel .`` into the wheel. The extensions
are optional: without a C compiler (or with ``DECKGEN_NO_COMPILED=1``) the package
installs as plain Python and runs the same source, only slower.

The build records the SHA-256 of each compiled source in
``deckgen/engine/compiled.json``; at import, a source that no longer matches makes
deckgen use the plain sources instead of stale machine code.
"""

from __future__ import annotations

import json
import os
import runpy
import sys
from pathlib import Path
from typing import Any

from setuptools import setup

HERE = Path(__file__).resolve().parent
CHOICE = runpy.run_path(str(HERE / "deckgen" / "engine" / "compiled.py"))
MODULES: tuple[str, ...] = CHOICE["MODULES"]


def _sources() -> list[str]:
    return ["/".join(m.split(".")) + ".py" for m in MODULES]


def _extensions() -> list[Any]:
    if os.environ.get(CHOICE["OFF_SWITCH"], "") not in ("", "0"):
        print(f"deckgen: {CHOICE['OFF_SWITCH']} is set: plain Python engine", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("deckgen: mypyc not available: plain Python engine", file=sys.stderr)
        return []
    sources = _sources()
    # The sources alone, typed against the standard library: the build environment has
    # none of deckgen's dependencies (a third-party type becomes Any, which compiles to
    # the same generic operations Python runs), and no project config (its strict flags
    # are for the lint run, with everything installed).
    flags = ["--config-file=", "--ignore-missing-imports", "--no-site-packages"]
    # errors in modules they import (typed against numpy, numba, ... which the build
    # environment lacks) are not theirs: only the compiled modules must type-check
    flags.append("--follow-imports=silent")
    try:
        extensions: list[Any] = mypycify(
            [*flags, *sources], opt_level="3", group_name=CHOICE["GROUP"]
        )
    except (Exception, SystemExit) as err:  # mypyc exits on a type error: install plain
        print(f"deckgen: mypyc failed ({err}): plain Python engine", file=sys.stderr)
        return []
    for ext in extensions:
        ext.optional = True  # no compiler: a warning, and the plain sources are used
    record = {
        "sources": {
            m: CHOICE["source_hash"](HERE / s) for m, s in zip(MODULES, sources, strict=True)
        }
    }
    (HERE / "deckgen" / "engine" / CHOICE["RECORD"]).write_text(
        json.dumps(record, indent=1) + "\n", encoding="utf-8"
    )
    return extensions


setup(ext_modules=_extensions())
