"""How a batch reports its progress: per deck and overall, without knowing the screen.

The library calls a :class:`BatchObserver`; the CLI draws progress bars from it, tests
collect the calls. Workers in other processes send :data:`Event` tuples that the
batch turns into observer calls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from deckgen.batch.outcome import Outcome

EventKind = Literal["start", "step", "advance"]
Event = tuple[str, EventKind, str, int | None]
"""``(order id, kind, description, steps or total)`` sent by a worker."""


class BatchObserver(Protocol):
    def batch_started(self, rows: int, to_build: int) -> None:
        """``to_build`` of ``rows`` rows will be built (the others are skipped or invalid)."""

    def deck_event(self, event: Event) -> None:
        """A worker started a deck, began a step of it or advanced the step."""

    def deck_finished(self, outcome: Outcome) -> None:
        """A row is done (built, skipped, failed)."""


class SilentObserver:
    """Shows nothing; keeps the outcomes and the events for tests."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.finished: list[Outcome] = []

    def batch_started(self, rows: int, to_build: int) -> None:
        pass

    def deck_event(self, event: Event) -> None:
        self.events.append(event)

    def deck_finished(self, outcome: Outcome) -> None:
        self.finished.append(outcome)
