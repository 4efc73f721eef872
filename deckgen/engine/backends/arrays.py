"""The array types of the batched fast paths (``numpy.typing``), named once.

Imported by the fast paths under ``TYPE_CHECKING`` only, so that importing them stays
free of numpy until a batch is really played.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

Masks: TypeAlias = NDArray[np.unsignedinteger[Any]]
"""Tile bitmasks, one bit per deck index: ``uint32`` up to 32 tiles, else ``uint64``
(the precision is chosen per rules file, hence any)."""

Flags: TypeAlias = NDArray[np.bool_]
"""Booleans: per round, or (rounds, players, tiles) hands of the any-board path."""

Hands: TypeAlias = Masks | Flags | NDArray[np.int64]
"""Dealt hands: (rounds, players) bitmasks on the line path, (rounds, players, tiles)
booleans on the any-board path, (rounds, players, hand size) deck indices on the
compiled board path (:mod:`deckgen.engine.backends.jit_board`)."""

Ints: TypeAlias = NDArray[np.int64]
"""Counts, seats, tile indices, end values and points."""

Floats: TypeAlias = NDArray[np.float64]
"""Numbers in [0, 1) that decide random moves."""

MaskType: TypeAlias = type[np.unsignedinteger[Any]]
"""The scalar type of :data:`Masks` (``numpy.uint32`` or ``numpy.uint64``)."""
