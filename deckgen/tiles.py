"""Domino tiles and double-N sets. Imports nothing else of deckgen.

>>> Tile.parse("[5|3]")
Tile(low=3, high=5)
>>> str(Tile(3, 5)), Tile(3, 5).pips, Tile(4, 4).is_double
('3-5', 8, True)
>>> s = DominoSet.from_name("double-6")
>>> len(s), s.total_pips, s.value_frequency
(28, 168, 8)
>>> s.index(Tile(0, 6)), s.tile(7)
(6, Tile(low=1, high=1))

Deck order is ``0-0, 0-1, ..., 0-N, 1-1, 1-2, ..., N-N``; :meth:`DominoSet.index`
gives each tile's position in it (0 ... tiles-1), a compact integer that engines use
for bitmasks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

MAX_SUPPORTED_PIP = 18
"""The largest double-N set deckgen knows (double-18, 190 tiles)."""

_TILE_RE = re.compile(r"^\s*\[?\s*(\d{1,2})\s*[-/|:]\s*(\d{1,2})\s*\]?\s*$")
_SET_RE = re.compile(r"^\s*double[\s_-]?(\d{1,3})\s*$", re.IGNORECASE)


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """A domino tile: two values in canonical order ``low <= high``.

    Ordering is deck order (by ``low``, then ``high``).
    """

    low: int
    high: int

    def __post_init__(self) -> None:
        if not (isinstance(self.low, int) and isinstance(self.high, int)):
            raise TypeError("tile values must be integers")
        if self.low < 0 or self.high < 0:
            raise ValueError(f"tile values must not be negative, got {self.low}-{self.high}")
        if self.low > self.high:
            raise ValueError(
                f"tile values must be in canonical order (low-high), got {self.low}-{self.high};"
                " use Tile.of(a, b) for any order"
            )

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        """The tile with values ``a`` and ``b``, in either order."""
        return cls(a, b) if a <= b else cls(b, a)

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse ``3-5``, ``3/5``, ``5|3``, ``[5|3]`` or ``5:3``; raise ValueError otherwise."""
        match = _TILE_RE.match(text)
        if not match:
            raise ValueError(
                f"'{text}' is not a tile; write it as two numbers like 3-5, 3/5 or [5|3]"
            )
        return cls.of(int(match.group(1)), int(match.group(2)))

    @property
    def pips(self) -> int:
        """The tile's pip total."""
        return self.low + self.high

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    @property
    def values(self) -> tuple[int, int]:
        return (self.low, self.high)

    def has(self, value: int) -> bool:
        return value in (self.low, self.high)

    def other(self, value: int) -> int:
        """The value on the other half from ``value``; ValueError if the tile lacks it."""
        if value == self.low:
            return self.high
        if value == self.high:
            return self.low
        raise ValueError(f"tile {self} has no half with value {value}")

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def __repr__(self) -> str:
        return f"Tile(low={self.low}, high={self.high})"


def tile_count(max_pip: int) -> int:
    """Tiles in a double-N set: (N+1)(N+2)/2."""
    return (max_pip + 1) * (max_pip + 2) // 2


def total_pips(max_pip: int) -> int:
    """All pips of a double-N set: N(N+1)(N+2)/2."""
    return max_pip * (max_pip + 1) * (max_pip + 2) // 2


class DominoSet:
    """The double-N set: every tile ``a-b`` with ``0 <= a <= b <= N`` exactly once."""

    __slots__ = ("__dict__", "max_pip")

    def __init__(self, max_pip: int) -> None:
        if isinstance(max_pip, bool) or not isinstance(max_pip, int):
            raise TypeError("max_pip must be an integer")
        if not 0 <= max_pip <= MAX_SUPPORTED_PIP:
            raise ValueError(
                f"double-{max_pip} is not supported; use double-0 ... double-{MAX_SUPPORTED_PIP}"
            )
        self.max_pip = max_pip

    @classmethod
    def from_name(cls, name: str) -> DominoSet:
        """The set called ``double-N`` (also ``doubleN``, ``double N``, any case)."""
        match = _SET_RE.match(name)
        if not match or int(match.group(1)) > MAX_SUPPORTED_PIP:
            raise ValueError(
                f"unknown domino set '{name}'; valid names are {', '.join(set_names())}"
            )
        return cls(int(match.group(1)))

    @property
    def name(self) -> str:
        return f"double-{self.max_pip}"

    @cached_property
    def tiles(self) -> tuple[Tile, ...]:
        """Every tile in deck order."""
        n = self.max_pip
        return tuple(Tile(a, b) for a in range(n + 1) for b in range(a, n + 1))

    @cached_property
    def _index(self) -> dict[Tile, int]:
        return {t: i for i, t in enumerate(self.tiles)}

    def __len__(self) -> int:
        return tile_count(self.max_pip)

    def __iter__(self) -> Iterator[Tile]:
        return iter(self.tiles)

    def __contains__(self, tile: object) -> bool:
        return isinstance(tile, Tile) and tile.high <= self.max_pip

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DominoSet) and other.max_pip == self.max_pip

    def __hash__(self) -> int:
        return hash(("DominoSet", self.max_pip))

    def __repr__(self) -> str:
        return f"DominoSet({self.max_pip})"

    @property
    def values(self) -> range:
        return range(self.max_pip + 1)

    @property
    def double_count(self) -> int:
        return self.max_pip + 1

    @property
    def total_pips(self) -> int:
        return total_pips(self.max_pip)

    @property
    def value_frequency(self) -> int:
        """How many halves show each value: N+2 (a double shows it twice)."""
        return self.max_pip + 2

    @property
    def doubles(self) -> tuple[Tile, ...]:
        return tuple(Tile(v, v) for v in self.values)

    def tiles_with(self, value: int) -> tuple[Tile, ...]:
        """The N+1 tiles that carry ``value`` on at least one half, in deck order."""
        if not 0 <= value <= self.max_pip:
            raise ValueError(f"{self.name} has no value {value}")
        return tuple(t for t in self.tiles if t.has(value))

    def index(self, tile: Tile) -> int:
        """The tile's position in deck order, 0 ... len-1."""
        try:
            return self._index[tile]
        except KeyError:
            raise ValueError(f"tile {tile} is not in {self.name}") from None

    def tile(self, index: int) -> Tile:
        """The tile at ``index`` in deck order."""
        if not 0 <= index < len(self):
            raise IndexError(f"{self.name} has no tile number {index}")
        return self.tiles[index]

    def suit_masks(self) -> tuple[int, ...]:
        """For each value v, the bitmask (by :meth:`index`) of the tiles carrying v."""
        masks = [0] * (self.max_pip + 1)
        for i, t in enumerate(self.tiles):
            masks[t.low] |= 1 << i
            masks[t.high] |= 1 << i
        return tuple(masks)


def set_names(lowest: int = 0, highest: int = MAX_SUPPORTED_PIP) -> list[str]:
    """The names of the supported sets, ``double-0`` ... ``double-18``."""
    return [f"double-{n}" for n in range(lowest, highest + 1)]
