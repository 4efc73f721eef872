"""The CLI's side of :class:`deckgen.progress.Reporter`: rich progress bars on stderr.

``--quiet`` hides progress and notes; warnings always go to stderr. Standard output is
kept for results (tables, ``--json``) so that scripts can read it.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console


class ConsoleReporter:
    """Progress bars and notes on stderr, unless quiet."""

    def __init__(self, *, quiet: bool = False) -> None:
        self.quiet = quiet
        self.err = Console(stderr=True, highlight=False, soft_wrap=True)
        self.warnings: list[str] = []
        self._progress: Any = None
        self._task: Any = None

    def start(self, description: str, total: int | None) -> None:
        self.finish()
        if self.quiet or not self.err.is_terminal:
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
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
            self._task = None

    def warn(self, message: str) -> None:
        self.warnings.append(message)
        self.err.print(f"[yellow]warning:[/yellow] {_escape(message)}")

    def info(self, message: str) -> None:
        if not self.quiet:
            self.err.print(_escape(message))


def _escape(text: str) -> str:
    """Rich markup escaped, and terminal escapes made visible (``errors.safe_text``)."""
    from rich.markup import escape

    from deckgen.errors import safe_text

    return escape(safe_text(text))
