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

Work for the workers. A breeder that needs the workers (pbt-td's learning
slices) says so in its plan (:meth:`Breeder.next_plan`, a
:class:`~genethello.cluster.breeding.protocols.BreedingPlan`: a task, its
items, and how their outcomes become the generation); the run runs every
breeder's plan alike, so it never asks which breeder it holds. The others'
plans are ready at once.

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

Families. The GA and random search breed every family that
:data:`~genethello.cluster.breeding.family_breeding.FAMILY_BREEDING` lists,
each on its own representation (GeneThello's chromosomes as they always
have, :mod:`population`; n-tuple networks on their real weights,
:mod:`network_breeders`: Gaussian mutation), and never ask which family
they hold; CMA-ES (``cma-es``) breeds networks only, and pbt-td
(:mod:`network_pbt`: temporal-difference learning with population-based
training, the one breeder that learns) staged networks only. The interface's types
live in :mod:`~genethello.cluster.breeding.protocols`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from genethello.cluster.breeding.cma_es import CmaEsBreeder
from genethello.cluster.breeding.family_breeding import FAMILY_BREEDING, breeding_for
from genethello.cluster.breeding.network_pbt import PbtTdBreeder
from genethello.cluster.breeding.protocols import Bred, Breeder, BreedingPlan, RatedGeneration
from genethello.cluster.config import BreedingConfig, RunConfig
from genethello.core.families.registry import Individual, Kind

__all__ = ["Bred", "RatedGeneration", "Breeder", "GeneticBreeder", "RandomSearchBreeder", "CmaEsBreeder",
           "PbtTdBreeder", "BREEDERS", "breeder_for"]


@dataclass(frozen=True)
class _StatelessBreeder:
    """What GeneThello's GA and random search share: they breed both
    families, start from random members (after the initial file's), keep no
    state, and call the top of the ranking the champion. Subclasses say how
    the next generation is made."""

    config: BreedingConfig

    def breeds(self, kind: Kind) -> bool:
        return kind.family in FAMILY_BREEDING

    def check(self, config: RunConfig) -> None:
        """Nothing beyond the config's own checks."""

    def first_population(self, kind: Kind, size: int, initial: Sequence[Individual],
                         rng: np.random.Generator) -> Bred:
        members, origins = breeding_for(kind).first(kind, size, initial, rng)
        return Bred(members, origins=origins)

    def champion(self, rated: RatedGeneration) -> Individual:
        """The top of the generation's ranking."""
        return rated.ranked[0]

    def next_plan(self, rated: RatedGeneration, size: int, rng: np.random.Generator) -> BreedingPlan:
        """Nothing for the workers: the next population, bred here."""
        return BreedingPlan.ready(self.next_population(rated, size, rng))

    def next_population(self, rated: RatedGeneration, size: int, rng: np.random.Generator) -> Bred:
        """The next population (each subclass says how)."""
        raise NotImplementedError


@dataclass(frozen=True)
class GeneticBreeder(_StatelessBreeder):
    """GeneThello's genetic algorithm: elites, uniform crossover with per-gene
    mutation, mutants, then injection of the best of history (see
    :func:`population.next_population_with_origins`); on networks the same structure with
    Gaussian mutation of the real weights. Stateless."""

    name: ClassVar[str] = "ga"

    def next_population(self, rated: RatedGeneration, size: int, rng: np.random.Generator) -> Bred:
        members, origins = breeding_for(rated.kind).genetic(rated.ranked, size, rated.number + 1, self.config, rng,
                                                            rated.injected)
        return Bred(members, origins=origins)


@dataclass(frozen=True)
class RandomSearchBreeder(_StatelessBreeder):
    """Random search, the GA's baseline: the elites and absent injected
    members kept, everyone else drawn afresh (see
    :func:`population.random_search_with_origins`). Stateless."""

    name: ClassVar[str] = "random-search"

    def next_population(self, rated: RatedGeneration, size: int, rng: np.random.Generator) -> Bred:
        members, origins = breeding_for(rated.kind).random_search(rated.ranked, size, rated.number + 1, self.config,
                                                                  rng, rated.injected)
        return Bred(members, origins=origins)


#: Every breeder by its ``breeding.method`` name: the config accepts these
#: names and no others.
BREEDERS: dict[str, Callable[[BreedingConfig], Breeder]] = {
    GeneticBreeder.name: GeneticBreeder,
    RandomSearchBreeder.name: RandomSearchBreeder,
    CmaEsBreeder.name: CmaEsBreeder,
    PbtTdBreeder.name: PbtTdBreeder,
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
