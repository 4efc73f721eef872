"""Whole matches on a fast engine: a batch of matches played to their end.

Takes a batch engine (:class:`~deckgen.engine.backends.protocol.BatchEngine`), a numpy
generator, a number of matches and the seats' bots; gives :class:`Matches`: every round
played and who won each match. A match of a fixed number of rounds whose later starters
follow from the deals alone is played as one batch of all its rounds; any other match
(to a target score, or playing on after a tie) is played in waves of blocks: the next
``block`` rounds of every match still running in one batch, each match cut after the
round it ended in, with the match end decided as the engine's
:func:`~deckgen.engine.match.match_over` decides it (``tests/rulecheck/test_blocks.py``
replays every kept match through it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from deckgen.engine.backends.rounds import Rounds
from deckgen.engine.match import MAX_ROUNDS

if TYPE_CHECKING:
    import numpy as np

    from deckgen.engine.backends.arrays import Flags, Hands, Ints
    from deckgen.engine.backends.rounds import Deals
    from deckgen.rulespec import RuleSpec


class RoundBatches(Protocol):
    """What the match logic asks of an engine that plays batches of single rounds
    (:class:`~deckgen.engine.backends.numpy_line.FastLine` and its kin)."""

    spec: RuleSpec
    n: int
    nsides: int

    def deal(
        self, rng: np.random.Generator, count: int, first_rule: Flags | None = None
    ) -> Deals: ...

    def first_rule(self, hands: Hands, lead_any: bool) -> tuple[Ints, Ints]: ...

    def play(
        self,
        deals: Deals,
        starter: Ints,
        lead_tile: Ints,
        lead_any: Flags,
        kinds: tuple[str, ...],
        rng: np.random.Generator,
    ) -> Rounds: ...


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
    line: RoundBatches,
    rng: np.random.Generator,
    matches: int,
    kinds: tuple[str, ...],
    block: int = 1,
) -> Matches:
    """Play ``matches`` matches to their end (matches to a target ``block`` rounds at a
    time, see :func:`_waves`)."""
    m = line.spec.params.match
    if m.end == "rounds" and m.tie != "play_on":
        return _fixed(line, rng, matches, kinds)
    return _waves(line, rng, matches, kinds, block)


def _fixed(
    line: RoundBatches, rng: np.random.Generator, matches: int, kinds: tuple[str, ...]
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
    return fixed_matches(line.play(deals, starter, lead, lead_any, kinds, rng), matches)


def fixed_matches(r: Rounds, matches: int) -> Matches:
    """Rounds of ``matches`` matches of a fixed length (match-major order) with who won
    each match: the sides with the highest total."""
    import numpy as np

    per = len(r.end) // max(1, matches)
    totals = r.points.reshape(matches, per, -1).sum(axis=1)
    winners = _leaders(totals, np.ones(totals.shape, dtype=bool))
    return Matches(r, np.repeat(np.arange(matches), per), matches, winners)


def _waves(
    line: RoundBatches,
    rng: np.random.Generator,
    matches: int,
    kinds: tuple[str, ...],
    block: int = 1,
) -> Matches:
    """The matches still running, ``block`` rounds of each at a time: one batch holds
    the next ``block`` rounds of every running match (a match's rounds in order), and
    a match that ends inside the block keeps its rounds up to the one it ended in; the
    rest are thrown away. A round's deal and starter never depend on the rounds
    before it on the fast path (:func:`~deckgen.engine.backends.numpy_line.unsupported`), so a
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
