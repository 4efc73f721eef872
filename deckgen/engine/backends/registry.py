"""The fast engines in order of preference, what each plays, and the one choice.

Takes a rules file, its compiled :class:`~deckgen.engine.tables.Tables`, the seats'
bots and how many fast rounds one worker process will play; gives the engine to play
them (:func:`choose`, then :func:`make`), or why none can (:func:`unsupported`). Every
engine here implements :class:`~deckgen.engine.backends.protocol.FastEngine` and is
proved equal to the kernel round for round by one conformance test
(``tests/engine/test_conformance.py``), which plays every engine of :data:`ENGINES` on
every case it supports.

Importing this module imports neither numpy nor numba: an engine's module is imported
when the engine is made.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from deckgen.engine.backends.jit import HAVE_JIT
from deckgen.engine.backends.rounds import FAST_BOTS

if TYPE_CHECKING:
    from deckgen.engine.backends.protocol import BatchEngine
    from deckgen.engine.tables import Tables
    from deckgen.rulespec import RuleSpec

Why = Callable[["RuleSpec", "Tables", tuple[str, ...]], "str | None"]

TRAINS = ("trains", "chicken_foot")
"""The layouts with owned arms (only the compiled trains engine plays them)."""

JIT_MIN_ROUNDS = 100_000
"""Fast rounds per worker process from which the compiled board engine pays for its
start on a line game of at most 64 tiles: numpy plays some 150,000 to 300,000 rounds a
second per core (whole matches, counted), the compiled engine over 1,000,000, and the
check loads numba's machine code once, before the fast path's workers fork (about 0.4
s, while the judge plays on the other cores) ..."""
JIT_MIN_ROUNDS_DRAWING = 30_000
"""... and from this many where a player draws until a tile fits: numpy steps through
every draw of every round side by side (a 30,000-round check of draw-classic: 1.1 s
compiled, 1.2 s numpy; of card-domino, which draws at most a few, 1.3 s and 0.7 s)."""


def numpy_limit(t: Tables) -> int:
    """Rounds per worker from which the compiled engine is chosen over numpy's."""
    return JIT_MIN_ROUNDS_DRAWING if t.draw == "until_playable" else JIT_MIN_ROUNDS


def _batch(spec: RuleSpec, t: Tables, bots: tuple[str, ...]) -> str | None:
    """What no batch engine plays: later rounds that depend on earlier ones, a stock
    that may hold nothing to turn up, bots without a fast version."""
    if t.draw_per_turn or t.reserve_pass or t.block_on_passes:
        return "another reading of the rules (the kernel plays it)"
    op = spec.params.opening
    skip = op.lead == "turned_up" and op.turned_up_doubles == "skip"
    if skip and len(t.tiles) - t.players * t.hand_size <= spec.dset.max_pip + 1:
        return "the stock may hold no tile that can be turned up"
    if op.later_starter == "round_winner":
        return "later rounds start with the previous winner"
    for b in bots:
        if b not in FAST_BOTS:
            return f"the bot '{b}' has no fast version"
    return None


def _no_trains(t: Tables) -> str | None:
    return "a train or chicken-foot layout (compiled only)" if t.shape in TRAINS else None


def _numba() -> str | None:
    return None if HAVE_JIT else "numba is not installed (or DECKGEN_NO_JIT is set)"


def _numpy_line(spec: RuleSpec, t: Tables, bots: tuple[str, ...]) -> str | None:
    if t.shape != "line" or len(t.tiles) > 64:
        return "not a line of at most 64 tiles"
    if t.ends_multiple or t.scoring.round_to is not None:
        return "points during play or rounded points (the compiled board engine)"
    return _batch(spec, t, bots)


def _jit_board(spec: RuleSpec, t: Tables, bots: tuple[str, ...]) -> str | None:
    return _numba() or _no_trains(t) or _batch(spec, t, bots)


def _jit_trains(spec: RuleSpec, t: Tables, bots: tuple[str, ...]) -> str | None:
    p = spec.params
    if t.shape not in TRAINS:
        return "not a train or chicken-foot layout"
    if len(t.tiles) > 128:
        return "more than 128 tiles"
    if p.opening.lead != "station" or p.opening.first_starter != "seat":
        return "the round does not start from the station double with seat 0"
    if p.deal.rest != "stock" or p.deal.redeal_doubles:
        return "no stock, or deals thrown in"
    if not t.must_play_drawn:
        return "a drawn tile may be kept"
    sc = p.scoring
    if sc.method != "penalty" or sc.round_to is not None or sc.ends_multiple is not None:
        return "scoring other than penalty points"
    if p.match.end != "rounds" or p.match.tie == "play_on":
        return "a match to a target score or played on after a tie"
    return _numba() or _batch(spec, t, bots)


def _lean(spec: RuleSpec, t: Tables, bots: tuple[str, ...]) -> str | None:
    from deckgen.engine.backends import lean

    if any(b != "random" for b in bots):
        return "random bots only"
    return lean.supports(t)


@dataclass(frozen=True)
class Backend:
    """One fast engine: its name, where it lives, what it plays."""

    name: str
    module: str
    """The module under ``deckgen.engine.backends`` that holds the engine."""
    cls: str
    """The engine's class there: made from ``(spec, tables)``."""
    why_not: Why
    """Why the engine cannot play a rules file with these bots (None: it can)."""
    batch: bool = True
    """It plays whole matches (:class:`~deckgen.engine.backends.protocol.BatchEngine`);
    else it only replays the kernel's rounds (the lean loop, which the kernel's
    :meth:`~deckgen.engine.core.Engine.play_round` calls itself)."""
    fewer_than: Callable[[Tables], int] | None = None
    """Chosen only below this many rounds per worker where numba runs (None: always):
    an engine that starts at once, for runs too small to pay for numba's start."""
    compiled: bool = False
    """It runs numba's machine code: the first process to play it loads numba and the
    code (about 0.4 s), which a process forked afterwards inherits."""

    def supports(self, spec: RuleSpec, t: Tables, bots: tuple[str, ...]) -> str | None:
        """Why this engine cannot play ``spec`` with ``bots`` (None: it can)."""
        return self.why_not(spec, t, bots)

    def make(self, spec: RuleSpec, t: Tables) -> Any:
        """The engine for ``spec`` and ``t`` (imports its module: numpy, maybe numba)."""
        module = importlib.import_module(f"deckgen.engine.backends.{self.module}")
        return getattr(module, self.cls)(spec, t)


ENGINES: tuple[Backend, ...] = (
    Backend("compiled trains", "jit_trains", "JitTrains", _jit_trains, compiled=HAVE_JIT),
    Backend("numpy line", "numpy_line", "FastLine", _numpy_line, fewer_than=numpy_limit),
    Backend("compiled board", "jit_board", "JitBoard", _jit_board, compiled=HAVE_JIT),
    Backend("lean", "lean_replay", "LeanReplay", _lean, batch=False),
)
"""Every fast engine, in order of preference: trains and feet compiled; a line of at
most 64 tiles on numpy below :func:`numpy_limit` rounds per worker (or without
numba); every other line and board on the one compiled board engine; the lean loop
replays the kernel's own rounds."""


def backend(name: str) -> Backend:
    """The registered engine called ``name``."""
    for b in ENGINES:
        if b.name == name:
            return b
    raise KeyError(f"no fast engine called {name!r}: {', '.join(b.name for b in ENGINES)}")


def choose(
    spec: RuleSpec, t: Tables, bots: tuple[str, ...], rounds_per_worker: int = 0
) -> Backend | None:
    """The first engine of :data:`ENGINES` that plays matches of ``spec`` with ``bots``
    (``rounds_per_worker``: fast rounds each worker process will play; an engine that
    starts at once is taken below its :attr:`Backend.fewer_than` where numba runs)."""
    for b in ENGINES:
        if not b.batch or b.supports(spec, t, bots) is not None:
            continue
        if b.fewer_than and HAVE_JIT and rounds_per_worker >= b.fewer_than(t):
            continue
        return b
    return None


def unsupported(spec: RuleSpec, t: Tables, bots: tuple[str, ...]) -> str | None:
    """Why no batch engine plays ``spec`` with ``bots`` (None: one does): the limit
    every batch engine shares, the trains engine's for trains and feet, or numba."""
    if choose(spec, t, bots) is not None:
        return None
    why = _batch(spec, t, bots) or (_jit_trains(spec, t, bots) if t.shape in TRAINS else None)
    return why or _numba() or "no fast engine plays this file"


def make(spec: RuleSpec, t: Tables, name: str) -> BatchEngine:
    """The batch engine called ``name`` for ``spec`` (as :func:`choose` named it)."""
    engine: BatchEngine = backend(name).make(spec, t)
    return engine
