"""GeneThello's chromosomes as the family-blind breeders see them: a
:class:`~genethello.cluster.breeding.protocols.FamilyBreeding` over
:mod:`~genethello.cluster.breeding.population` (its first population, its GA
and its random search on integer genes), with the one check that the
members handed in are chromosomes."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from genethello.cluster.breeding.population import (
    first_population_with_origins,
    next_population_with_origins,
    random_search_with_origins,
)
from genethello.cluster.breeding.protocols import Offspring, members_of
from genethello.cluster.config import BreedingConfig
from genethello.core.families.chromosome import Chromosome, ChromosomeType
from genethello.core.families.registry import Individual, Kind

__all__ = ["GENETHELLO_BREEDING", "GeneThelloBreeding"]


def _chromosome_type(kind: Kind) -> ChromosomeType:
    """``kind`` as GeneThello's chromosome type (its breeding breeds no other family)."""
    if not isinstance(kind, ChromosomeType):
        raise ValueError(f"GeneThello's breeders cannot breed {kind.name!r} (a {kind.family} chromosome)")
    return kind


def _chromosomes(individuals: Sequence[Individual]) -> list[Chromosome]:
    """``individuals`` as GeneThello chromosomes (its breeding breeds no other family)."""
    return members_of(individuals, Chromosome, "GeneThello's breeders")


class GeneThelloBreeding:
    """GeneThello's breeding as it always was (:mod:`population`)."""

    def first(self, kind: Kind, size: int, initial: Sequence[Individual], rng: np.random.Generator) -> Offspring:
        return first_population_with_origins(_chromosome_type(kind), size, rng, _chromosomes(initial))

    def genetic(self, ranked: Sequence[Individual], size: int, generation: int, config: BreedingConfig,
                rng: np.random.Generator, injected: Sequence[Individual]) -> Offspring:
        return next_population_with_origins(_chromosomes(ranked), size, generation, config, rng,
                                            _chromosomes(injected))

    def random_search(self, ranked: Sequence[Individual], size: int, generation: int, config: BreedingConfig,
                      rng: np.random.Generator, injected: Sequence[Individual]) -> Offspring:
        return random_search_with_origins(_chromosomes(ranked), size, generation, config, rng,
                                          _chromosomes(injected))


GENETHELLO_BREEDING = GeneThelloBreeding()
