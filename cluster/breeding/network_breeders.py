"""Breeders of n-tuple networks: CMA-ES, and GeneThello's GA and random
search on real weights (the baselines CMA-ES must beat).

All three work on a network's real weights (its payload) and hand the
coordinator :class:`~genethello.core.families.network_family.NetworkIndividual`
members; the games play the weights quantized (:mod:`genethello.core.families.networks`),
whose normalization makes a network's size irrelevant, so no optimizer can
shrink the weights away.

**CMA-ES** (:class:`CmaEsBreeder`) uses the ``cmaes`` library: full
covariance (:class:`cmaes.CMA`) up to :data:`FULL_CMA_MAX_WEIGHTS` weights,
the separable variant (:class:`cmaes.SepCMA`) above, where full covariance
adapts too slowly and its matrices grow to tens of MB
(``breeding.cma_variant``). λ is the population size; the distribution
starts at mean 0 with step ``breeding.sigma0`` (with mean 0 the step sets
only the real weights' scale, which the quantization removes). Every
random draw is the optimizer's own ``RandomState``, seeded from the
generation's Generator at generation 1 and thereafter carried in its state;
the whole state travels as :attr:`Bred.state` bytes
(:mod:`genethello.cluster.breeding.cma_state`), so a resumed run breeds from exactly
what an uninterrupted one had.

*The champion of a generation is the distribution's mean* once the
optimizer has been told the generation's ranking (the point the next
generation is sampled around), not its best sample: CMA-ES's
own recommendation for the solution, because the mean is a weighted
recombination of many selected samples and so averages out their noise,
while the best sample is the maximum of λ noisy fitness estimates (a
winner's curse: with a few hundred games per member its top score is
mostly luck). The mean never plays a fitness game; the hall of fame and the
yardstick measure it.

CMA-ES ignores ``breeding.inject_top``: re-entering old individuals would
tell the optimizer points it did not sample.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from genethello.cluster.breeding.cma_state import CmaStateError, Optimizer, dump_state, load_state, new_optimizer
from genethello.cluster.breeding.operators import breeding_plan, parent_count
from genethello.cluster.breeding.origins import CMA_SAMPLE, CROSSOVER, ELITE, INITIAL, MUTANT, RANDOM, REENTERED, Origin
from genethello.cluster.breeding.protocols import Bred, Offspring, RatedGeneration, members_of
from genethello.cluster.config import BreedingConfig
from genethello.core.families.network_family import NETWORKS, NetworkIndividual, NetworkKind
from genethello.core.families.networks import Network
from genethello.core.families.registry import Individual, Kind

__all__ = ["FULL_CMA_MAX_WEIGHTS", "CmaEsBreeder", "NETWORK_BREEDING", "NetworkBreeding", "cma_variant",
           "network_ga_population", "network_random_population", "networks_of", "first_networks"]

#: ``breeding.cma_variant = "auto"`` takes full covariance up to this many
#: weights (all-2's 288 and all-2x2's), the separable variant above.
FULL_CMA_MAX_WEIGHTS = 500

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


def cma_variant(config: BreedingConfig, kind: NetworkKind) -> str:
    """The CMA-ES variant a run of ``kind`` uses: "full" or "separable"."""
    if config.cma_variant != "auto":
        return config.cma_variant
    return "full" if kind.n_weights <= FULL_CMA_MAX_WEIGHTS else "separable"


def _individual(kind: NetworkKind, birth: int, weights: np.ndarray) -> NetworkIndividual:
    return NetworkIndividual(kind, birth, Network(kind.architecture, np.asarray(weights, dtype=np.float64)))


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
        child = _individual(kind, generation, weights)
        redraws = 0
        while str(child) in seen:
            redraws += 1
            if redraws > MAX_REDRAWS:
                raise ValueError(f"cannot keep {size} distinct {kind.name} networks")
            child = _individual(kind, generation, _gaussian_mutation(
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


@dataclass(frozen=True)
class CmaEsBreeder:
    """CMA-ES on networks (module docstring): λ = the population size, the
    state (distribution and generator) in :attr:`Bred.state`."""

    config: BreedingConfig
    name: ClassVar[str] = "cma-es"
    #: The last generation's optimizer state once told its ranking, by what
    #: it was told: the hall step asks for the champion and the breed step
    #: for the next population of the same rated generation, and the
    #: optimizer is restored and told once (the state round-trips exactly).
    _told_states: dict[tuple[object, ...], bytes] = field(default_factory=dict, compare=False, repr=False)

    def breeds(self, kind: Kind) -> bool:
        return isinstance(kind, NetworkKind)

    def first_population(self, kind: Kind, size: int, initial: Sequence[Individual],
                         rng: np.random.Generator) -> Bred:
        """λ samples of the starting distribution (mean 0, step ``sigma0``);
        the optimizer's generator is seeded from ``rng``."""
        net_kind = network_kind(kind)
        if initial:
            raise ValueError("population.initial: CMA-ES starts from its own distribution (mean 0), "
                             "not from an initial population")
        optimizer = new_optimizer(cma_variant(self.config, net_kind), np.zeros(net_kind.n_weights),
                                  self.config.sigma0, size, int(rng.integers(2**32)))
        return self._sample(optimizer, net_kind, 1, size)

    def next_population(self, rated: RatedGeneration, size: int, rng: np.random.Generator) -> Bred:
        """Tell the optimizer generation ``rated.number``'s ranking (each
        member's real weights with minus its points, best first; the rank
        when no points are given), then sample generation ``number + 1``."""
        optimizer = self._told(rated)
        if size != optimizer.population_size:
            raise ValueError(f"CMA-ES breeds {optimizer.population_size} members a generation, not {size}")
        return self._sample(optimizer, network_kind(rated.kind), rated.number + 1, size)

    def champion(self, rated: RatedGeneration) -> Individual:
        """Generation ``rated.number``'s champion: the distribution's mean
        once the optimizer has been told the generation's ranking (the
        mean the next generation is sampled around), born at that
        generation (module docstring)."""
        return _individual(network_kind(rated.kind), rated.number, np.asarray(self._told(rated).mean))

    def _told(self, rated: RatedGeneration) -> Optimizer:
        """The optimizer stored with the generation, told its ranking."""
        if rated.state is None:
            raise ValueError(f"generation {rated.number} has no stored CMA-ES state to breed from")
        key = (rated.number, hashlib.sha256(rated.state).digest(), tuple(float(p) for p in rated.points),
               tuple(str(m) for m in rated.ranked))
        told = self._told_states.get(key)
        if told is None:
            told = dump_state(self._tell(rated))
            self._told_states.clear()
            self._told_states[key] = told
        return load_state(told)

    @staticmethod
    def _tell(rated: RatedGeneration) -> Optimizer:
        """The optimizer stored with the generation, restored and told its ranking."""
        if rated.state is None:
            raise ValueError(f"generation {rated.number} has no stored CMA-ES state to breed from")
        try:
            optimizer = load_state(rated.state)
        except CmaStateError as exc:
            raise ValueError(f"generation {rated.number}: {exc}") from None
        members = networks_of(rated.ranked)
        if len(members) != optimizer.population_size:
            raise ValueError(f"CMA-ES was told {len(members)} members, its generations have "
                             f"{optimizer.population_size}")
        values = ([-float(p) for p in rated.points] if rated.points else [float(i) for i in range(len(members))])
        optimizer.tell([(np.array(m.network.weights, dtype=np.float64), v) for m, v in zip(members, values)])
        return optimizer

    def _sample(self, optimizer: Optimizer, kind: NetworkKind, generation: int, size: int) -> Bred:
        ask = optimizer.ask
        members: list[NetworkIndividual] = []
        seen: set[str] = set()
        redraws = 0
        while len(members) < size:
            candidate = _individual(kind, generation, ask())
            if str(candidate) in seen:
                redraws += 1
                if redraws > MAX_REDRAWS:
                    raise ValueError(f"CMA-ES cannot draw {size} distinct {kind.name} networks "
                                     "(its step size has collapsed below one quantization step)")
                continue
            seen.add(str(candidate))
            members.append(candidate)
        # every member a sample of the distribution told generation - 1's ranking
        return Bred(members, dump_state(optimizer), [Origin(CMA_SAMPLE)] * size)
