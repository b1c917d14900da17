"""GeneThello's populations: the first one, and the next one from a
generation's ranking by the genetic algorithm or by random search (unique
members, injection of the best of history). Pure: chromosomes in,
chromosomes out, randomness only from the given Generator. The breeders of
:mod:`breeders` call these; the coordinator calls the breeders.

Each ``*_with_origins`` function also says why each member is there (one
:class:`~genethello.cluster.breeding.origins.Origin` a slot); the plain functions
return the same members without them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from genethello.cluster.breeding.operators import breed_with_origins, mutate_at_least_one
from genethello.cluster.breeding.origins import ELITE, INITIAL, RANDOM, REENTERED, Origin
from genethello.cluster.config import BreedingConfig
from genethello.core.families.chromosome import Chromosome, ChromosomeType, random_chromosome
from genethello.core.play.seeds import derive_seed

# Re-draws allowed when a newborn duplicates a member; only a gene space
# smaller than the population can exhaust it.
MAX_REDRAWS = 1000


def generation_rng(seed: int, generation: int) -> np.random.Generator:
    """The Generator of one generation's decisions: a function of the run's
    seed and the generation only, so an interrupted run breeds the same."""
    return np.random.default_rng(derive_seed(seed, "generation", generation))


def rank_key(elo: float, birth: int, text: str) -> tuple[float, int, str]:
    """Sort key, best first: Elo, then the older birth, then the chromosome's
    canonical text, so ties never depend on database ids or dictionary
    order. (The database sorts the same way: ``ORDER BY elo DESC, birth,
    text``, as SQLite compares ASCII text as Python does.)"""
    return (-elo, birth, text)


def first_population_with_origins(ctype: ChromosomeType, P: int, rng: np.random.Generator,
                                  initial: Sequence[Chromosome] = ()
                                  ) -> tuple[list[Chromosome], list[Origin]]:
    """Generation 1: the given chromosomes (keeping their birth), then random
    ones drawn from ``rng`` (the run's: ``generation_rng(seed, 1)``), all
    distinct, P in all; each with its origin (initial, random).

    Raises:
        ValueError: if an initial chromosome has another type, or more than P
            are given, or P distinct chromosomes cannot be drawn.
    """
    if len(initial) > P:
        raise ValueError(f"{len(initial)} initial chromosomes given for a population of {P}")
    members: list[Chromosome] = []
    seen: set[tuple[int, ...]] = set()
    for chromosome in initial:
        if chromosome.type != ctype:
            raise ValueError(f"initial chromosome {chromosome} is of type {chromosome.type}, "
                             f"the run evolves {ctype}")
        if chromosome.genes not in seen:
            seen.add(chromosome.genes)
            members.append(chromosome)
    origins = [Origin(INITIAL)] * len(members) + [Origin(RANDOM)] * (P - len(members))
    return _fill_with_random(members, seen, ctype, P, 1, rng), origins


def _fill_with_random(members: list[Chromosome], seen: set[tuple[int, ...]], ctype: ChromosomeType, P: int,
                      birth: int, rng: np.random.Generator) -> list[Chromosome]:
    """``members`` completed to P with random chromosomes born at ``birth``,
    each with genes not in ``seen`` (which is updated)."""
    redraws = 0
    while len(members) < P:
        candidate = random_chromosome(ctype, birth, rng)
        if candidate.genes in seen:
            redraws += 1
            if redraws > MAX_REDRAWS:
                raise ValueError(f"cannot draw {P} distinct {ctype} chromosomes")
            continue
        seen.add(candidate.genes)
        members.append(candidate)
    return members


def next_population_with_origins(ranked: Sequence[Chromosome], P: int, generation: int, config: BreedingConfig,
                                 rng: np.random.Generator, injected: Sequence[Chromosome] = ()
                                 ) -> tuple[list[Chromosome], list[Origin]]:
    """The population of ``generation`` bred from ``ranked`` (best first) by
    GeneThello's genetic algorithm.

    Order: the elites (unchanged, keeping their birth), offspring, mutants
    (GeneThello's breeding, see operators.breed_with_origins); a newborn
    that duplicates the genes of another member is mutated again until it is
    unique. Then each ``injected`` chromosome that is absent replaces the last
    non-elite member (newborns have no rating yet, so the last bred — mutants,
    then offspring — are the ones to go), keeping the population at P.
    Each member comes with its origin (parents as positions in ``ranked``;
    a re-entered member's as its position in ``injected``).

    Raises:
        ValueError: if the gene space is too small for P distinct members.
    """
    ctype = ranked[0].type
    ranges = ctype.gene_ranges()
    genes, origins = breed_with_origins([c.genes for c in ranked], P, config.elites, ranges, rng,
                                        parent_fraction=config.parent_fraction,
                                        mutation_rate=config.mutation_rate,
                                        mutant_fraction=config.mutant_fraction)
    members: list[Chromosome] = list(ranked[: config.elites])
    seen = {c.genes for c in members}
    for slot, child in enumerate(genes[config.elites:], config.elites):
        redraws = 0
        while child in seen:
            redraws += 1
            if redraws > MAX_REDRAWS:
                raise ValueError(f"cannot keep {P} distinct {ctype} chromosomes: the gene space is too small")
            child = mutate_at_least_one(child, ranges, config.mutation_rate, rng)
        if redraws:
            origins[slot] = origins[slot].duplicated()
        seen.add(child)
        members.append(Chromosome.from_genes(ctype, generation, child))
    replace_at = len(members) - 1
    for k, chromosome in enumerate(injected):
        if chromosome.genes in seen:
            continue
        if replace_at < config.elites:
            break
        seen.discard(members[replace_at].genes)
        members[replace_at] = chromosome
        origins[replace_at] = Origin(REENTERED, (k,))
        seen.add(chromosome.genes)
        replace_at -= 1
    return members, origins


def random_search_with_origins(ranked: Sequence[Chromosome], P: int, generation: int, config: BreedingConfig,
                               rng: np.random.Generator, injected: Sequence[Chromosome]
                               ) -> tuple[list[Chromosome], list[Origin]]:
    """Random search, the GA's baseline: the elites and the absent injected
    chromosomes kept, every other member a fresh random chromosome (distinct
    from the rest). It spends the same games as the GA; if the GA's
    operators help, it must beat this. Each member comes with its origin."""
    ctype = ranked[0].type
    members: list[Chromosome] = list(ranked[: config.elites])
    origins = [Origin(ELITE, (k,)) for k in range(len(members))]
    seen = {c.genes for c in members}
    for k, chromosome in enumerate(injected):
        if len(members) < P and chromosome.genes not in seen:
            members.append(chromosome)
            origins.append(Origin(REENTERED, (k,)))
            seen.add(chromosome.genes)
    members = _fill_with_random(members, seen, ctype, P, generation, rng)
    return members, origins + [Origin(RANDOM)] * (P - len(origins))
