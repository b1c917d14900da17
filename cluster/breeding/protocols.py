"""The breeders' interface: what a breeder is handed (:class:`RatedGeneration`),
what it returns (:class:`Bred`), what a breeder is (:class:`Breeder`) and
what a family gives the family-blind breeders (:class:`FamilyBreeding`).

A leaf of :mod:`genethello.cluster.breeding`: the breeders
(:mod:`~genethello.cluster.breeding.breeders`,
:mod:`~genethello.cluster.breeding.network_breeders`) and each family's
breeding (:mod:`~genethello.cluster.breeding.genethello_breeding`) import
it, and it imports none of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol, TypeVar

import numpy as np

from genethello.cluster.breeding.origins import Origin
from genethello.cluster.config import BreedingConfig
from genethello.core.families.registry import Individual, Kind

__all__ = ["Bred", "RatedGeneration", "Breeder", "FamilyBreeding", "Offspring", "members_of"]

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
    """

    number: int
    kind: Kind
    ranked: Sequence[Individual]
    injected: Sequence[Individual] = ()
    state: bytes | None = None
    points: Sequence[float] = ()
    slots: Sequence[int] = ()


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

    def first_population(self, kind: Kind, size: int, initial: Sequence[Individual],
                         rng: np.random.Generator) -> Bred:
        """Generation 1: ``size`` distinct members of ``kind``, beginning with
        ``initial`` (a file the user gave), drawn from ``rng``.

        Raises:
            ValueError: naming what cannot be done (more initial members than
                ``size``, a member of another kind, too small a space).
        """
        ...

    def next_population(self, rated: RatedGeneration, size: int, rng: np.random.Generator) -> Bred:
        """Generation ``rated.number + 1``: ``size`` members bred from ``rated``.

        Raises:
            ValueError: if ``size`` distinct members cannot be bred.
        """
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
