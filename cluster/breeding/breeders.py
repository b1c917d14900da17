"""Breeders: from a rated generation to the next population, behind one interface.

The coordinator knows only :class:`Breeder`: it hands the breeder a
:class:`RatedGeneration` (the members best first, the best of history to
inject, and the state the breeder left with that generation) and stores the
:class:`Bred` result — the next members and the breeder's new state — in the
transaction that starts the next generation. A breeder is chosen by name from
``breeding.method`` (:data:`BREEDERS`); adding one (CMA-ES) adds an entry
there and touches neither the coordinator's sequence nor the store's.

Lineage. With the members, a breeder returns why each is there
(:attr:`Bred.origins`, :mod:`origins`: elite, re-entered, crossover, mutant,
a duplicate mutated again, a CMA-ES sample, random, initial), naming parents
by their position in the ranking it was handed; the coordinator turns those
into player ids and the store keeps them on the population slots. Recording
them changes no draw.

Breeders decide and nothing else: no Ray, no SQL. Every random draw comes
from the Generator passed in (the coordinator's ``generation_rng(seed, g)``),
so a generation is bred the same on every machine and after any
interruption.

State. A breeder that carries state from generation to generation (CMA-ES:
its distribution and its own generator) returns it as bytes in
:attr:`Bred.state`; the store keeps it with the generation it bred and hands
it back in :attr:`RatedGeneration.state` when that generation is rated, so a
resumed run breeds from exactly what an uninterrupted one had. The bytes are
the breeder's own format, opaque to the store
(``generations.breeder_state``, from migration 0004). GeneThello's GA and
random search are stateless (their state is None).

Families. The GA and random search breed GeneThello chromosomes as they
always have (:mod:`population`) and n-tuple networks on their real weights
(:mod:`network_breeders`: Gaussian mutation); CMA-ES (``cma-es``) breeds
networks only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol

import numpy as np

from genethello.cluster.breeding.network_breeders import (
    CmaEsBreeder,
    first_networks,
    network_ga_population,
    network_kind,
    network_random_population,
)
from genethello.cluster.breeding.origins import Origin
from genethello.cluster.breeding.population import (
    first_population_with_origins,
    next_population_with_origins,
    random_search_with_origins,
)
from genethello.core.families.chromosome import FAMILY_NAME as GENETHELLO_FAMILY
from genethello.core.families.chromosome import Chromosome, ChromosomeType
from genethello.core.families.network_family import FAMILY_NAME as NETWORK_FAMILY
from genethello.core.families.registry import Individual, Kind

if TYPE_CHECKING:
    from genethello.cluster.config import BreedingConfig

__all__ = ["Bred", "RatedGeneration", "Breeder", "GeneticBreeder", "RandomSearchBreeder", "CmaEsBreeder",
           "BREEDERS", "breeder_for"]


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
    """

    number: int
    kind: Kind
    ranked: Sequence[Individual]
    injected: Sequence[Individual] = ()
    state: bytes | None = None
    points: Sequence[float] = ()


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


@dataclass(frozen=True)
class _StatelessBreeder:
    """What GeneThello's GA and random search share: they breed both
    families, start from random members (after the initial file's), keep no
    state, and call the top of the ranking the champion. Subclasses say how
    the next generation is made."""

    config: BreedingConfig

    def breeds(self, kind: Kind) -> bool:
        return kind.family in (GENETHELLO_FAMILY, NETWORK_FAMILY)

    def first_population(self, kind: Kind, size: int, initial: Sequence[Individual],
                         rng: np.random.Generator) -> Bred:
        if kind.family == NETWORK_FAMILY:
            networks, origins = first_networks(network_kind(kind), size, initial, rng)
            return Bred(networks, origins=origins)
        members, origins = first_population_with_origins(_chromosome_type(kind), size, rng, _chromosomes(initial))
        return Bred(members, origins=origins)

    def champion(self, rated: RatedGeneration) -> Individual:
        """The top of the generation's ranking."""
        return rated.ranked[0]


@dataclass(frozen=True)
class GeneticBreeder(_StatelessBreeder):
    """GeneThello's genetic algorithm: elites, uniform crossover with per-gene
    mutation, mutants, then injection of the best of history (see
    :func:`population.next_population_with_origins`); on networks the same structure with
    Gaussian mutation of the real weights. Stateless."""

    name: ClassVar[str] = "ga"

    def next_population(self, rated: RatedGeneration, size: int, rng: np.random.Generator) -> Bred:
        if rated.kind.family == NETWORK_FAMILY:
            networks, origins = network_ga_population(rated.ranked, size, rated.number + 1, self.config, rng,
                                                      rated.injected)
            return Bred(networks, origins=origins)
        members, origins = next_population_with_origins(_chromosomes(rated.ranked), size, rated.number + 1,
                                                        self.config, rng, _chromosomes(rated.injected))
        return Bred(members, origins=origins)


@dataclass(frozen=True)
class RandomSearchBreeder(_StatelessBreeder):
    """Random search, the GA's baseline: the elites and absent injected
    members kept, everyone else drawn afresh (see
    :func:`population.random_search_with_origins`). Stateless."""

    name: ClassVar[str] = "random-search"

    def next_population(self, rated: RatedGeneration, size: int, rng: np.random.Generator) -> Bred:
        if rated.kind.family == NETWORK_FAMILY:
            networks, origins = network_random_population(rated.ranked, size, rated.number + 1, self.config, rng,
                                                          rated.injected)
            return Bred(networks, origins=origins)
        members, origins = random_search_with_origins(_chromosomes(rated.ranked), size, rated.number + 1,
                                                      self.config, rng, _chromosomes(rated.injected))
        return Bred(members, origins=origins)


def _chromosome_type(kind: Kind) -> ChromosomeType:
    """``kind`` as GeneThello's chromosome type (its breeders breed no other family)."""
    if not isinstance(kind, ChromosomeType):
        raise ValueError(f"GeneThello's breeders cannot breed {kind.name!r} (a {kind.family} chromosome)")
    return kind


def _chromosomes(individuals: Sequence[Individual]) -> list[Chromosome]:
    """``individuals`` as GeneThello chromosomes (its breeders breed no other family)."""
    found = []
    for individual in individuals:
        if not isinstance(individual, Chromosome):
            raise ValueError(f"GeneThello's breeders cannot breed {individual} "
                             f"(a {individual.type.family} chromosome)")
        found.append(individual)
    return found


#: Every breeder by its ``breeding.method`` name: the config accepts these
#: names and no others.
BREEDERS: dict[str, Callable[[BreedingConfig], Breeder]] = {
    GeneticBreeder.name: GeneticBreeder,
    RandomSearchBreeder.name: RandomSearchBreeder,
    CmaEsBreeder.name: CmaEsBreeder,
}


def breeder_for(config: BreedingConfig) -> Breeder:
    """The breeder that ``config.method`` names, set up with ``config``.

    Raises:
        ValueError: naming the method and the ones there are (a checked
            config never has another).
    """
    try:
        make = BREEDERS[config.method]
    except KeyError:
        raise ValueError(f"breeding.method: {config.method!r} is not one of {', '.join(BREEDERS)}") from None
    return make(config)
