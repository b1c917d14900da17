"""The doors between the coordinator and a family's generation steps.

The coordinator (:mod:`genethello.cluster.run.coordinator`) sequences a
generation — play, rate, the hall and the yardstick when due, breed — and
each family fills in the steps (:class:`GenerationSteps`: GeneThello's
round robin, :mod:`~genethello.cluster.run.genethello_run`; a network run's
fitness tasks, :mod:`~genethello.cluster.run.network_run`). A family's steps
reach the run only through :class:`RunHandle`, the public face of the
coordinator, so neither imports the other: the coordinator finds a run's
steps in :mod:`~genethello.cluster.run.family_steps`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from genethello.cluster.breeding.breeders import Breeder
from genethello.cluster.breeding.protocols import Bred, RatedGeneration
from genethello.cluster.config import RunConfig
from genethello.cluster.fitness.games import GameSettings
from genethello.cluster.measures.yardstick_score import YardstickScore
from genethello.cluster.reads import HallEntry
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_store import RunStore
from genethello.cluster.work import BatchSource, Executor, Task
from genethello.core.families.registry import Individual, Kind

__all__ = ["GenerationSteps", "RunHandle", "Yardstick", "EngineFailure"]

Item = TypeVar("Item")
Outcome = TypeVar("Outcome")
Row = TypeVar("Row")

#: Told of an external GTP engine that failed and is left out: (its command, the error).
EngineFailure = Callable[[str, Exception], None]


class Yardstick(Protocol):
    """Measures a run's best so far against fixed opponents;
    :func:`genethello.cluster.measures.yardstick.measure` is the real one.
    Returns the scores, or None when stopped before they were all played."""

    def __call__(self, config: RunConfig, candidate: Individual, first_champion: Individual, executor: Executor,
                 settings: GameSettings, should_stop: Callable[[], bool],
                 on_failure: EngineFailure | None = None) -> list[YardstickScore] | None: ...


class RunHandle(Protocol):
    """What a family's steps may use of the run they drive: its store, its
    config, where and how its games are played, its progress line, and the
    coordinator's few shared steps."""

    @property
    def store(self) -> RunStore: ...
    @property
    def config(self) -> RunConfig: ...
    @property
    def kind(self) -> Kind: ...
    @property
    def population_size(self) -> int: ...
    @property
    def settings(self) -> GameSettings: ...
    @property
    def progress(self) -> Progress: ...
    @property
    def breeder(self) -> Breeder: ...
    @property
    def yardstick(self) -> Yardstick | None: ...
    @property
    def engines(self) -> tuple[str, ...]: ...

    def executor_now(self) -> Executor:
        """The run's executor (started once the lease is held)."""
        ...

    def should_stop(self) -> bool:
        """Whether the run was asked to stop (a signal, ``genethello stop``);
        renews the lease as a side effect."""
        ...

    @property
    def stopped(self) -> bool:
        """Whether a stop was asked for already (without looking again)."""
        ...

    def play_and_commit(self, task: Task[Item, Outcome], next_batch: BatchSource,
                        rows: Callable[[list[Outcome]], list[Row]], commit: Callable[[list[Row]], int]) -> int:
        """Run ``task`` on the batches and commit each result's rows in
        batched transactions; returns how many new results were stored."""
        ...

    def rate_hall_members(self, g: int, members: Sequence[HallEntry], scale: str = "",
                          anchors: Sequence[int] = (), best: int | None = None) -> None:
        """Rate every hall member from all hall games and store the ratings
        with generation g (``anchors``: players in hall games who are no
        members, rated with them but neither stored nor ranked)."""
        ...

    def best_text(self) -> str:
        """The best so far as the progress line names it."""
        ...

    def next_generation(self, rated: RatedGeneration) -> Bred | None:
        """The breeder's next generation bred from ``rated``, its work (if
        it gives the workers any) done on the executor; None when stopped
        before that work was all in."""
        ...


class GenerationSteps(Protocol):
    """The steps of one generation that differ between families; each
    returns False where it stopped before its work was all stored."""

    def games_total_at_start(self) -> int | None:
        """The games total a new generation starts with (None: counted as
        games are stored, as a round robin's are)."""
        ...

    def play(self, g: int) -> bool: ...
    def rate(self, g: int) -> None: ...
    def hall_due(self, g: int) -> bool: ...
    def hall_step(self, g: int) -> bool: ...
    def yardstick_due(self, g: int) -> bool: ...
    def measure(self, g: int) -> bool: ...
    def breed(self, g: int) -> bool:
        """Breed and start generation g + 1; False when stopped before it
        was stored (a learning breeder's slices: redone on resume)."""
        ...
