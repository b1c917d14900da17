"""Genetic operators and the breeding step of GeneThello's genetic algorithm.

A chromosome is handled here as a plain tuple of ints (``genes``) together
with one inclusive range ``(low, high)`` per gene. Every random decision
takes an explicit :class:`numpy.random.Generator` and returns new tuples;
inputs are never modified and no global random state is touched, so a
generation bred from the same ranked population with the same seed is the
same on every machine and in every process.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from genethello.cluster.breeding.origins import CROSSOVER, ELITE, MUTANT, Origin

Genes = tuple[int, ...]
Ranges = Sequence[tuple[int, int]]

#: GeneThello's mutation rate, 8.3 % = 1/12: with oe_fmc's 11 genes, about
#: one gene per chromosome changes on average.
DEFAULT_MUTATION_RATE = 1 / 12
#: Share of the ranked population, best first, that may become a parent.
DEFAULT_PARENT_FRACTION = 0.35
#: Share of the next population made of mutated copies of single parents.
DEFAULT_MUTANT_FRACTION = 0.10


def _check_ranges(ranges: Ranges) -> None:
    for index, (low, high) in enumerate(ranges):
        if low > high:
            raise ValueError(f"range {index} is ({low}, {high}): low must be <= high")


def _check_genes(genes: Sequence[int], ranges: Ranges, what: str = "genes") -> None:
    """Raise ValueError unless ``genes`` has one value per range, each inside it."""
    if len(genes) != len(ranges):
        raise ValueError(f"{what} has {len(genes)} genes but there are {len(ranges)} ranges")
    for index, (gene, (low, high)) in enumerate(zip(genes, ranges)):
        if not low <= gene <= high:
            raise ValueError(f"{what}[{index}] = {gene} is outside its range {low}..{high}")


def _check_rate(rate: float) -> None:
    if not 0.0 <= rate <= 1.0:
        raise ValueError(f"mutation rate {rate!r} must lie in [0, 1]")


def _other_value(gene: int, low: int, high: int, rng: np.random.Generator) -> int:
    """A value drawn uniformly from low..high except ``gene`` (which lies in it)."""
    # Draw from one value fewer and skip over the current one: uniform over
    # the others without a rejection loop.
    value = int(rng.integers(low, high))
    return value + 1 if value >= gene else value


def clip_to_ranges(genes: Sequence[int], ranges: Ranges) -> Genes:
    """Each gene clamped into its inclusive range.

    Useful for chromosomes that come from outside the operators (an older
    database, a hand-written file) whose ranges have since narrowed.

    Args:
        genes: one int per gene.
        ranges: inclusive ``(low, high)`` per gene.

    Returns:
        A new tuple with ``min(max(gene, low), high)`` per gene.

    Raises:
        ValueError: if the lengths differ or a range has low > high.
    """
    _check_ranges(ranges)
    if len(genes) != len(ranges):
        raise ValueError(f"genes has {len(genes)} genes but there are {len(ranges)} ranges")
    return tuple(int(min(max(gene, low), high)) for gene, (low, high) in zip(genes, ranges))


def uniform_crossover(a: Sequence[int], b: Sequence[int], rng: np.random.Generator) -> Genes:
    """A child taking each gene from parent ``a`` or ``b`` with probability 1/2.

    Uniform rather than one-point crossover because a chromosome's genes are
    weights of unrelated features (and game phases): their position carries
    no linkage worth keeping together.

    Args:
        a, b: the parents, of equal length.
        rng: source of the coin flips (one draw per gene).

    Returns:
        The child as a new tuple.

    Raises:
        ValueError: if the parents differ in length.
    """
    if len(a) != len(b):
        raise ValueError(f"parents differ in length: {len(a)} and {len(b)} genes")
    from_a = rng.random(len(a)) < 0.5
    return tuple(int(x if take_a else y) for x, y, take_a in zip(a, b, from_a))


def one_point_crossover(a: Sequence[int], b: Sequence[int], rng: np.random.Generator) -> Genes:
    """A child made of ``a`` up to a cut point and ``b`` after it.

    The cut is drawn uniformly from 1..n-1, so the child takes at least one
    gene from each parent; chromosomes of fewer than two genes have no such
    cut and come back as a copy of ``a`` (no random draw is made).

    Args:
        a, b: the parents, of equal length.
        rng: source of the cut point.

    Returns:
        ``a[:cut] + b[cut:]`` as a new tuple.

    Raises:
        ValueError: if the parents differ in length.
    """
    if len(a) != len(b):
        raise ValueError(f"parents differ in length: {len(a)} and {len(b)} genes")
    if len(a) < 2:
        return tuple(int(x) for x in a)
    cut = int(rng.integers(1, len(a)))
    return tuple(int(x) for x in (*a[:cut], *b[cut:]))


def mutate(genes: Sequence[int], ranges: Ranges, rate: float, rng: np.random.Generator) -> Genes:
    """Per-gene mutation: each gene, independently with probability ``rate``,
    is replaced by a different value drawn uniformly from its range.

    Why per gene: GeneThello's mutation rate of 8.3 % = 1/12 is about 1/11,
    one over the gene count of its oe_fmc chromosome, so applied per gene it
    changes about one gene per chromosome on average. A gene whose range
    holds a single value cannot change and is left as it is.

    Args:
        genes: one int per gene, each inside its range.
        ranges: inclusive ``(low, high)`` per gene.
        rate: probability in [0, 1] that a gene is chosen for mutation.
        rng: source of the choices (one uniform draw per gene, then one
            integer draw per chosen gene, in gene order).

    Returns:
        The mutated chromosome as a new tuple.

    Raises:
        ValueError: if lengths differ, a gene lies outside its range, a
            range has low > high, or ``rate`` is outside [0, 1].
    """
    _check_ranges(ranges)
    _check_genes(genes, ranges)
    _check_rate(rate)
    return _change_genes(genes, ranges, rng.random(len(genes)) < rate, rng)


def mutate_at_least_one(
    genes: Sequence[int], ranges: Ranges, rate: float, rng: np.random.Generator
) -> Genes:
    """Per-gene mutation that is guaranteed to change at least one gene.

    One gene is drawn uniformly among those whose range holds more than one
    value and always changes; every other gene then mutates independently
    with probability ``rate`` as in :func:`mutate`. A mutant is thereby never
    a duplicate of its parent.

    Args:
        genes: one int per gene, each inside its range.
        ranges: inclusive ``(low, high)`` per gene.
        rate: probability in [0, 1] for each of the remaining genes.
        rng: source of the choices (the forced gene first, then as mutate).

    Returns:
        The mutant as a new tuple, differing from ``genes`` in >= 1 gene.

    Raises:
        ValueError: as :func:`mutate`, and if no range holds more than one
            value (nothing can change).
    """
    _check_ranges(ranges)
    _check_genes(genes, ranges)
    _check_rate(rate)
    mutable = [i for i, (low, high) in enumerate(ranges) if high > low]
    if not mutable:
        raise ValueError("no gene's range holds more than one value, so no gene can change")
    forced = mutable[int(rng.integers(len(mutable)))]
    chosen = rng.random(len(genes)) < rate
    chosen[forced] = True
    return _change_genes(genes, ranges, chosen, rng)


def _change_genes(genes: Sequence[int], ranges: Ranges, chosen: np.ndarray, rng: np.random.Generator) -> Genes:
    """``genes`` with each chosen gene (whose range allows it) drawn anew as
    another value of its range, in gene order."""
    child = [int(g) for g in genes]
    for index in map(int, np.flatnonzero(chosen)):
        low, high = ranges[index]
        if high > low:
            child[index] = _other_value(child[index], low, high, rng)
    return tuple(child)


@dataclass(frozen=True)
class BreedingPlan:
    """How many members of the next population come from each source.

    Attributes:
        elites: unchanged copies of the best ranked chromosomes.
        offspring: crossover of two parents followed by per-gene mutation.
        mutants: single parents mutated in at least one gene.
    """

    elites: int
    offspring: int
    mutants: int

    @property
    def total(self) -> int:
        """The population size, ``elites + offspring + mutants``."""
        return self.elites + self.offspring + self.mutants


def _fraction_count(fraction: float, n: int, rounding: Callable[[float], int]) -> int:
    # Round away float noise first so that e.g. 0.35 * 20 counts as exactly 7.
    return int(rounding(round(fraction * n, 9)))


def breeding_plan(P: int, elites: int, mutant_fraction: float = DEFAULT_MUTANT_FRACTION) -> BreedingPlan:
    """Split a population of ``P`` into elites, offspring and mutants.

    mutants = ``mutant_fraction * P`` rounded half up, capped at ``P - elites``;
    offspring fill the rest. With the default fraction 0.10:
    P=352 → 35 mutants (so 1 elite leaves 316 offspring);
    P=6 → 1 mutant (so 1 elite leaves 4 offspring).

    Args:
        P: population size, at least 2.
        elites: unchanged copies of the best, 0..P.
        mutant_fraction: share of P in [0, 1] made of mutants.

    Returns:
        The plan; its counts add up to P.

    Raises:
        ValueError: naming the bad value and what is allowed.
    """
    if isinstance(P, bool) or not isinstance(P, (int, np.integer)) or P < 2:
        raise ValueError(f"population size P={P!r} must be an int >= 2")
    if isinstance(elites, bool) or not isinstance(elites, (int, np.integer)) or not 0 <= elites <= P:
        raise ValueError(f"elites={elites!r} must be an int in 0..P={P}")
    if not 0.0 <= mutant_fraction <= 1.0:
        raise ValueError(f"mutant_fraction={mutant_fraction!r} must lie in [0, 1]")
    mutants = min(P - elites, _fraction_count(mutant_fraction, P, lambda x: math.floor(x + 0.5)))
    return BreedingPlan(elites=int(elites), offspring=int(P - elites - mutants), mutants=int(mutants))


def parent_count(n_ranked: int, parent_fraction: float = DEFAULT_PARENT_FRACTION) -> int:
    """How many of the best ``n_ranked`` chromosomes may become parents:
    ``ceil(parent_fraction * n_ranked)``, at least 2, at most ``n_ranked``.

    Raises:
        ValueError: if n_ranked < 1 or parent_fraction is outside (0, 1].
    """
    if n_ranked < 1:
        raise ValueError(f"n_ranked={n_ranked!r} must be >= 1")
    if not 0.0 < parent_fraction <= 1.0:
        raise ValueError(f"parent_fraction={parent_fraction!r} must lie in (0, 1]")
    return min(n_ranked, max(2, _fraction_count(parent_fraction, n_ranked, math.ceil)))


def breed_with_origins(
    ranked: Sequence[Sequence[int]],
    P: int,
    elites: int,
    ranges: Ranges,
    rng: np.random.Generator,
    *,
    parent_fraction: float = DEFAULT_PARENT_FRACTION,
    mutation_rate: float = DEFAULT_MUTATION_RATE,
    mutant_fraction: float = DEFAULT_MUTANT_FRACTION,
) -> tuple[list[Genes], list[Origin]]:
    """The next generation's chromosomes, bred from the current ranking, each
    with where it came from.

    Parents are the best ``ceil(parent_fraction * len(ranked))`` chromosomes
    (at least 2, at most ``len(ranked)``). The result, of exactly ``P``
    members, is in this order:

    1. ``elites`` unchanged copies of ``ranked[0]``, ``ranked[1]``, ...;
    2. offspring: uniform crossover of two distinct parents drawn uniformly,
       then per-gene mutation at ``mutation_rate``;
    3. mutants: a parent drawn uniformly, mutated with at least one gene
       changed (:func:`mutate_at_least_one`).

    Default counts (parent_fraction 0.35, mutant_fraction 0.10), ranked of
    size P:

    - P=352: 124 parents, 35 mutants, 317 - elites offspring
      (1 elite → 316 offspring);
    - P=6: 3 parents, 1 mutant, 5 - elites offspring (1 elite → 4 offspring).

    With a single ranked chromosome there is one parent, and "crossover"
    pairs it with itself.

    Args:
        ranked: chromosomes best first (by rating); not modified.
        P: size of the next population, at least 2.
        elites: copies of the best kept unchanged, 0..min(P, len(ranked)).
        ranges: inclusive ``(low, high)`` per gene.
        rng: the only source of randomness.
        parent_fraction: share of ``ranked`` eligible as parents, in (0, 1].
        mutation_rate: per-gene mutation probability, in [0, 1].
        mutant_fraction: share of P made of mutants, in [0, 1].

    Returns:
        P chromosomes as new tuples, every gene inside its range, and the
        :class:`~genethello.cluster.breeding.origins.Origin` of each (parents as
        positions in ``ranked``).

    Raises:
        ValueError: naming the bad value and what is allowed.
    """
    if len(ranked) == 0:
        raise ValueError("ranked is empty: at least one chromosome is needed to breed from")
    plan = breeding_plan(P, elites, mutant_fraction)
    if elites > len(ranked):
        raise ValueError(f"elites={elites} exceeds the {len(ranked)} ranked chromosomes available")
    _check_ranges(ranges)
    for index, genes in enumerate(ranked):
        _check_genes(genes, ranges, what=f"ranked[{index}]")
    _check_rate(mutation_rate)
    n_parents = parent_count(len(ranked), parent_fraction)
    parents = [tuple(int(g) for g in genes) for genes in ranked[:n_parents]]

    population: list[Genes] = [tuple(int(g) for g in genes) for genes in ranked[: plan.elites]]
    origins = [Origin(ELITE, (k,)) for k in range(plan.elites)]
    for _ in range(plan.offspring):
        if n_parents >= 2:
            i, j = rng.choice(n_parents, size=2, replace=False)
        else:
            i = j = 0
        child = uniform_crossover(parents[int(i)], parents[int(j)], rng)
        population.append(mutate(child, ranges, mutation_rate, rng))
        origins.append(Origin(CROSSOVER, (int(i), int(j))))
    for _ in range(plan.mutants):
        k = int(rng.integers(n_parents))
        population.append(mutate_at_least_one(parents[k], ranges, mutation_rate, rng))
        origins.append(Origin(MUTANT, (k,)))
    return population, origins
