"""The one switch for the compiled fast paths: numba's ``njit``, or plain Python.

The compiled engines (``deckgen.engine.backends.jit_*``) are written once, in
the subset of Python that numba compiles, and decorated with :func:`njit` from here.
When numba is installed and not switched off, they run as machine code (compiled on
first use, cached on disk beside their source); otherwise ``HAVE_JIT`` is False and the
check falls back to the numpy line engine (:mod:`deckgen.engine.backends.numpy_line`)
or the kernel. Both paths are proved equal to the
kernel round for round (``tests/engine/test_conformance.py``).

``DECKGEN_NO_JIT=1`` switches the compiled paths off (to measure or test the fallback).

``python -m deckgen.engine.backends.warm`` compiles every engine into numba's cache (the
install does it, so a new user's first check is as fast as the second).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

HAVE_JIT = os.environ.get("DECKGEN_NO_JIT", "") in ("", "0") and bool(
    importlib.util.find_spec("numba")
)
"""True when numba is installed (and not switched off): the fast paths are compiled.

Found without importing numba (about a quarter of a second, plus its compiler's start
on the first call): a process that never plays a compiled batch never pays for it."""


def njit(fn: F) -> F:
    """Compile ``fn`` with numba (no Python objects, cached on disk), or return it as is.

    The plain function stays reachable as ``fn.py_func`` when compiled, so a test can run
    the same source as Python on a few rounds. numba is imported here, on the first
    compiled module's import.
    """
    if not HAVE_JIT:
        return fn
    import numba

    return cast(F, numba.njit(cache=True, nogil=True)(fn))


def leaf(fn: F) -> F:
    """:func:`njit` for a helper that allocates nothing, only reads and writes the
    arrays it is given: compiled without numba's reference counting (``_nrt=False``), so
    its calls cost no atomic count of each array argument (about 4 ns an array and call:
    the deal cost 40 ns more a round with it)."""
    if not HAVE_JIT:
        return fn
    import numba
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
    import numba

    return cast(F, numba.njit(cache=True, nogil=True, inline="always")(fn))


def python_source(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The plain-Python function behind a (possibly) compiled one."""
    inner: Callable[..., Any] = getattr(fn, "py_func", fn)
    return inner
