"""The learners a process keeps between pbt-td slices, so that a member
learning slice after slice pays its games, not an evaluator build a slice
(issue 36 part 6).

A :class:`~genethello.core.learning.self_play.Learner` learns in place:
building one costs what building the network's evaluator costs
(``patterns-v2-net``: about 0.45 s and 153 MB), a slice then costs its
games. A pbt-td slice starts from a member of the generation before, named
by its text and payload (:class:`~genethello.cluster.breeding.network_pbt.SliceSpec`);
the member was itself the end of a slice, often learned in the same worker
process. :class:`LearnerCache` keeps each slice's Learner under the
identity of the member it ended at (the member's text and the SHA-256 of
its payload), and the next slice that starts from exactly that member
takes it instead of decoding the payload and building one.

**Why the result is the same.** The key names the payload's bytes, which
the stored weights decode to exactly (the storage is lossless: a resumed
run learns from the decoded payload); a Learner that has learned slices
holds the weights, quantized integers and LUTs of a Learner built afresh
from its weights (tested in ``tests/core/test_td_learning.py``); settings
and seed are the slice's arguments, not the Learner's state. So a slice
learns the same bits from a kept Learner as from a new one, whichever
worker, process or resume learned the slice before: a hit changes the
cost, never the database.

**Bounded.** A Learner is taken out of the cache while it learns (two
slices starting from one member, a copied slot and its donor, never share
one: the second builds its own). Kept ones are bounded by count and by
bytes (:data:`MAX_LEARNERS`, :data:`MAX_BYTES`; one is kept whatever its
size). A member is learned from only in the generation after its birth,
so a slice of generation ``b`` forgets the learners of members born before
``b - 1``; when the rest fill the cache, a new one is not kept (a serial
run whose population outgrows the cache then still finds the first ones
each generation, where least-recently-used eviction would find none).
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass

from genethello.core.families.network_family import NetworkKind
from genethello.core.families.registry import family_of, parse_individual
from genethello.core.learning.self_play import Learner

__all__ = ["MAX_BYTES", "MAX_LEARNERS", "LearnerCache", "learner_bytes", "process_learners"]

#: The most Learners a process keeps.
MAX_LEARNERS = 16
#: The most bytes of Learners a process keeps (about 13 of ``patterns-v2-net``).
MAX_BYTES = 2 << 30

Key = tuple[str, str]


def _key(text: str, payload: bytes) -> Key:
    return text, hashlib.sha256(payload).hexdigest()


def start_learner(text: str, payload: bytes) -> tuple[NetworkKind, Learner]:
    """A fresh Learner on the member ``text``/``payload`` names, and its kind.

    Raises:
        ValueError: for a player that is no network.
    """
    start = parse_individual(text, payload)
    network = family_of(start).network(start)
    if network is None:
        raise ValueError(f"{text} is not a network")
    return NetworkKind.of(network), Learner(network)


def learner_bytes(learner: Learner) -> int:
    """About what ``learner`` holds in memory: its real weights, their
    integers, its evaluator's LUTs (with the int16 copies) and the network
    it was built from."""
    live = learner.live
    return int(live.weights.nbytes * 3 // 2 + learner.start.weights.nbytes
               + sum(a.nbytes for a in live.luts() if a is not None))


@dataclass
class _Kept:
    kind: NetworkKind
    learner: Learner
    birth: int
    nbytes: int


class LearnerCache:
    """Learners kept by the identity of the member each ended at (module
    docstring); ``hits`` and ``builds`` count what :meth:`take` did."""

    def __init__(self, max_learners: int = MAX_LEARNERS, max_bytes: int = MAX_BYTES) -> None:
        self.max_learners = max_learners
        self.max_bytes = max_bytes
        self._kept: dict[Key, _Kept] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.builds = 0

    def __len__(self) -> int:
        return len(self._kept)

    def take(self, text: str, payload: bytes, birth: int) -> tuple[NetworkKind, Learner]:
        """A Learner holding exactly the member ``text``/``payload``, for a
        slice making a member of generation ``birth``: a kept one (taken
        out of the cache), else one built from the decoded payload.

        Raises:
            ValueError: for a member that is not a network.
        """
        with self._lock:
            self._forget(birth)
            kept = self._kept.pop(_key(text, payload), None)
            if kept is not None:
                self.hits += 1
                return kept.kind, kept.learner
            self.builds += 1
        return start_learner(text, payload)

    def keep(self, text: str, payload: bytes, birth: int, kind: NetworkKind, learner: Learner) -> None:
        """Keep ``learner``, which now holds the member ``text``/``payload``
        of generation ``birth``, when there is room (module docstring)."""
        size = learner_bytes(learner)
        with self._lock:
            self._forget(birth)
            used = sum(k.nbytes for k in self._kept.values())
            if self._kept and (len(self._kept) >= self.max_learners or used + size > self.max_bytes):
                return
            self._kept[_key(text, payload)] = _Kept(kind, learner, birth, size)

    def clear(self) -> None:
        """Forget every kept Learner."""
        with self._lock:
            self._kept.clear()

    def _forget(self, birth: int) -> None:
        """Drop the learners no slice of generation ``birth`` or the next
        starts from: those of members born other than ``birth - 1`` (learned
        from now) and ``birth`` (learned from next)."""
        for key in [key for key, kept in self._kept.items() if kept.birth not in (birth - 1, birth)]:
            del self._kept[key]


_PROCESS_LEARNERS = LearnerCache()


def process_learners() -> LearnerCache:
    """This process's cache (a Ray worker's lives as long as the worker)."""
    return _PROCESS_LEARNERS
