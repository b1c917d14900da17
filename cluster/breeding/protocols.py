"""The breeders' interface: what a breeder is handed (:class:`RatedGeneration`),
what it returns (:class:`Bred`, or a :class:`BreedingPlan` whose work the
workers do first), what a breeder is (:class:`Breeder`) and what a family
gives the family-blind breeders (:class:`FamilyBreeding`).

Work for the workers. A breeder that needs the workers (pbt-td: every
member learns a slice of self-play) says so in its plan: the plan is made on
the coordinator (pure, from the generation's Generator), its task runs on
the run's executor (:mod:`genethello.cluster.work`), and the results come
back to the breeder, which makes the generation of them. The run asks every
breeder for a plan the same way and never which breeder it holds; a breeder
with nothing for the workers returns a plan that is already bred
(:meth:`BreedingPlan.ready`).

A leaf of :mod:`genethello.cluster.breeding`: the breeders
(:mod:`~genethello.cluster.breeding.breeders`,
:mod:`~genethello.cluster.breeding.network_breeders`) and each family's
breeding (:mod:`~genethello.cluster.breeding.genethello_breeding`) import
it, and it imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

import numpy as np

from genethello.cluster.breeding.origins import Origin
from genethello.cluster.config import BreedingConfig, RunConfig
from genethello.cluster.work import Task
from genethello.core.families.registry import Individual, Kind

__all__ = ["Bred", "BreedingPlan", "RatedGeneration", "Breeder", "FamilyBreeding", "Offspring", "bred_here",
           "members_of"]

MemberT = TypeVar("MemberT")

#: Members and the origin of each, in slot order (what a family's breeding returns).
Offspring = tuple[Sequence[Individual], Sequence[Origin]]


@dataclass(frozen=True)
class RatedGeneration:
    """What a breeder breeds from: one generation after its rating.

    Attributes:
        number: the generation's number (the next one is ``number + 1``).
        kind: the kind of member the run evolves.
        ranked: every member of the generation, best first (by the run's
            ``rating.selection``).
        injected: the best of history (hall of fame, other runs), best first,
            that a breeder may re-enter into the population.
        state: the state this breeder stored with the generation (None for
            stateless breeders).
        points: the fitness of each of ``ranked`` (same order), when the
            run has one (network runs: each member's points); () otherwise.
        slots: the population slot of each of ``ranked`` (same order),
            where the run knows them (network runs); () otherwise (a
            breeder whose state is kept by slot, pbt-td, reads it so).
        games_per_member: the fitness games behind each member's points
            (the noise of the ranking, which pbt-td's ready criterion
            weighs); 0 where the run has no points.
        ranked_by_points: whether ``ranked`` is in the order of ``points``
            (``fitness.ranking = "points"``); else a ranking by opponents
            ordered it, and a breeder that tells an optimizer values tells
            it the ranks.
    """

    number: int
    kind: Kind
    ranked: Sequence[Individual]
    injected: Sequence[Individual] = ()
    state: bytes | None = None
    points: Sequence[float] = ()
    slots: Sequence[int] = ()
    games_per_member: int = 0
    ranked_by_points: bool = True


@dataclass(frozen=True)
class Bred:
    """A breeder's result: the members of the new generation, in slot order,
    the state to store with it (None for stateless breeders), and why each
    member is there (one :class:`~genethello.cluster.breeding.origins.Origin` a
    slot, in slot order; parents as positions in the rated generation's
    ranking or injected members)."""

    members: Sequence[Individual]
    state: bytes | None = None
    origins: Sequence[Origin] = ()


@dataclass(frozen=True)
class BreedingPlan:
    """A breeder's next generation as the coordinator gets it: the work the
    workers do first (``task`` on each of ``items``; none for most
    breeders), and ``finish``, which makes the generation of the work's
    outcomes (in any order: the executor hands them back as they finish).

    Attributes:
        finish: the outcomes -> the next generation.
        task: what the workers run (None: nothing).
        items: the task's items (each one outcome).
        says: what the progress line says while the work runs.
    """

    finish: Callable[[Sequence[Any]], Bred]
    task: Task[Any, Any] | None = None
    items: Sequence[Any] = ()
    says: str = ""

    @classmethod
    def ready(cls, bred: Bred) -> BreedingPlan:
        """A plan with nothing for the workers: ``bred`` as it is."""
        return cls(lambda _outcomes: bred)


def bred_here(plan: BreedingPlan) -> Bred:
    """``plan``'s generation with its work done in this process (serial
    tests, a breeder's own :meth:`Breeder.next_population`): the same
    members as on any executor."""
    return plan.finish(plan.task.run(plan.items) if plan.task is not None and plan.items else [])


class Breeder(Protocol):
    """How a run goes from one generation to the next.

    Implementations are pure: equal arguments give equal results, and all
    randomness comes from ``rng``.
    """

    #: The ``breeding.method`` that names this breeder.
    name: ClassVar[str]

    def breeds(self, kind: Kind) -> bool:
        """Whether this breeder can breed members of ``kind`` (checked when a
        config is read, before anything runs)."""
        ...

    def check(self, config: RunConfig) -> None:
        """The run check's questions of this method: whether the run's other
        keys fit it (the run check asks every breeder, never which one it holds).

        Raises:
            ConfigError: naming the key.
        """
        ...

    def first_population(self, kind: Kind, size: int, initial: Sequence[Individual],
                         rng: np.random.Generator) -> Bred:
        """Generation 1: ``size`` distinct members of ``kind``, beginning with
        ``initial`` (a file the user gave), drawn from ``rng``.

        Raises:
            ValueError: naming what cannot be done (more initial members than
                ``size``, a member of another kind, too small a space).
        """
        ...

    def next_plan(self, rated: RatedGeneration, size: int, rng: np.random.Generator) -> BreedingPlan:
        """Generation ``rated.number + 1`` as a plan: ``size`` members bred
        from ``rated``, after the work it gives the workers, if any (what
        the run calls).

        Raises:
            ValueError: if ``size`` distinct members cannot be bred.
        """
        ...

    def next_population(self, rated: RatedGeneration, size: int, rng: np.random.Generator) -> Bred:
        """:meth:`next_plan` with its work done in this process
        (:func:`bred_here`): the same members."""
        ...

    def champion(self, rated: RatedGeneration) -> Individual:
        """The champion of the rated generation: the individual the hall of
        fame and the yardstick measure (network runs ask this; GeneThello
        runs take the top of the round robin as they always have)."""
        ...


class FamilyBreeding(Protocol):
    """How one family makes members for the family-blind breeders (the GA
    and random search): its first population, its GA step and its random
    search step, on its own representation (GeneThello: integer genes;
    networks: real weights). Each returns the members and, for every slot,
    its origin (parents as positions in ``ranked``, re-entered members in
    ``injected``). Pure: randomness only from ``rng``."""

    def first(self, kind: Kind, size: int, initial: Sequence[Individual], rng: np.random.Generator) -> Offspring:
        """Generation 1: ``initial``, then random members, ``size`` distinct in all."""
        ...

    def genetic(self, ranked: Sequence[Individual], size: int, generation: int, config: BreedingConfig,
                rng: np.random.Generator, injected: Sequence[Individual]) -> Offspring:
        """GeneThello's GA on this family's members: elites, crossover with
        mutation, mutants, then the injected best of history."""
        ...

    def random_search(self, ranked: Sequence[Individual], size: int, generation: int, config: BreedingConfig,
                      rng: np.random.Generator, injected: Sequence[Individual]) -> Offspring:
        """Random search: the elites and the absent injected members kept,
        every other member drawn afresh."""
        ...


def members_of(individuals: Sequence[Individual], cls: type[MemberT], breeders: str) -> list[MemberT]:
    """``individuals`` as members of one family's class ``cls`` (a family's
    breeding breeds no other family).

    Raises:
        ValueError: naming the first individual of another family and the
            ``breeders`` that cannot breed it.
    """
    found: list[MemberT] = []
    for individual in individuals:
        if not isinstance(individual, cls):
            raise ValueError(f"{breeders} cannot breed {individual} (a {individual.type.family} chromosome)")
        found.append(individual)
    return found
