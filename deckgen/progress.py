"""How long-running library code reports progress and warnings without knowing the CLI.

Library functions take an optional :class:`Reporter`; the CLI passes one that draws
rich progress bars (or nothing with ``--quiet``), tests pass :class:`CollectingReporter`
and read its warnings. The library never prints.
"""

from __future__ import annotations

from typing import Protocol


class Reporter(Protocol):
    def start(self, description: str, total: int | None) -> None:
        """Begin a task of ``total`` steps (``None``: unknown)."""

    def advance(self, steps: int = 1) -> None:
        """``steps`` more steps of the current task are done."""

    def finish(self) -> None:
        """The current task is done."""

    def warn(self, message: str) -> None:
        """Something the user should know that does not stop the work."""

    def info(self, message: str) -> None:
        """A short note of what was done (suppressed by ``--quiet``)."""


class CollectingReporter:
    """A reporter that shows nothing and keeps warnings and notes for later."""

    def __init__(self) -> None:
        self.warnings: list[str] = []
        self.infos: list[str] = []
        self.tasks: list[tuple[str, int | None]] = []
        self.steps = 0

    def start(self, description: str, total: int | None) -> None:
        self.tasks.append((description, total))

    def advance(self, steps: int = 1) -> None:
        self.steps += steps

    def finish(self) -> None:
        pass

    def warn(self, message: str) -> None:
        self.warnings.append(message)

    def info(self, message: str) -> None:
        self.infos.append(message)
