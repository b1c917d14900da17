"""One bounded cache for what a long-lived process builds again and again.

A worker is sent task after task that name the same players: building an
evaluator, an engine or a player afresh for each would cost more than many
of the games it plays. :class:`BoundedCache` keeps them by key up to a limit,
dropping the least recently used first, so a long run's worker holds a
bounded number whatever it is sent. Everything cached this way is reset by
its user before each use (tables cleared, seeds set per game), so what a
game gives never depends on what the cache kept.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """At most ``limit`` values by key, the least recently used dropped
    first. Values are never None (:meth:`get` answers None for a miss).

    Raises:
        ValueError: for a limit below 1.
    """

    __slots__ = ("limit", "_items")

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"a cache holds at least one value, got a limit of {limit}")
        self.limit = limit
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key``, dropping the least recently used value
        beyond the limit; returns ``value``."""
        items = self._items
        items[key] = value
        items.move_to_end(key)
        if len(items) > self.limit:
            items.popitem(last=False)
        return value

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items
