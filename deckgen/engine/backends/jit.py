"""The one switch for the compiled fast paths: numba's ``njit``, or plain Python.

The compiled engines (``deckgen.engine.backends.jit_*``) are written once, in
the subset of Python that numba compiles, and decorated with :func:`njit` from here.
When numba is installed and not switched off, they run as machine code (compiled on
first use, cached on disk in ``__pycache__/engines-<key>`` beside their source, the key
naming every engine module's content: :func:`cache_folder`); otherwise ``HAVE_JIT`` is
False and the check falls back to the numpy line engine
(:mod:`deckgen.engine.backends.numpy_line`) or the kernel. Both paths are proved equal
to the kernel round for round (``tests/engine/test_conformance.py``).

``DECKGEN_NO_JIT=1`` switches the compiled paths off (to measure or test the fallback).

``python -m deckgen.engine.backends.warm`` compiles every engine into numba's cache (the
install does it, so a new user's first check is as fast as the second).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

HAVE_JIT = os.environ.get("DECKGEN_NO_JIT", "") in ("", "0") and bool(
    importlib.util.find_spec("numba")
)
"""True when numba is installed (and not switched off): the fast paths are compiled.

Found without importing numba (about a quarter of a second, plus its compiler's start
on the first call): a process that never plays a compiled batch never pays for it."""


def engines_key(folder: Path | None = None) -> str:
    """The SHA-256 (16 hex digits) of every module of the compiled engines' folder: a
    change to any of them, a shared helper included, gives another key."""
    folder = folder or Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def cache_folder() -> Path | None:
    """Where numba keeps the engines' machine code: ``__pycache__/engines-<key>`` beside
    the engines (else, when that cannot be written, the user's cache folder). numba
    checks only a compiled function's own file before reusing its code; a caller of a
    changed helper in another module (``deal.py``) would run the old helper. A folder
    per :func:`engines_key` compiles everything again after any change. None: no folder
    can be written (numba's own choice stands)."""
    from deckgen.usercache import cache_dir

    key = f"engines-{engines_key()}"
    here = Path(__file__).resolve().parent
    for base in (here / "__pycache__", cache_dir() / "numba"):
        folder = base / key
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=folder):
                pass
        except OSError:
            continue
        return folder
    return None


_numba_ready: list[Any] = []


def _numba() -> Any:
    """numba, imported once, its cache pointed at :func:`cache_folder` (unless the user
    set ``NUMBA_CACHE_DIR``)."""
    if not _numba_ready:
        import numba

        if not os.environ.get("NUMBA_CACHE_DIR"):
            folder = cache_folder()
            if folder is not None:
                config: Any = numba.config  # CACHE_DIR: read as each function's cache is made
                config.CACHE_DIR = str(folder)
        _numba_ready.append(numba)
    return _numba_ready[0]


def njit(fn: F) -> F:
    """Compile ``fn`` with numba (no Python objects, cached on disk), or return it as is.

    The plain function stays reachable as ``fn.py_func`` when compiled, so a test can run
    the same source as Python on a few rounds. numba is imported here, on the first
    compiled module's import.
    """
    if not HAVE_JIT:
        return fn
    numba = _numba()
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


def leaf(fn: F) -> F:
    """:func:`njit` for a helper that allocates nothing, only reads and writes the
    arrays it is given: compiled without numba's reference counting (``_nrt=False``), so
    its calls cost no atomic count of each array argument (about 4 ns an array and call:
    the deal cost 40 ns more a round with it)."""
    if not HAVE_JIT:
        return fn
    numba = _numba()
    from numba.core.cpu import CPUTargetOptions

    options: dict[str, Any] = {"cache": True, "nogil": True}
    if hasattr(CPUTargetOptions, "_nrt"):  # numba's own name: a later numba may drop it
        options["_nrt"] = False
    return cast(F, numba.njit(**options)(fn))


def inline(fn: F) -> F:
    """:func:`njit`, and written into each compiled caller (numba's ``inline="always"``):
    for a helper on a hot path, where even a call without reference counts costs a few
    per cent (the draw: 3-8 % of a round of Mexican Train)."""
    if not HAVE_JIT:
        return fn
    numba = _numba()
    return cast(F, numba.njit(cache=True, nogil=True, inline="always")(fn))


def python_source(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The plain-Python function behind a (possibly) compiled one."""
    inner: Callable[..., Any] = getattr(fn, "py_func", fn)
    return inner
