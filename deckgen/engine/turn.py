"""The turn of a player who cannot lay a tile: drawing, the stock reserve, passing.

Takes the compiled :class:`~deckgen.engine.tables.Tables` and the stock; gives what
the rules make the player do. Pure functions; the kernel
(:class:`~deckgen.engine.state.RoundState`) applies them.

- ``play.draw``: a player with no tile that fits draws from the stock (``turn.draw``:
  ``until_playable``, or ``limited`` to ``turn.draw_limit`` tiles a turn, ``play.draw_limit``);
- ``end.reserve``: with a reserve of ``deal.stock_reserve`` tiles, a player who has
  nothing to lay while only the reserve is left ends the round at once: the reserve is
  checked before every draw and again after the last one, so a player whose own
  draws have just brought the stock down to the reserve ends the round too (under the
  other reading, :attr:`Tables.reserve_pass`, that player passes instead);
- ``play.play_drawn``: a drawn tile that fits must be laid at once, or (``may``) the
  player may keep it and pass;
- ``play.pass`` and ``end.blocked``: a player who still cannot lay a tile passes; the
  round is blocked when every player in turn had to pass and no drawing is possible.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckgen.engine.tables import Tables


@dataclass(slots=True)
class Draws:
    """What one player's drawing came to."""

    tiles: list[int]
    """The tiles drawn, in order."""
    fitting: int
    """The bit of the last tile drawn when it fits, else 0."""
    reserve_end: bool
    """Only the reserve is left and nothing fits: the round ends (``end.reserve``)."""
    limit_hit: bool
    """The draw limit stopped the player (``play.draw_limit``)."""


def draw(t: Tables, stock: list[int], fits: int, before: int = 0) -> Draws:
    """Draw from ``stock`` (popped from its end) until a tile fits ``fits`` (a mask of
    the tiles that fit some open end), the limit is reached or only the reserve is left.
    ``before``: tiles drawn earlier in the same turn that count against the limit (only
    under the other reading of ``play.draw_limit``, :attr:`Tables.draw_per_turn`)."""
    reserve = t.reserve
    limit = t.draw_limit
    drawn: list[int] = []
    while True:
        if len(stock) <= reserve:  # checked first: end.reserve
            return Draws(drawn, 0, reserve > 0 and not (drawn and t.reserve_pass), False)
        if limit and len(drawn) + before >= limit:
            return Draws(drawn, 0, False, True)
        i = stock.pop()
        drawn.append(i)
        if fits >> i & 1:
            return Draws(drawn, 1 << i, False, False)


def can_draw(t: Tables) -> bool:
    """Whether the rules let a player draw at all (a stock and ``turn.draw``)."""
    return t.draw != "none"


def may_keep_drawn(t: Tables, drew: int) -> bool:
    """Whether a player who drew ``drew`` tiles may pass instead of laying one."""
    return drew > 0 and not t.must_play_drawn


def blocked(t: Tables, forced_passes: int, stock_left: int) -> bool:
    """``end.blocked``: every player in turn had to pass and no drawing is possible.

    Where passing changes where others may play (Mexican Train: a pass opens the
    passer's train), the kernel also asks the layout whether somebody could play now
    (:meth:`~deckgen.engine.layouts.Layout.someone_can_play`): the round ends only
    when nobody can (unless :attr:`Tables.block_on_passes`, the other reading)."""
    return forced_passes >= t.players and (t.draw == "none" or (not t.reserve and not stock_left))
