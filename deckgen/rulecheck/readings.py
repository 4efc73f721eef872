"""Rules that can be read two ways: the readings the kernel can play, and the finding.

Takes a rules file (and a check report); gives ``ambiguous_clause`` findings. A clause
can often be read two ways at the table, and the engine plays one of them. Where the
two readings lead to different games, the file must say which one it means.

:data:`READINGS` is the registry: per reading the clause it belongs to (its two
sentences, the reading the kernel plays and the other, are templates of
:mod:`deckgen.rulecheck.messages` in English and German), which files it applies to (a
predicate on the rules' parameters), how the kernel plays the other reading (a field
of :class:`~deckgen.engine.tables.Tables`), the outcome figures it changes and what
settles it in a file. :func:`reading_findings` plays the same deals (same seeds,
random bots, the reference kernel) under both readings and reports a reading whose
figures differ beyond chance (a paired z-test on the same deals, p < :data:`ALPHA`) or
that changes the result of more than :data:`PARTED_MIN` of the rounds (players meet
the question in those rounds even when the averages hardly move), unless the file
already says which one it means: a ``[[note]]`` whose ``clauses`` name the reading's
clause, or a clause text with one of the reading's settling phrases
(:attr:`Reading.settled_by`).

The replay runs only for files a reading applies to and that do not settle it, on
about :data:`REPLAY_TURNS` turns per reading (a second or so).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from math import floor
from typing import Any

from deckgen.engine.finish import Finisher
from deckgen.engine.results import END_BLOCKED, END_OUT, Gap, RoundResult
from deckgen.engine.setup import RoundStart, setup_round
from deckgen.engine.state import RoundState
from deckgen.engine.tables import Tables, compile_tables
from deckgen.rulecheck.messages import said, say
from deckgen.rulespec import RuleSpec
from deckgen.rulespec.model import RulesFile

ALPHA = 0.01
"""A figure differs when the paired test gives p below this."""
PARTED_MIN = 0.01
"""The readings matter when they change the result of more than this share of rounds
(one-sided test at :data:`ALPHA`), even when the averages stay within chance."""
REPLAY_TURNS = 50_000
"""Turns to play under each reading (the rounds follow from the file's round length)."""
REPLAY_MIN, REPLAY_MAX = 200, 3_000
"""Rounds played under each reading, at least and at most."""

FIGURES: dict[str, Callable[[RoundResult], float]] = {
    "blocked": lambda r: float(r.end == END_BLOCKED),
    "out": lambda r: float(r.end == END_OUT),
    "draws": lambda r: float(r.draws),
    "passes": lambda r: float(r.passes),
    "points": lambda r: float(sum(map(abs, r.points))),
}
"""The outcome figures a reading may change: its value in one round (what the message
calls it: template ``figure.<key>`` of :mod:`deckgen.rulecheck.messages`)."""


@dataclass(frozen=True)
class Reading:
    """One clause that can be read two ways, and how the kernel plays the other way."""

    id: str
    clause: str
    """The clause id the two readings are of. The reading the kernel plays (and the
    rules files mean) and the other one are a sentence each, in English and German:
    templates ``reading.<id>.played`` and ``reading.<id>.other`` of
    :mod:`deckgen.rulecheck.messages`."""
    applies: Callable[[RulesFile], bool]
    """Whether the reading arises in a file with these parameters."""
    other_tables: Callable[[Tables], Tables]
    """The kernel's tables that play the other reading."""
    figures: tuple[str, ...]
    """Keys of :data:`FIGURES` the other reading changes."""
    settled_by: tuple[str, ...] = ()
    """Phrases (lower case, English or German) of a clause text that say the file means
    the reading the kernel plays."""
    players: int = 2
    """The player count where the readings differ most (else the file's smallest)."""


def _trains(p: RulesFile) -> bool:
    return p.board.shape == "trains"


def _trains_limited_draw(p: RulesFile) -> bool:
    return _trains(p) and p.deal.rest == "stock" and p.turn.draw == "limited"


def _reserve(p: RulesFile) -> bool:
    return p.deal.rest == "stock" and p.deal.stock_reserve > 0 and p.turn.draw != "none"


READINGS: tuple[Reading, ...] = (
    Reading(
        id="blocked-after-passes",
        clause="end.blocked",
        applies=_trains,
        other_tables=lambda t: replace(t, block_on_passes=True),
        figures=("blocked", "points"),
        settled_by=(
            "a pass has just opened",
            "den ein aussetzen eben geöffnet hat",
        ),
    ),
    Reading(
        id="draw-per-tile",
        clause="play.draw_limit",
        applies=_trains_limited_draw,
        other_tables=lambda t: replace(t, draw_per_turn=True),
        figures=("draws", "passes", "blocked", "points"),
        settled_by=(
            "even if the double itself was just drawn",
            "auch wenn er den pasch selbst gerade gezogen hat",
        ),
    ),
    Reading(
        id="reserve-after-own-draws",
        clause="end.reserve",
        applies=_reserve,
        other_tables=lambda t: replace(t, reserve_pass=True),
        figures=("out", "passes", "points"),
        settled_by=(
            "own draws have just",
            "own drawing has just",
            "durch ziehen so weit geleert",
            "selbst durch sein ziehen",
        ),
    ),
)
"""Every clause the kernel can play two ways."""


def applicable(spec: RuleSpec) -> list[Reading]:
    """The readings that arise in ``spec`` (its parameters, and the clause is printed)."""
    return [r for r in READINGS if spec.has_clause(r.clause) and r.applies(spec.params)]


def settled(spec: RuleSpec, reading: Reading) -> bool:
    """Whether the file says which reading it means: a note naming the clause, or a
    clause text with a settling phrase."""
    if any(reading.clause in n.clauses for n in spec.params.note):
        return True
    text = " ".join(
        f"{c.text.get('en')} {c.text.get('de')}".lower()
        for c in spec.params.clause
        if c.id == reading.clause
    )
    return any(phrase in text for phrase in reading.settled_by)


@dataclass(frozen=True)
class Comparison:
    """One figure under the file's reading and the other, with the paired test."""

    figure: str
    played: float
    other: float
    p_value: float


def play_rounds(tables: Tables, seeds: list[int]) -> list[RoundResult]:
    """One first round per seed on the reference kernel with ``tables``, every seat a
    random bot: the deal from ``Random(seed)``, the choices from ``Random(seed + 1)``."""
    finisher = Finisher(tables)
    out = []
    for seed in seeds:
        fired: set[str] = set()
        gaps: list[Gap] = []
        setup = setup_round(
            tables, random.Random(seed), RoundStart(), fired=fired, gaps=gaps, keep_deal=False
        )
        state = RoundState(tables, finisher, setup, fired=fired, gaps=gaps)
        pick = random.Random(seed + 1).random
        while not state.end:
            moves = state.legal_moves()
            state.step(moves[floor(pick() * len(moves))])
        out.append(state.result())
    return out


def paired_p(a: list[float], b: list[float]) -> float:
    """Two-sided p-value that the mean of ``b - a`` is zero (normal approximation;
    the pairs are the same deals)."""
    n = len(a)
    if n < 2:
        return 1.0
    d = [y - x for x, y in zip(a, b, strict=True)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    if var == 0:
        return 1.0 if mean == 0 else 0.0
    z = mean / math.sqrt(var / n)
    return math.erfc(abs(z) / math.sqrt(2))


@dataclass(frozen=True)
class Replay:
    """The same deals played under the file's reading and the other."""

    players: int
    rounds: int
    parted: int
    """Rounds whose result (how it ended, the points) differs between the readings."""
    parted_p: float
    """One-sided p-value that the readings change more than :data:`PARTED_MIN` of rounds."""
    figures: list[Comparison]

    @property
    def differ(self) -> list[Comparison]:
        """The figures that differ beyond chance."""
        return [c for c in self.figures if c.p_value < ALPHA]

    @property
    def matters(self) -> bool:
        """Whether the readings make different games: a figure differs, or the result
        of more than :data:`PARTED_MIN` of rounds changes."""
        return bool(self.differ) or self.parted_p < ALPHA


def compare(
    spec: RuleSpec,
    reading: Reading,
    *,
    seed: int = 0,
    shared: dict[int, list[RoundResult]] | None = None,
) -> Replay:
    """Play the same deals (and random choices) under the file's reading and the other,
    about :data:`REPLAY_TURNS` turns each, and compare the reading's figures.
    ``shared``: the file's reading's rounds by player count, played once for all the
    readings of one file and seed (extended in place)."""
    from deckgen.rulecheck.diagnostics import z_upper

    counts = spec.player_counts
    n = reading.players if reading.players in counts else min(counts)
    t = compile_tables(spec, n)
    other = reading.other_tables(t)
    base = seed * 1_000_003 + 7
    done = (shared if shared is not None else {}).setdefault(n, [])
    alt: list[RoundResult] = []
    turns = 0
    batch = REPLAY_MIN
    while batch > 0:
        k = len(alt)
        seeds = [base + 2 * i for i in range(k, k + batch)]
        done += play_rounds(t, seeds[len(done) - k :])
        alt += play_rounds(other, seeds)
        turns += sum(r.turns for r in done[k : k + batch])
        left = math.ceil((REPLAY_TURNS - turns) * len(alt) / turns)
        batch = max(0, min(REPLAY_MAX - len(alt), left))
    played = done[: len(alt)]
    figures = []
    for key in reading.figures:
        value = FIGURES[key]
        a = [value(r) for r in played]
        b = [value(r) for r in alt]
        figures.append(Comparison(key, sum(a) / len(a), sum(b) / len(b), paired_p(a, b)))
    parted = sum((x.end, x.points) != (y.end, y.points) for x, y in zip(played, alt, strict=True))
    return Replay(n, len(played), parted, z_upper(parted, len(played), PARTED_MIN), figures)


def _fmt(key: str, x: float) -> dict[str, Any]:
    if key in ("blocked", "out"):
        return said("value.pct", v=100 * x)
    return said("value.num", v=x)


def _p(p: float) -> dict[str, Any]:
    return said("p.tiny") if p < 1e-6 else said("p.value", p=p)


def finding(reading: Reading, replay: Replay) -> dict[str, Any]:
    """The ``ambiguous_clause`` finding of ``reading`` from its replay (its sentence and
    the reading's two sentences are templates of :mod:`deckgen.rulecheck.messages`)."""
    differ = replay.differ
    same = [c for c in replay.figures if c not in differ]
    share = replay.parted / replay.rounds
    changes = [
        said("change.figure", figure=said(f"figure.{c.figure}"), played=_fmt(c.figure, c.played),
             other=_fmt(c.figure, c.other), p=_p(c.p_value))
        for c in differ
    ]  # fmt: skip
    changes.append(said("change.result", pct=100 * share))
    told = said("changes.plain", changes=changes)
    if not differ and same:
        kept = [
            said("kept.figure", figure=said(f"figure.{c.figure}"),
                 played=_fmt(c.figure, c.played), other=_fmt(c.figure, c.other))
            for c in same
        ]  # fmt: skip
        told = said("changes.kept", changes=changes, kept=kept)
    n = replay.players
    strongest = min(replay.figures, key=lambda c: c.p_value, default=None)
    text = said(
        "ambiguous_clause", clause=reading.clause, other=said(f"reading.{reading.id}.other"),
        played=said(f"reading.{reading.id}.played"), changes=told, rounds=replay.rounds, n=n,
    )  # fmt: skip
    return {
        "id": "ambiguous_clause",
        "players": n,
        "clause": reading.clause,
        "reading": reading.id,
        "message": say(text, "en"),
        "value": round(share, 5),
        "threshold": PARTED_MIN,
        "p_value": float(f"{(strongest.p_value if differ and strongest else replay.parted_p):.3g}"),
        "rounds": replay.rounds,
        "parted": replay.parted,
        "figures": {
            c.figure: {
                "played": round(c.played, 5),
                "other": round(c.other, 5),
                "p_value": float(f"{c.p_value:.3g}"),
            }
            for c in replay.figures
        },
        "text": text,
    }


def reading_findings(spec: RuleSpec, *, seed: int = 0) -> list[dict[str, Any]]:
    """``ambiguous_clause`` findings (graded ``warn``) for the readings of ``spec``
    that it does not settle and that make different games."""
    out = []
    shared: dict[int, list[RoundResult]] = {}
    for reading in applicable(spec):
        if settled(spec, reading):
            continue
        replay = compare(spec, reading, seed=seed, shared=shared)
        if replay.matters:
            out.append(finding(reading, replay))
    return out
