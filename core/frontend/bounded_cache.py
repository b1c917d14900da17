"""One bounded cache for what a long-lived process builds again and again.

A worker is sent task after task that name the same players: building an
evaluator, an engine or a player afresh for each would cost more than many
of the games it plays. :class:`BoundedCache` keeps them by key up to a limit,
dropping the least recently used first, so a long run's worker holds a
bounded number whatever it is sent. A count alone does not bound memory
when one value may weigh kilobytes and another hundreds of megabytes (an
evaluator of a 5-million-weight pattern table held 364 MB of LUTs, and
256 of them outgrew a 24 GB machine in a pbt-td run from the table), so a
cache may also be given a byte budget and a way to weigh its values.
Everything cached this way is reset by its user before each use (tables
cleared, seeds set per game), so what a game gives never depends on what
the cache kept.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """At most ``limit`` values by key, the least recently used dropped
    first; with ``max_bytes``, also at most that many bytes of values as
    ``size_of`` weighs them (the newest value is kept whatever it weighs).
    Values are never None (:meth:`get` answers None for a miss).

    Raises:
        ValueError: for a limit below 1, or a byte budget without a way to
            weigh (or below 1).
    """

    __slots__ = ("limit", "max_bytes", "nbytes", "_items", "_sizes", "_size_of")

    def __init__(self, limit: int, max_bytes: int | None = None, size_of: Callable[[V], int] | None = None) -> None:
        if limit < 1:
            raise ValueError(f"a cache holds at least one value, got a limit of {limit}")
        if (max_bytes is None) != (size_of is None) or (max_bytes is not None and max_bytes < 1):
            raise ValueError("a cache's byte budget needs a positive max_bytes and a size_of that weighs a value")
        self.limit = limit
        self.max_bytes = max_bytes
        self.nbytes = 0
        self._items: OrderedDict[K, V] = OrderedDict()
        self._sizes: dict[K, int] = {}
        self._size_of = size_of

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key``, dropping the least recently used values
        beyond the limit and the byte budget; returns ``value``."""
        items = self._items
        self._drop(key)
        items[key] = value
        if self._size_of is not None:
            size = int(self._size_of(value))
            self._sizes[key] = size
            self.nbytes += size
        while len(items) > 1 and (len(items) > self.limit
                                  or (self.max_bytes is not None and self.nbytes > self.max_bytes)):
            self._drop(next(iter(items)))
        return value

    def _drop(self, key: K) -> None:
        if self._items.pop(key, None) is not None:
            self.nbytes -= self._sizes.pop(key, 0)

    def clear(self) -> None:
        self._items.clear()
        self._sizes.clear()
        self.nbytes = 0

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items
