"""Engine work capped at one search per core, pondering giving way first.

Every search the server runs holds one :class:`SearchSlot` for as long as
its thread runs: a machine's move, a hint, or pondering on a person's time. When
every slot is taken, a move or a hint takes the slot of some pondering (its
``preempt`` callback stops it); with no pondering to drop the request is
refused with :class:`BusyError`, which the page shows as a 429.

The core releases the GIL while it searches, so the searches run on plain
threads of :attr:`SearchPool.executor` and the event loop stays free. Slots
are taken and given back on the event loop's thread only.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import count

from genethello.cluster.web.errors import BusyError

MOVE, HINT, PONDER = "move", "hint", "ponder"


@dataclass(eq=False)
class SearchSlot:
    """One slot held by one search; ``preempt`` stops it (pondering only)."""

    kind: str
    owner: str
    preempt: Callable[[], None] | None = None
    number: int = field(default_factory=count().__next__)


class SearchPool:
    """At most ``slots`` searches at a time (default: one per core).

    Args:
        slots: concurrent searches allowed.
    """

    def __init__(self, slots: int | None = None) -> None:
        self.slots = max(1, slots if slots is not None else (os.cpu_count() or 1))
        self._held: dict[int, SearchSlot] = {}
        self.executor = ThreadPoolExecutor(max_workers=self.slots + 1, thread_name_prefix="genethello-search")

    @property
    def busy(self) -> int:
        """Slots held now."""
        return len(self._held)

    def held(self) -> list[SearchSlot]:
        return list(self._held.values())

    def acquire(self, kind: str, owner: str, preempt: Callable[[], None] | None = None) -> SearchSlot:
        """A slot for a search of ``kind`` (move, hint or ponder) by
        ``owner`` (a game id).

        Pondering is only started when a slot is free; a move or a hint
        stops the oldest pondering when none is.

        Raises:
            BusyError: every slot runs a move or a hint.
        """
        if len(self._held) >= self.slots:
            if kind == PONDER:
                raise BusyError("every core is searching: no pondering now")
            ponders = [slot for slot in self._held.values() if slot.kind == PONDER]
            if not ponders:
                raise BusyError(f"all {self.slots} engine slots are busy with other games' searches; "
                                f"try again in a moment")
            victim = min(ponders, key=lambda slot: slot.number)
            self.release(victim)
            if victim.preempt is not None:
                victim.preempt()
        slot = SearchSlot(kind, owner, preempt if kind == PONDER else None)
        self._held[slot.number] = slot
        return slot

    def promote(self, slot: SearchSlot, kind: str) -> bool:
        """Turn a pondering slot into a move's slot (the pondered search
        goes on as the move's search); False if it was preempted meanwhile."""
        if slot.number not in self._held:
            return False
        slot.kind, slot.preempt = kind, None
        return True

    def release(self, slot: SearchSlot | None) -> None:
        """Give the slot back (no-op when already given back)."""
        if slot is not None:
            self._held.pop(slot.number, None)

    def shutdown(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
