"""What became of each row, and the batch's summary (a line per row, or JSON)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

Status = Literal["built", "skipped", "failed", "invalid"]


@dataclass(frozen=True)
class Outcome:
    """One row's result: built, skipped (its finished deck is current), failed or invalid."""

    row: int
    order: str
    status: Status
    reason: str = ""
    folder: str | None = None
    quantity: int = 1
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)
    zip: str | None = None

    def line(self) -> str:
        head = f"row {self.row:>3}  {self.order:<28} {self.status:<8}"
        if self.status in ("built", "skipped"):
            tail = f"{self.folder}" + (
                f"  ({len(self.warnings)} warning(s))" if self.warnings else ""
            )
            if self.status == "built":
                tail += f"  {self.seconds:.1f} s"
            return f"{head} {tail}"
        return f"{head} {self.reason}"


@dataclass(frozen=True)
class BatchSummary:
    """Every row's outcome, in row order, and where the decks went."""

    sheet: Path
    out_dir: Path
    outcomes: list[Outcome]
    seconds: float = 0.0

    def count(self, status: Status) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def ok(self) -> bool:
        return all(o.status in ("built", "skipped") for o in self.outcomes)

    def totals_line(self) -> str:
        return (
            f"{len(self.outcomes)} rows: {self.count('built')} built, "
            f"{self.count('skipped')} skipped (already built), {self.count('failed')} failed, "
            f"{self.count('invalid')} invalid; decks in {self.out_dir} ({self.seconds:.1f} s)"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "sheet": str(self.sheet),
            "out_dir": str(self.out_dir),
            "seconds": round(self.seconds, 3),
            "totals": {s: self.count(s) for s in ("built", "skipped", "failed", "invalid")},
            "rows": [asdict(o) for o in self.outcomes],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"
