"""The CLI's side of :class:`deckgen.progress.Reporter`: progress as a command runs.

On a terminal, a rich progress bar per step on stderr. When standard output is not a
terminal (a pipe, a log file, CI), one line on stdout when a step starts and one when
it is done, printed as it happens, so a log shows where a long command is instead of
a burst of lines at its end; stderr stays for warnings and the ``error:`` paragraph.
``--quiet`` hides progress and notes, and ``--json`` keeps stdout pure JSON.

With ``hold_warnings`` the warnings are kept until :meth:`ConsoleReporter.flush_warnings`:
a command that may end in an error prints its ``error:`` paragraph first, whole, and
the warnings after it.
"""

from __future__ import annotations

import sys
import time
from functools import cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console


class ConsoleReporter:
    """Progress bars and notes on stderr, unless quiet."""

    def __init__(
        self, *, quiet: bool = False, json: bool = False, hold_warnings: bool = False
    ) -> None:
        self.quiet = quiet
        self.json = json
        self.hold_warnings = hold_warnings
        self._held: list[str] = []
        self.warnings: list[str] = []
        self._progress: Any = None
        self._task: Any = None
        self._step: tuple[str, float] | None = None
        """The step in progress when lines are printed instead of a bar."""

    @cached_property
    def err(self) -> Console:
        """The console on stderr, made when first needed (a quiet run that warns of
        nothing never imports rich)."""
        from rich.console import Console

        return Console(stderr=True, highlight=False, soft_wrap=True)

    def start(self, description: str, total: int | None) -> None:
        self.finish()
        if self.quiet:
            return
        if not self.json and not sys.stdout.isatty():
            count = f" ({total:,} steps)" if total and total > 1 else ""
            _line(f"{description}{count} ...")
            self._step = (description, time.perf_counter())
        if not self.err.is_terminal:
            return
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=self.err,
            transient=True,
        )
        self._progress.start()
        self._task = self._progress.add_task(description, total=total)

    def advance(self, steps: int = 1) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, steps)

    def finish(self) -> None:
        if self._step is not None:
            description, began = self._step
            self._step = None
            _line(f"{description}: done in {time.perf_counter() - began:.1f} s")
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
            self._task = None

    def warn(self, message: str) -> None:
        self.warnings.append(message)
        if self.hold_warnings:
            self._held.append(message)
            return
        self.err.print(f"[yellow]warning:[/yellow] {_escape(message)}")

    def flush_warnings(self) -> None:
        """Print the warnings held back so far."""
        held, self._held = self._held, []
        for message in held:
            self.err.print(f"[yellow]warning:[/yellow] {_escape(message)}")

    def info(self, message: str) -> None:
        if not self.quiet:
            self.err.print(_escape(message))


def _escape(text: str) -> str:
    """Rich markup escaped, and terminal escapes made visible (``errors.safe_text``)."""
    from rich.markup import escape

    from deckgen.errors import safe_text

    return escape(safe_text(text))


def _line(text: str) -> None:
    """One progress line on stdout, flushed at once (a log shows it as it happens)."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
