"""Prepared pictures kept for the next deck a long-running process builds.

A batch worker builds many decks in one process, and the decks of one spreadsheet
often share their pictures (a company's branch editions, the same photos on every
deck). Preparing a picture (decode, crop, resize, JPEG encode) is the largest part
of drawing a photo deck, and its result depends only on the file's content, every use
the deck registers for the file (they choose the decode scale), the box and the dpi.
This cache keeps those results, so a picture used on many decks of a worker is
decoded and prepared once; the pixels and bytes put into the PDF are the very same.

Off unless a process switches it on (:func:`enable_shared_cache`: the batch's pool
workers and queue workers do); a one-off ``deck build`` has nothing to share. Bounded
(least recently used entries go first); keyed by the file's content hash, so an edited
file is a new entry even when its size and time stamps look unchanged.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from PIL import Image as PILImage

DEFAULT_MAX_BYTES = 256_000_000
"""Encoded bytes (plus kept pixels) a cache holds before it drops old entries."""


class Cacheable(Protocol):
    """What the cache needs of a prepared picture: its bytes and any pixels it keeps."""

    @property
    def data(self) -> bytes: ...

    @property
    def image(self) -> PILImage.Image | None: ...


V = TypeVar("V", bound=Cacheable)


def _size(prepared: Cacheable) -> int:
    pixels = prepared.image
    kept = 0 if pixels is None else pixels.width * pixels.height * len(pixels.getbands())
    return len(prepared.data) + kept


class PreparedCache(Generic[V]):
    """Prepared pictures by key (:class:`deckgen.deck.pictures.PreparedKey`), at most
    ``max_bytes`` of them."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[Hashable, V] = OrderedDict()
        self._bytes = 0
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable) -> V | None:
        found = self._entries.get(key)
        if found is None:
            self.misses += 1
            return None
        self._entries.move_to_end(key)
        self.hits += 1
        return found

    def put(self, key: Hashable, prepared: V) -> None:
        size = _size(prepared)
        if size > self.max_bytes or key in self._entries:
            return
        self._entries[key] = prepared
        self._bytes += size
        while self._bytes > self.max_bytes:
            _, dropped = self._entries.popitem(last=False)
            self._bytes -= _size(dropped)


_shared: PreparedCache[Any] | None = None


def enable_shared_cache(max_bytes: int = DEFAULT_MAX_BYTES) -> PreparedCache[Any]:
    """Keep prepared pictures for every later deck this process draws; the cache."""
    global _shared
    if _shared is None:
        _shared = PreparedCache(max_bytes)
    return _shared


def disable_shared_cache() -> None:
    """Forget the shared cache (later decks prepare their pictures afresh)."""
    global _shared
    _shared = None


def shared_cache() -> PreparedCache[Any] | None:
    """The process's shared cache, or None when it is off."""
    return _shared
