"""The contract between the coordinator's work and the executors: a task.

Each kind of work a worker does is a :class:`Task`: a small frozen value
(the settings its items share) that is pickled once per executor run and
knows how to run a batch of its items in a worker process, returning one
outcome an item, in the items' order. Executors hand tasks their batches
and never look inside: they do not know whether they play round-robin
games, hall games, yardstick games or label positions. The kinds today:

* :class:`~genethello.cluster.fitness.games.RoundRobinGames`: GameSpec -> GameOutcome;
* :class:`~genethello.cluster.fitness.games.HallGames`: HallGameSpec -> HallGameOutcome;
* :class:`~genethello.cluster.fitness.games.GauntletGames`: GauntletSpec -> GauntletOutcome;
* :class:`~genethello.cluster.fitness.games.CompareGames`: CompareGameSpec -> CompareGameOutcome
  (champions of several runs, each with its own run's settings);
* :class:`~genethello.cluster.run.labelling.PositionLabels`: LabelSpec -> LabelOutcome;
* :class:`~genethello.cluster.fitness.network_fitness.NetworkFitnessGames`:
  NetworkFitnessTask (a chunk of up to thousands of a network generation's
  fitness games, one fast-loop call) -> FitnessPoints (per member slot).
* :class:`~genethello.cluster.fitness.network_depth_fitness.NetworkDepthFitnessGames`:
  DepthFitnessTask (a chunk of a generation's fitness games at ``fitness.depth``,
  one ``play_game`` call a game) -> FitnessPoints; and
  :class:`~genethello.cluster.fitness.network_depth_fitness.NetworkDepthGames`:
  NetworkDepthGameSpec -> NetworkGameOutcome (a hall entry's games at depth).

A task keeps what is worth reusing between batches (engines, evaluators,
labellers) in its worker process, keyed by its settings, never in itself:
it is unpickled afresh for every batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

ItemT = TypeVar("ItemT", contravariant=True)
OutcomeT = TypeVar("OutcomeT")


class Task(Protocol[ItemT, OutcomeT]):
    """A kind of work: runs a batch of items in a worker process."""

    def run(self, items: Sequence[ItemT]) -> list[OutcomeT]:
        """One outcome an item, in the items' order; a pure function of the
        task and the items."""
        ...
