"""The command line's start-up: Python's cyclic garbage collector waits for the work.

A ``deckgen`` command first loads: it imports its libraries and builds their classes,
schemas and tables, some 300,000 objects that live until the process ends, and frees
almost none of them. Python's cyclic collector would meanwhile scan the survivors over
and over (about 15 ms of a 0.3 s rules check, a twentieth of its time). So the command
line (:func:`deckgen.__main__.main`) starts with the collector off, and :func:`working`
turns it back on where the work begins: first moving everything made so far out of its
sight for good (``gc.freeze``), so that later collections, and the worker processes
forked afterwards, never scan it again (a forked worker would otherwise also copy the
memory pages that a collection touches).

The work begins when a command's function is called (the command line calls
:func:`working` first), except for a command marked :func:`loads_first`, which loads
its input and libraries first and calls :func:`working` itself: the rules check, whose
small runs are mostly start-up, does so just before it plays. Used as a library, deckgen
never touches the collector: :func:`working` only ends a start-up that
:func:`deckgen.__main__.main` began.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_loading = False
"""The command line turned the collector off for its start-up and has not begun work."""

_MARK = "_deckgen_loads_first"
_WRAPPED = "_deckgen_at_work"


def loading() -> None:
    """Start-up begins: the collector waits for :func:`working`."""
    global _loading
    if gc.isenabled():
        gc.disable()
        _loading = True


def working() -> None:
    """The work begins: what start-up made is frozen, and the collector runs as usual.
    Does nothing unless :func:`loading` turned the collector off (so never for a
    program that uses deckgen as a library)."""
    global _loading
    if _loading:
        _loading = False
        gc.freeze()
        gc.enable()


def loads_first(command: F) -> F:
    """Mark a command that calls :func:`working` itself once its input is loaded."""
    setattr(command, _MARK, True)
    return command


def at_work(callback: F) -> F:
    """``callback`` (a command's function, or what calls it keeping its attributes),
    calling :func:`working` first unless the command is marked :func:`loads_first`."""
    if getattr(callback, _MARK, False) or getattr(callback, _WRAPPED, False):
        return callback

    @functools.wraps(callback)
    def run(*args: Any, **kwargs: Any) -> Any:
        working()
        return callback(*args, **kwargs)

    setattr(run, _WRAPPED, True)
    return run  # type: ignore[return-value]
