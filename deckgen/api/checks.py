"""``deckgen.check_rules``: play a rules file out at scale and judge what its rules say.

A thin wrapper over :mod:`deckgen.rulecheck`: keyword options in, a
:class:`RulesCheck` out, which holds the versioned JSON report
(docs/rules-check.md), its verdict and exit code, and writes the JSON and Markdown
files (with the example game records beside them) as ``deckgen rules check`` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypedDict, Unpack

from deckgen.errors import InputError

if TYPE_CHECKING:
    from deckgen.progress import Reporter
    from deckgen.rulespec import RuleSpec

Verdict = Literal["ok", "notice", "warn", "fail", "gaps", "broken"]


class CheckSettings(TypedDict, total=False):
    """The keyword options of :func:`check_rules` (all optional)."""

    rounds: int
    """Rounds to play per player count and bot line-up (default 100,000)."""
    players: Sequence[int] | None
    """Player counts to check (default: every count the rules allow)."""
    bots: Sequence[str]
    """Bot line-ups: ``random`` for every seat, or per seat joined by ``+``
    (``smart+random``). Default ``("random",)``."""
    seed: int
    """Same seed, same report, whatever the number of workers (default 0)."""
    workers: int | None
    """Worker processes (default: all cores)."""
    fast: bool
    """Let the numpy fast path give the statistics where it applies (default True)."""
    seconds_per_turn: float
    """The assumption behind the playing-time estimate (default 10)."""
    confirm: bool
    """Replay every design finding with skilled players (``smart`` in every seat) to
    tell the rules from the bots (default True)."""
    readings: bool
    """Play the same deals under both readings of every clause the file does not settle
    and the kernel can play two ways (``ambiguous_clause``; default True)."""


@dataclass(frozen=True)
class RulesCheck:
    """The outcome of :func:`check_rules`."""

    rules: RuleSpec
    report: dict[str, Any]
    """The JSON report (format ``deckgen-rules-check``, docs/rules-check.md)."""

    @property
    def verdict(self) -> Verdict:
        """``ok``; ``notice``, ``warn`` or ``fail`` (the worst finding); ``gaps``
        (situations the file does not decide) or ``broken``."""
        verdict: Verdict = self.report["verdict"]
        return verdict

    @property
    def exit_code(self) -> int:
        """0 ok, 6 notice, 5 warn, 7 fail, 3 gaps, 4 broken: what ``deckgen rules
        check`` exits with."""
        return int(self.report["exit_code"])

    @property
    def reasons(self) -> list[str]:
        """Why the verdict is not ``ok`` (empty when it is)."""
        return list(self.report["reasons"])

    def write(
        self,
        *,
        json_path: str | PathLike[str] | None = None,
        md_path: str | PathLike[str] | None = None,
    ) -> list[Path]:
        """Write the JSON and/or Markdown report, and an example game record per gap and
        per broken invariant beside the first of them; give the paths written."""
        if json_path is None and md_path is None:
            return []
        from deckgen.rulecheck.files import write_report

        targets = [Path(p) if p is not None else None for p in (json_path, md_path)]
        for target in targets:
            if target is not None and target.is_dir():
                raise InputError(
                    f"'{target}' is a folder", where="option --report/--md", fix="give a file name"
                )
        return write_report(self.rules, self.report, json_path=targets[0], md_path=targets[1])


def check_rules(
    rules: str | PathLike[str] | RuleSpec,
    *,
    reporter: Reporter | None = None,
    **settings: Unpack[CheckSettings],
) -> RulesCheck:
    """Play ``rules`` out at scale and report what its rules get wrong.

    A bad option (rounds out of range, an unknown bot, a player count the rules do not
    allow) is a :class:`~deckgen.errors.DeckgenError`. Nothing is written: see
    :meth:`RulesCheck.write`.
    """
    from deckgen.api.games import load_rules
    from deckgen.rulecheck.check import CheckOptions
    from deckgen.rulecheck.checked import checked_report

    spec = load_rules(rules)
    seconds_per_turn = settings.get("seconds_per_turn", 10.0)
    if not 0.1 <= seconds_per_turn <= 3600:
        raise InputError(
            "--seconds-per-turn is out of range",
            where="option --seconds-per-turn",
            fix="use 0.1 to 3600",
        )
    players = settings.get("players")
    options = CheckOptions(
        rounds=settings.get("rounds", 100_000),
        players=tuple(players) if players else None,
        bots=tuple(b.strip() for b in settings.get("bots", ("random",)) if b.strip()),
        seed=settings.get("seed", 0),
        workers=settings.get("workers"),
        fast=settings.get("fast", True),
        seconds_per_turn=seconds_per_turn,
    )
    report = checked_report(
        spec,
        options,
        reporter=reporter,
        confirm=settings.get("confirm", True),
        readings=settings.get("readings", True),
    )
    if reporter is not None:
        reporter.finish()
    return RulesCheck(rules=spec, report=report)
