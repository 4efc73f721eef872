"""The rules check's JSON report read back as an input file (``rules booklet --check``).

``deckgen rules check --json`` writes the report; a user may pass it, edited or not,
to ``deckgen rules booklet --check``. Read back it is untrusted like any input:
size-limited, parsed with the bounds of :mod:`deckgen.specfile`, and validated here
against the versioned schema of the parts a reader uses (format
``deckgen-rules-check``, version 1; other keys may be added by later versions and are
kept). Wrong types, shares outside 0..1, negative or absurd counts are one SpecError
with the key path, exit 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from deckgen.errors import SpecError
from deckgen.specfile import load_json, validate

MAX_REPORT_BYTES = 20_000_000
REPORT_FORMAT = "deckgen-rules-check"
REPORT_VERSION = 1

Share01 = Annotated[float, Field(ge=0.0, le=1.0)]


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class ShareFigure(_Open):
    share: Share01 | None = None
    ci95: list[Share01] | None = Field(default=None, min_length=2, max_length=2)


class MeanFigure(_Open):
    n: int | None = Field(default=None, ge=0, le=10**12)
    mean: float | None = Field(default=None, ge=0.0, le=1e9)
    ci95: list[Annotated[float, Field(ge=0.0, le=1e9)]] | None = Field(
        default=None, min_length=2, max_length=2
    )


class RoundEnds(_Open):
    not_out: ShareFigure


class Stats(_Open):
    bots: str = Field(max_length=200)
    rounds: int = Field(ge=1, le=10**12)
    turns_per_round: MeanFigure
    round_end: RoundEnds
    first_player_win_share: ShareFigure
    first_player_fair_share: float = Field(gt=0.0, le=1.0)
    rounds_per_match: MeanFigure | None = None
    playing_time_minutes: MeanFigure | None = None


class PlayerSection(_Open):
    stats: Stats


class PlayingTime(_Open):
    seconds_per_turn: float = Field(ge=0.1, le=3600)
    setup_seconds_per_round: float = Field(ge=0.0, le=36_000)


class ReportRules(_Open):
    id: str = Field(max_length=100)


class CheckReportFile(_Open):
    format: Literal["deckgen-rules-check"]
    version: Literal[1]
    rules: ReportRules
    playing_time: PlayingTime
    players: dict[str, PlayerSection] = Field(min_length=1, max_length=8)

    @field_validator("players")
    @classmethod
    def _counts(cls, value: dict[str, PlayerSection]) -> dict[str, PlayerSection]:
        for key in value:
            if not (key.isdigit() and 2 <= int(key) <= 8):
                raise ValueError(f"'{key[:20]}' is not a player count (2 to 8)")
        return value


def load_check_report(path: str | Path, *, where: str = "option --check") -> dict[str, Any]:
    """Read and validate a check report; gives its data (SpecError when it is not one)."""
    path = Path(path)
    fix = "pass the file written by `deckgen rules check --report FILE` (docs/rules-check.md)"
    data = load_json(path, what="check report", max_bytes=MAX_REPORT_BYTES, fix=fix, where=where)
    if not isinstance(data, dict):
        raise SpecError("the check report is not a JSON object", where=f"{path} ({where})", fix=fix)
    validate(CheckReportFile, data, path=f"{path} ({where})", what="check report", fix=fix)
    return data
