"""Whole matches on the fast path: a chunk of matches played by
:class:`~deckgen.rulecheck.fastline.FastLine` and counted into a
:class:`~deckgen.rulecheck.tally.PlayTally` (statistics only: coverage and gaps come
from the reference engine).

Takes a :class:`FastTask`; each chunk has its own numpy stream seeded from
``(seed, players, chunk)``, so the result does not depend on the number of workers.
A match of a fixed number of rounds whose later starters follow from the deals alone
is played as one batch of all its rounds; any other match (to a target score, or
playing on after a tie) is played in waves of blocks: the next ``block`` rounds of
every match still running in one batch, each match cut after the round it ended in,
with the match end decided as the engine's :func:`~deckgen.engine.match.match_over`
decides it (``tests/rulecheck/test_blocks.py`` replays every kept match through it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from deckgen.engine.match import MAX_ROUNDS
from deckgen.engine.tables import compile_tables
from deckgen.rulecheck.batchcount import count_batch
from deckgen.rulecheck.chunks import ChunkTask, _spec
from deckgen.rulecheck.fastline import END_CODES, FastLine, Rounds
from deckgen.rulecheck.jit import HAVE_JIT
from deckgen.rulecheck.stats import Proportion, mean_of
from deckgen.rulecheck.tally import PlayTally
from deckgen.rulespec import RuleSpec

if TYPE_CHECKING:
    import numpy as np

    from deckgen.rulecheck.arrays import Flags, Ints


@dataclass(frozen=True)
class FastTask:
    """``count`` matches of chunk ``index`` of one (player count, bots) run."""

    chunk: ChunkTask
    index: int
    count: int
    compiled: bool = True
    """Play on the compiled engine where numba is installed (see :func:`make_fast`)."""
    block: int = 1
    """Rounds of each running match per batch, for matches to a target (see
    :func:`block_for`)."""
    rounds: int = 0
    """If set, more matches follow the first ``count`` until the chunk holds at least
    this many rounds (matches to a target: a chunk of rounds, however long they last)."""


@dataclass
class Matches:
    """The rounds of a batch of matches and who won each match."""

    rounds: Rounds
    match_of: Ints
    """(rounds,) the match each round belongs to."""
    count: int
    winners: Flags
    """(matches, sides) booleans: the match's winning sides."""

    @staticmethod
    def concat(parts: list[Matches]) -> Matches:
        """One batch from several, in order, matches numbered on."""
        import numpy as np

        offsets = np.cumsum([0] + [p.count for p in parts[:-1]])
        return Matches(
            Rounds.concat([p.rounds for p in parts]),
            np.concatenate([p.match_of + o for p, o in zip(parts, offsets, strict=True)]),
            sum(p.count for p in parts),
            np.concatenate([p.winners for p in parts]),
        )

    def slice(self, first: int, stop: int) -> Matches:
        """Matches ``first .. stop - 1`` with their rounds, renumbered from 0."""
        import numpy as np

        keep = np.nonzero((self.match_of >= first) & (self.match_of < stop))[0]
        rounds = self.rounds.take(keep)
        return Matches(rounds, self.match_of[keep] - first, stop - first, self.winners[first:stop])


_LINES: dict[tuple[str, int, bool], FastLine] = {}


def numpy_line(spec: RuleSpec) -> bool:
    """Whether numpy's :class:`~deckgen.rulecheck.fastline.FastLine` plays this file
    fast: a line of at most 64 tiles, no points during play (matches of a fixed length
    in one batch, matches to a target a few rounds at a time, see :func:`_waves`). It
    starts at once, where the compiled engines first pay for numba's start (about half
    a second per process), so the check takes it for small runs
    (:data:`JIT_MIN_ROUNDS`)."""
    p = spec.params
    line = p.board.shape == "line" and len(spec.dset) <= 64
    return line and p.scoring.ends_multiple is None and p.scoring.round_to is None


JIT_MIN_ROUNDS = 150_000
"""Fast rounds per worker process from which the compiled engine pays for its start
on a line game (numpy plays about 250,000 rounds a second, the compiled engine about
1,000,000, and its start costs about 0.5 s)."""


def compiled_engine(spec: RuleSpec, *, compiled: bool = True) -> bool:
    """Whether :func:`make_fast` plays this file in machine code (numba installed, and
    ``compiled`` asked for or numpy cannot play it)."""
    return HAVE_JIT and (compiled or not numpy_line(spec))


def make_fast(spec: RuleSpec, players: int, *, compiled: bool = True) -> FastLine:
    """The fast player for a rules file. Compiled (numba) when it is installed: trains
    and feet (:mod:`~deckgen.rulecheck.jit_trains`), lines
    (:mod:`~deckgen.rulecheck.jit_line`), other boards and scoring during play
    (:mod:`~deckgen.rulecheck.jit_board`); with ``compiled=False`` a file that
    :func:`numpy_line` accepts is played by numpy. Without numba: bitmasks for line
    boards of up to 64 tiles, boolean arrays
    (:class:`~deckgen.rulecheck.fastboard.FastBoard`) otherwise."""
    tables = compile_tables(spec, players)
    if tables.shape in ("trains", "chicken_foot"):
        from deckgen.rulecheck.jit_trains import JitTrains

        return JitTrains(spec, tables)  # type: ignore[return-value]  # plays whole matches
    if compiled_engine(spec, compiled=compiled):
        from deckgen.rulecheck import jit_line

        if jit_line.plays(tables) and spec.params.scoring.round_to is None:
            return jit_line.JitLine(spec, tables)  # compiled: deal and play in machine code
        rounded = spec.params.scoring.round_to is not None  # the board engine rounds
        if tables.shape != "line" or len(tables.tiles) > 64 or tables.ends_multiple or rounded:
            from deckgen.rulecheck.jit_board import JitBoard

            return JitBoard(spec, tables)
    if tables.shape == "line" and len(tables.tiles) <= 64:
        return FastLine(spec, tables)
    from deckgen.rulecheck.fastboard import FastBoard

    return FastBoard(spec, tables)


def fast_line(task: ChunkTask, *, compiled: bool = True) -> FastLine:
    key = (task.sha256, task.players, compiled)
    line = _LINES.get(key)
    if line is None:
        line = _LINES[key] = make_fast(_spec(task), task.players, compiled=compiled)
    return line


BLOCK_SHARE = 4
"""Matches to a target are played :func:`block_for` rounds at a time: about a quarter
of a match. Measured on International Partnership (16 rounds a match, 800 matches a
chunk): numpy 111,000 rounds a second round by round, 175,000 four rounds at a time
(8 % of the rounds played are thrown away); the compiled engine 636,000 and
760,000."""


def block_for(rounds_per_match: float) -> int:
    """Rounds of each running match per batch, for matches of this mean length."""
    return max(1, round(rounds_per_match / BLOCK_SHARE))


def _leaders(totals: Ints, contenders: Flags) -> Flags:
    import numpy as np

    masked = np.where(contenders, totals, np.iinfo(np.int64).min)
    best = masked.max(axis=1)
    leading: Flags = totals == best[:, None]
    return contenders & leading


def play_matches(
    line: FastLine,
    rng: np.random.Generator,
    matches: int,
    kinds: tuple[str, ...],
    block: int = 1,
) -> Matches:
    """Play ``matches`` matches to their end (matches to a target ``block`` rounds at a
    time, see :func:`_waves`)."""
    m = line.spec.params.match
    own = getattr(line, "match_rounds", None)
    if own is not None:  # a compiled engine that plays whole matches itself (jit_trains)
        import numpy as np

        per = m.rounds or 1
        r: Rounds = own(rng, matches, kinds)
        totals = r.points.reshape(matches, per, -1).sum(axis=1)
        winners = _leaders(totals, np.ones(totals.shape, dtype=bool))
        return Matches(r, np.repeat(np.arange(matches), per), matches, winners)
    if m.end == "rounds" and m.tie != "play_on":
        return _fixed(line, rng, matches, kinds)
    return _waves(line, rng, matches, kinds, block)


def _fixed(
    line: FastLine, rng: np.random.Generator, matches: int, kinds: tuple[str, ...]
) -> Matches:
    """Every round of every match in one batch (match-major order)."""
    import numpy as np

    p = line.spec.params
    per = p.match.rounds or 1
    n = line.n
    g = matches * per
    rno = np.tile(np.arange(per), matches)
    later = rno > 0
    next_seat = p.opening.later_starter == "next_seat"
    deals = line.deal(rng, g, first_rule=~later if next_seat else None)
    lead_any = later & (p.opening.later_lead == "any")
    starter, lead = line.first_rule(deals.hands, lead_any=False)
    if later.any():
        s_later, l_later = line.first_rule(deals.hands[later], lead_any=True)
        if p.opening.later_lead != "any":
            _, l_later = line.first_rule(deals.hands[later], lead_any=False)
        starter[later] = s_later
        lead[later] = l_later
        if next_seat:
            first = starter[~later]
            starter[later] = (np.repeat(first, per)[later] + rno[later]) % n
            lead[later] = -1
    r = line.play(deals, starter, lead, lead_any, kinds, rng)
    totals = r.points.reshape(matches, per, -1).sum(axis=1)
    winners = _leaders(totals, np.ones(totals.shape, dtype=bool))
    return Matches(r, np.repeat(np.arange(matches), per), matches, winners)


def _waves(
    line: FastLine,
    rng: np.random.Generator,
    matches: int,
    kinds: tuple[str, ...],
    block: int = 1,
) -> Matches:
    """The matches still running, ``block`` rounds of each at a time: one batch holds
    the next ``block`` rounds of every running match (a match's rounds in order), and
    a match that ends inside the block keeps its rounds up to the one it ended in; the
    rest are thrown away. A round's deal and starter never depend on the rounds
    before it on the fast path (:func:`~deckgen.rulecheck.fastline.unsupported`), so a
    block plays each match exactly as round after round would. Fewer, larger batches
    are what numpy needs; the thrown-away rounds are the price."""
    import numpy as np

    p = line.spec.params
    m = p.match
    n = line.n
    ns = line.nsides
    same_rule = p.opening.later_starter in ("same_rule", None)
    later_any = p.opening.later_lead == "any"
    totals = np.zeros((matches, ns), dtype=np.int64)
    winners = np.zeros((matches, ns), dtype=bool)
    first_starter = np.zeros(matches, dtype=np.int64)
    active = np.arange(matches)
    parts: list[Rounds] = []
    ids: list[Ints] = []
    played = 0
    while len(active):
        k = len(active)
        b = min(max(1, block), MAX_ROUNDS - played)
        if m.end == "rounds" and m.rounds is not None and played < m.rounds:
            b = min(b, m.rounds - played)  # no match can end before its last round
        rno = played + np.tile(np.arange(b), k)  # each row's round number in its match
        row_match = np.repeat(np.arange(k), b)  # each row's place in ``active``
        first = (rno == 0) | same_rule  # deal and starter by the first-round rule
        any_lead = (rno > 0) & later_any
        deals = line.deal(rng, k * b, first_rule=first)
        starter = np.zeros(k * b, dtype=np.int64)
        lead = np.full(k * b, -1, dtype=np.int64)
        for lead_any in (False, True):
            sel = first & (any_lead == lead_any)
            if sel.all():
                starter, lead = line.first_rule(deals.hands, lead_any=lead_any)
            elif sel.any():
                starter[sel], lead[sel] = line.first_rule(deals.hands[sel], lead_any=lead_any)
        if not same_rule:  # next_seat: the seat after the last round's starter
            if played == 0:
                first_starter[active] = starter[rno == 0]
            later = rno > 0
            starter[later] = (first_starter[active][row_match[later]] + rno[later]) % n
            lead[later] = -1
        r = line.play(deals, starter, lead, any_lead, kinds, rng)
        cum = totals[active][:, None, :] + np.cumsum(r.points.reshape(k, b, ns), axis=1)
        after = played + 1 + np.arange(b)  # rounds played after each row
        if m.end == "rounds":
            assert m.rounds is not None
            contenders = np.broadcast_to((after >= m.rounds)[None, :, None], cum.shape)
        else:
            assert m.target is not None
            contenders = cum >= m.target
        flat = cum.reshape(k * b, ns)
        leaders = _leaders(flat, contenders.reshape(k * b, ns)).reshape(k, b, ns)
        someone: Flags = np.asarray(contenders.any(axis=2), dtype=bool)
        over = someone & ((leaders.sum(axis=2) == 1) | (m.tie != "play_on"))
        limit = after >= MAX_ROUNDS  # the engine's limit: the leaders so far
        if limit.any():
            everyone = _leaders(flat, np.ones(flat.shape, dtype=bool)).reshape(k, b, ns)
            fallback = limit[None, :, None] & ~someone[:, :, None]
            leaders = np.where(fallback, everyone, leaders)
            over = over | limit[None, :]
        ended = over.any(axis=1)
        last = np.where(ended, over.argmax(axis=1), b - 1)  # each match's last row kept
        keep = (np.arange(b)[None, :] <= last[:, None]).reshape(-1)
        parts.append(r if keep.all() else r.take(keep))
        ids.append(np.repeat(active, b)[keep])
        at = np.arange(k)
        totals[active] = cum[at, last]
        winners[active[ended]] = leaders[at, last][ended]
        played += b
        active = active[~ended]
    return Matches(Rounds.concat(parts), np.concatenate(ids), matches, winners)


def tally_matches(tally: PlayTally, ms: Matches, side_of: Ints) -> None:
    """Count a batch of whole matches into ``tally``."""
    import numpy as np

    r = ms.rounds
    g = r.end.shape[0]
    ns = tally.sides
    part = PlayTally(tally.players, ns, tally.seconds_per_turn, tally.setup_seconds)
    part.rounds = g
    part.turns = mean_of(r.turns)
    part.draws = mean_of(r.draws)
    part.passes = mean_of(r.passes)
    part.tiles_played = mean_of(r.played)
    part.redeals = mean_of(r.redeals)
    for code, name in enumerate(END_CODES):
        k = int((r.end == code).sum())
        if k:
            part.ends.add(name, k)
    nwin = r.winners.sum(axis=1)
    single = nwin == 1
    w = r.winners.argmax(axis=1)
    for side in range(ns):
        k = int((single & (w == side)).sum())
        if k:
            part.round_winner.add(str(side), k)
    for key, mask in (("shared", nwin > 1), ("none", nwin == 0)):
        k = int(mask.sum())
        if k:
            part.round_winner.add(key, k)
    own = np.asarray(side_of)[r.starter]
    rel = (w - own) % ns
    for off in range(ns):
        k = int((single & (rel == off)).sum())
        if k:
            part.winner_from_starter.add(str(off), k)
    part.starter_wins = Proportion(int((single & (rel == 0)).sum()), int(single.sum()))
    part.points = [mean_of(r.points[:, k]) for k in range(ns)]
    part.winner_points = mean_of(r.points[np.nonzero(single)[0], w[single]])
    mcount = ms.count
    rounds = np.bincount(ms.match_of, minlength=mcount)
    turns = np.bincount(ms.match_of, weights=r.turns, minlength=mcount)
    part.matches = mcount
    part.match_rounds = mean_of(rounds)
    part.match_turns = mean_of(turns)
    part.match_minutes = mean_of(
        (turns * tally.seconds_per_turn + rounds * tally.setup_seconds) / 60.0
    )
    nl = ms.winners.sum(axis=1)
    lw = ms.winners.argmax(axis=1)
    for side in range(ns):
        k = int(((nl == 1) & (lw == side)).sum())
        if k:
            part.match_winner.add(str(side), k)
    for key, mask in (("shared", nl > 1), ("none", nl == 0)):
        k = int(mask.sum())
        if k:
            part.match_winner.add(key, k)
    tally.merge(part)


SLICE_ROUNDS = 400
SLICES = 6
"""A fast chunk of matches to a target comes back in about :data:`SLICES` slices of
whole matches, of at least :data:`SLICE_ROUNDS` rounds, so the check can stop close to
the rounds asked for (each slice is counted apart, which costs about half a millisecond).
Matches of a fixed number of rounds are planned exactly and come back whole."""


TOP_UP = 1.05
"""A chunk of rounds that fell short plays this share more matches than the rounds
missing call for, so that one top-up is almost always enough."""


def run_fast_chunk(task: FastTask) -> list[PlayTally]:
    """Play the task's matches on the fast path and count them, slice by slice."""
    import numpy as np

    c = task.chunk
    line = fast_line(c, compiled=task.compiled)
    rng = np.random.default_rng([c.seed, c.players, task.index, 0xDEC6])
    kinds = tuple(c.bots[min(s, len(c.bots) - 1)] for s in range(c.players))
    ms = play_matches(line, rng, task.count, kinds, task.block)
    while len(ms.match_of) < task.rounds:  # a chunk of rounds: top up with more matches
        got = len(ms.match_of)
        more = math.ceil((task.rounds - got) * ms.count / max(1, got) * TOP_UP) if got else 1
        ms = Matches.concat([ms, play_matches(line, rng, more, kinds, task.block)])
    m = line.spec.params.match
    if m.end == "rounds" and m.tie != "play_on":  # the chunks hold exactly what is asked
        per = ms.count
    else:  # about SLICES per chunk, of at least SLICE_ROUNDS rounds
        rounds = max(1, len(ms.match_of))
        size = max(SLICE_ROUNDS, rounds // SLICES)
        per = max(1, round(size * ms.count / rounds))
    parts = []
    for first in range(0, ms.count, per):
        tally = PlayTally(c.players, line.nsides, c.seconds_per_turn, c.setup_seconds)
        part = ms.slice(first, min(ms.count, first + per))
        tally_matches(tally, part, line.side_of)
        count_batch(tally, _spec(c), part)  # clauses and round facts (rules check)
        parts.append(tally)
    return parts


def warm() -> list[str]:
    """Compile every compiled engine (numba, cached on disk beside its source) by
    playing two matches of each bundled rules file on it, with the check's own calls:
    run once after installing (``make``), so that a new user's first check starts as
    fast as the second. Returns what was warmed (nothing without numba)."""
    import numpy as np

    from deckgen.rulespec import list_rules

    if not HAVE_JIT:
        return []
    done = []
    for spec in list_rules():
        n = spec.player_counts[0]
        line = make_fast(spec, n, compiled=True)
        rng = np.random.default_rng(0)
        for kinds in (("random",) * n, ("greedy",) * n):
            play_matches(line, rng, 2, kinds, block_for(4.0))
        done.append(f"{spec.id}: {type(line).__name__}")
    return done
