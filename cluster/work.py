"""The contract between work and where it runs: a :class:`Task`, an
:class:`Executor` and the batches between them.

Each kind of work a worker does is a :class:`Task`: a small frozen value
(the settings its items share) that is pickled once per executor run and
knows how to run a batch of its items in a worker process, returning one
outcome an item, in the items' order. An :class:`Executor`
(:mod:`genethello.cluster.run.executors`: here, or on Ray workers) hands a
task its batches and never looks inside: it does not know whether it plays
a generation's games, a hall entry's, a yardstick's, learns a breeder's
slices or labels positions.

On the ground floor (it imports nothing of the cluster), so that whoever
describes work — the fitness, the measures, a breeder — depends on this
contract and not on the run that drives it.

A task keeps what is worth reusing between batches (engines, evaluators,
labellers) in its worker process, keyed by its settings, never in itself:
it is unpickled afresh for every batch.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

__all__ = ["Task", "Executor", "BatchSource", "batches_of", "run_all"]

ItemT = TypeVar("ItemT", contravariant=True)
OutcomeT = TypeVar("OutcomeT")
Item = TypeVar("Item")
Outcome = TypeVar("Outcome")


class Task(Protocol[ItemT, OutcomeT]):
    """A kind of work: runs a batch of items in a worker process."""

    def run(self, items: Sequence[ItemT]) -> list[OutcomeT]:
        """One outcome an item, in the items' order; a pure function of the
        task and the items."""
        ...


BatchSource = Callable[[int], list[Any]]
"""Called with a suggested batch size; returns the next batch of a task's
items ([] when none is left)."""


def batches_of(specs: Iterable[Any]) -> BatchSource:
    """A BatchSource over ``specs`` (consumed lazily, in order)."""
    pending = iter(specs)

    def next_batch(size: int) -> list[Any]:
        return list(itertools.islice(pending, max(1, size)))
    return next_batch


class Executor(Protocol):
    """Where tasks run: it yields each batch's outcomes as batches finish,
    in completion order (the caller sorts out the canonical order)."""

    workers: int

    def run(self, task: Task[Item, Outcome], next_batch: BatchSource,
            should_stop: Callable[[], bool]) -> Iterator[list[Outcome]]:
        """Run ``task`` on the batches ``next_batch`` hands out until it
        hands out none or ``should_stop``; yield each batch's outcomes."""
        ...

    def close(self) -> None: ...


def run_all(executor: Executor, task: Task[Item, Outcome], items: Sequence[Item],
            should_stop: Callable[[], bool]) -> list[Outcome] | None:
    """Every item's outcome, in completion order; None when stopped before
    all were in."""
    found: list[Outcome] = []
    for outcomes in executor.run(task, batches_of(items), should_stop):
        found.extend(outcomes)
    return found if len(found) == len(items) else None
