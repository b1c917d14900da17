"""GeneThello's GA and random search on networks' real weights (the
baselines CMA-ES must beat, :mod:`~genethello.cluster.breeding.cma_es`).

Both work on a network's real weights (its payload) and hand the
coordinator :class:`~genethello.core.families.network_family.NetworkIndividual`
members; the games play the weights quantized (:mod:`genethello.core.families.networks`),
whose normalization makes a network's size irrelevant, so no optimizer can
shrink the weights away. :class:`NetworkBreeding` is what the family-blind
breeders (:mod:`~genethello.cluster.breeding.breeders`) ask of networks.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from genethello.cluster.breeding.operators import breeding_plan, parent_count
from genethello.cluster.breeding.origins import CROSSOVER, ELITE, INITIAL, MUTANT, RANDOM, REENTERED, Origin
from genethello.cluster.breeding.protocols import Offspring, members_of
from genethello.cluster.config import BreedingConfig
from genethello.core.families.network_family import NETWORKS, NetworkIndividual, NetworkKind
from genethello.core.families.registry import Individual, Kind

__all__ = ["MAX_REDRAWS", "NETWORK_BREEDING", "NetworkBreeding", "network_ga_population", "network_kind",
           "network_random_population", "networks_of", "new_individual", "first_networks"]

#: Re-draws allowed when a new member quantizes to a network already in the
#: population (with hundreds of real weights this never happens in practice).
MAX_REDRAWS = 100


def network_kind(kind: Kind) -> NetworkKind:
    """``kind`` as a network architecture (these breeders breed no other family)."""
    if not isinstance(kind, NetworkKind):
        raise ValueError(f"network breeders cannot breed {kind.name!r} (a {kind.family} chromosome)")
    return kind


def networks_of(individuals: Sequence[Individual]) -> list[NetworkIndividual]:
    """``individuals`` as networks (these breeders breed no other family)."""
    return members_of(individuals, NetworkIndividual, "network breeders")


def new_individual(kind: NetworkKind, birth: int, weights: np.ndarray) -> NetworkIndividual:
    """A member of ``kind`` (its architecture, stages, whole-disc weight and mobility) with real ``weights``."""
    return NetworkIndividual(kind, birth, kind.network(weights))


def first_networks(kind: NetworkKind, size: int, initial: Sequence[Individual],
                   rng: np.random.Generator) -> tuple[list[NetworkIndividual], list[Origin]]:
    """Generation 1 of the GA and random search: ``initial``, then random
    networks (N(0, 1) weights) from ``rng``, all distinct, ``size`` in all;
    with the origin of each (initial, random)."""
    members = networks_of(initial)
    if len(members) > size:
        raise ValueError(f"{len(members)} initial networks given for a population of {size}")
    for member in members:
        if member.type != kind:
            raise ValueError(f"initial network {member} is a {member.type.name}, the run evolves {kind.name}")
    distinct = list(dict.fromkeys(members))
    origins = [Origin(INITIAL)] * len(distinct) + [Origin(RANDOM)] * (size - len(distinct))
    return _fill_random(distinct, kind, size, 1, rng), origins


def _fill_random(members: list[NetworkIndividual], kind: NetworkKind, size: int, birth: int,
                 rng: np.random.Generator) -> list[NetworkIndividual]:
    seen = {str(m) for m in members}
    redraws = 0
    while len(members) < size:
        candidate = NETWORKS.random_individual(kind, birth, rng)
        if str(candidate) in seen:
            redraws += 1
            if redraws > MAX_REDRAWS:
                raise ValueError(f"cannot draw {size} distinct {kind.name} networks")
            continue
        seen.add(str(candidate))
        members.append(candidate)
    return members


def _gaussian_mutation(weights: np.ndarray, rate: float, sigma: float, rng: np.random.Generator,
                       at_least_one: bool) -> np.ndarray:
    """``weights`` with N(0, sigma²) added to each weight chosen with
    probability ``rate`` (at least one chosen when ``at_least_one``)."""
    chosen = rng.random(weights.size) < rate
    if at_least_one and not chosen.any():
        chosen[int(rng.integers(weights.size))] = True
    noise = rng.normal(0.0, sigma, weights.size)
    return np.where(chosen, weights + noise, weights)


def network_ga_population(ranked: Sequence[Individual], size: int, generation: int, config: BreedingConfig,
                          rng: np.random.Generator, injected: Sequence[Individual] = ()
                          ) -> tuple[list[NetworkIndividual], list[Origin]]:
    """GeneThello's GA on real weights: the elites unchanged; offspring by
    uniform crossover of two distinct parents of the top
    ``parent_fraction`` then Gaussian mutation (each weight with probability
    ``mutation_rate``, N(0, ``mutation_sigma``²)); mutants, a parent with at
    least one weight mutated; then each absent injected network replaces the
    last non-elite member — the structure of
    :func:`~genethello.cluster.breeding.population.next_population_with_origins`, with Gaussian
    mutation instead of a uniform redraw (a fair baseline for CMA-ES).
    Returns the members and the origin of each (parents as positions in
    ``ranked``, a re-entered member's in ``injected``)."""
    networks = networks_of(ranked)
    kind = networks[0].type
    plan = breeding_plan(size, config.elites, config.mutant_fraction)
    n_parents = parent_count(len(networks), config.parent_fraction)
    parents = [np.asarray(n.network.weights) for n in networks[:n_parents]]
    members = list(networks[:plan.elites])
    origins = [Origin(ELITE, (k,)) for k in range(len(members))]
    seen = {str(m) for m in members}

    def add(weights: np.ndarray, origin: Origin) -> None:
        child = new_individual(kind, generation, weights)
        redraws = 0
        while str(child) in seen:
            redraws += 1
            if redraws > MAX_REDRAWS:
                raise ValueError(f"cannot keep {size} distinct {kind.name} networks")
            child = new_individual(kind, generation, _gaussian_mutation(
                np.asarray(child.network.weights), config.mutation_rate, config.mutation_sigma, rng, True))
        seen.add(str(child))
        members.append(child)
        origins.append(origin.duplicated() if redraws else origin)

    for _ in range(plan.offspring):
        if n_parents >= 2:
            i, j = (int(k) for k in rng.choice(n_parents, size=2, replace=False))
        else:
            i = j = 0
        mask = rng.random(kind.n_weights) < 0.5
        child = np.where(mask, parents[i], parents[j])
        add(_gaussian_mutation(child, config.mutation_rate, config.mutation_sigma, rng, False),
            Origin(CROSSOVER, (i, j)))
    for _ in range(plan.mutants):
        k = int(rng.integers(n_parents))
        add(_gaussian_mutation(parents[k], config.mutation_rate, config.mutation_sigma, rng, True),
            Origin(MUTANT, (k,)))
    replace_at = len(members) - 1
    for position, network in enumerate(networks_of(injected)):
        if str(network) in seen:
            continue
        if replace_at < plan.elites:
            break
        seen.discard(str(members[replace_at]))
        members[replace_at] = network
        origins[replace_at] = Origin(REENTERED, (position,))
        seen.add(str(network))
        replace_at -= 1
    return members, origins


def network_random_population(ranked: Sequence[Individual], size: int, generation: int, config: BreedingConfig,
                              rng: np.random.Generator, injected: Sequence[Individual] = ()
                              ) -> tuple[list[NetworkIndividual], list[Origin]]:
    """Random search on networks: the elites and the absent injected
    networks kept, every other member a fresh random network; with the
    origin of each."""
    networks = networks_of(ranked)
    kind = networks[0].type
    members = list(networks[:config.elites])
    origins = [Origin(ELITE, (k,)) for k in range(len(members))]
    seen = {str(m) for m in members}
    for position, network in enumerate(networks_of(injected)):
        if len(members) < size and str(network) not in seen:
            members.append(network)
            origins.append(Origin(REENTERED, (position,)))
            seen.add(str(network))
    members = _fill_random(members, kind, size, generation, rng)
    return members, origins + [Origin(RANDOM)] * (size - len(origins))


class NetworkBreeding:
    """Networks as the family-blind GA and random search breed them (a
    :class:`~genethello.cluster.breeding.protocols.FamilyBreeding`): on their
    real weights, by :func:`first_networks`, :func:`network_ga_population`
    and :func:`network_random_population`."""

    def first(self, kind: Kind, size: int, initial: Sequence[Individual], rng: np.random.Generator) -> Offspring:
        return first_networks(network_kind(kind), size, initial, rng)

    def genetic(self, ranked: Sequence[Individual], size: int, generation: int, config: BreedingConfig,
                rng: np.random.Generator, injected: Sequence[Individual]) -> Offspring:
        return network_ga_population(ranked, size, generation, config, rng, injected)

    def random_search(self, ranked: Sequence[Individual], size: int, generation: int, config: BreedingConfig,
                      rng: np.random.Generator, injected: Sequence[Individual]) -> Offspring:
        return network_random_population(ranked, size, generation, config, rng, injected)


NETWORK_BREEDING = NetworkBreeding()
