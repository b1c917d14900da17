"""Genetic operators and breeding: seeded, in range, exact counts, inputs untouched."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.cluster.breeding.operators import (
    BreedingPlan,
    breed_with_origins,
    breeding_plan,
    clip_to_ranges,
    mutate,
    mutate_at_least_one,
    one_point_crossover,
    parent_count,
    uniform_crossover,
)


def breed_genes(*args, **kwargs):
    """The genes of :func:`breed_with_origins` (these tests look at the draws, not the origins)."""
    return breed_with_origins(*args, **kwargs)[0]


# An oe_fmc-like chromosome: 11 genes with ranges of various widths,
# including one that admits a single value.
RANGES = [(0, 15), (0, 63), (0, 10), (0, 10), (0, 10), (-5, 5), (0, 10), (0, 10), (0, 10), (0, 10), (3, 3)]


@st.composite
def ranges_and_genes(draw, min_genes: int = 1, max_genes: int = 12):
    n = draw(st.integers(min_genes, max_genes))
    ranges = []
    for _ in range(n):
        low = draw(st.integers(-50, 50))
        ranges.append((low, low + draw(st.integers(0, 20))))
    genes = tuple(draw(st.integers(low, high)) for low, high in ranges)
    return ranges, genes


@st.composite
def ranked_population(draw):
    ranges, _ = draw(ranges_and_genes(min_genes=2))
    size = draw(st.integers(1, 12))
    ranked = [tuple(draw(st.integers(low, high)) for low, high in ranges) for _ in range(size)]
    return ranges, ranked


def in_ranges(genes, ranges) -> bool:
    return len(genes) == len(ranges) and all(low <= g <= high for g, (low, high) in zip(genes, ranges))


def random_genes(rng: np.random.Generator, ranges=RANGES) -> tuple[int, ...]:
    return tuple(int(rng.integers(low, high + 1)) for low, high in ranges)


# --- crossover ---------------------------------------------------------------


@settings(derandomize=True, max_examples=60)
@given(data=ranges_and_genes(), seed=st.integers(0, 2**32))
def test_uniform_crossover_takes_each_gene_from_a_parent(data, seed):
    ranges, a = data
    b = random_genes(np.random.default_rng(seed), ranges)
    child = uniform_crossover(a, b, np.random.default_rng(seed))
    assert len(child) == len(a)
    assert all(c in (x, y) for c, x, y in zip(child, a, b))
    assert in_ranges(child, ranges)


def test_uniform_crossover_is_about_half_and_half():
    a, b = (0,) * 1000, (1,) * 1000
    child = uniform_crossover(a, b, np.random.default_rng(5))
    assert 430 < sum(child) < 570


@settings(derandomize=True, max_examples=60)
@given(data=ranges_and_genes(), seed=st.integers(0, 2**32))
def test_one_point_crossover_is_a_prefix_of_a_and_suffix_of_b(data, seed):
    ranges, a = data
    b = random_genes(np.random.default_rng(seed + 1), ranges)
    child = one_point_crossover(a, b, np.random.default_rng(seed))
    if len(a) < 2:
        assert child == a
        return
    cuts = [cut for cut in range(1, len(a)) if child == a[:cut] + b[cut:]]
    assert cuts
    assert in_ranges(child, ranges)


def test_crossover_rejects_parents_of_different_length():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="differ in length"):
        uniform_crossover((1, 2), (1, 2, 3), rng)
    with pytest.raises(ValueError, match="differ in length"):
        one_point_crossover((1, 2), (1, 2, 3), rng)


# --- mutation ----------------------------------------------------------------


@settings(derandomize=True, max_examples=80)
@given(data=ranges_and_genes(), rate=st.floats(0, 1), seed=st.integers(0, 2**32))
def test_mutate_stays_in_range(data, rate, seed):
    ranges, genes = data
    child = mutate(genes, ranges, rate, np.random.default_rng(seed))
    assert in_ranges(child, ranges)
    assert all(isinstance(g, int) for g in child)


@settings(derandomize=True, max_examples=80)
@given(data=ranges_and_genes(), seed=st.integers(0, 2**32))
def test_mutate_at_rate_one_changes_every_gene_that_can_change(data, seed):
    ranges, genes = data
    child = mutate(genes, ranges, 1.0, np.random.default_rng(seed))
    for g, c, (low, high) in zip(genes, child, ranges):
        assert (c != g) if high > low else (c == g)


def test_mutate_at_rate_zero_is_identity():
    genes = random_genes(np.random.default_rng(1))
    assert mutate(genes, RANGES, 0.0, np.random.default_rng(2)) == genes


def test_mutate_changes_about_one_gene_in_twelve():
    rng = np.random.default_rng(3)
    genes = random_genes(rng)
    changed = sum(g != c for _ in range(2000) for g, c in zip(genes, mutate(genes, RANGES, 1 / 12, rng)))
    # 10 mutable genes × 2000 × 1/12 ≈ 1667 expected.
    assert 1500 < changed < 1830


def test_mutated_values_are_uniform_over_the_others():
    rng = np.random.default_rng(4)
    values = [mutate((2,), [(0, 4)], 1.0, rng)[0] for _ in range(4000)]
    counts = np.bincount(values, minlength=5)
    assert counts[2] == 0
    assert all(900 < c < 1100 for c in counts[[0, 1, 3, 4]])


@settings(derandomize=True, max_examples=80)
@given(data=ranges_and_genes(), rate=st.floats(0, 1), seed=st.integers(0, 2**32))
def test_mutate_at_least_one_changes_something(data, rate, seed):
    ranges, genes = data
    if all(low == high for low, high in ranges):
        with pytest.raises(ValueError, match="no gene"):
            mutate_at_least_one(genes, ranges, rate, np.random.default_rng(seed))
        return
    child = mutate_at_least_one(genes, ranges, rate, np.random.default_rng(seed))
    assert child != genes
    assert in_ranges(child, ranges)


def test_mutate_rejects_bad_arguments():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="rate"):
        mutate((1,), [(0, 3)], 1.5, rng)
    with pytest.raises(ValueError, match=r"genes\[0\] = 9 is outside its range 0..3"):
        mutate((9,), [(0, 3)], 0.5, rng)
    with pytest.raises(ValueError, match="2 genes but there are 1 ranges"):
        mutate((1, 2), [(0, 3)], 0.5, rng)
    with pytest.raises(ValueError, match="low must be <= high"):
        mutate((1,), [(3, 0)], 0.5, rng)


def test_clip_to_ranges():
    assert clip_to_ranges((-4, 5, 99), [(0, 3), (0, 10), (0, 7)]) == (0, 5, 7)
    with pytest.raises(ValueError):
        clip_to_ranges((1, 2), [(0, 3)])


@settings(derandomize=True, max_examples=60)
@given(data=ranges_and_genes(), shift=st.lists(st.integers(-100, 100), min_size=12, max_size=12))
def test_clip_to_ranges_lands_in_range_and_keeps_in_range_genes(data, shift):
    ranges, genes = data
    assert clip_to_ranges(genes, ranges) == genes
    moved = tuple(g + s for g, s in zip(genes, shift))
    assert in_ranges(clip_to_ranges(moved, ranges), ranges)


# --- breeding ----------------------------------------------------------------


def test_default_plans_for_352_and_6():
    assert breeding_plan(352, 1) == BreedingPlan(elites=1, offspring=316, mutants=35)
    assert parent_count(352) == 124
    assert breeding_plan(6, 1) == BreedingPlan(elites=1, offspring=4, mutants=1)
    assert parent_count(6) == 3


@pytest.mark.parametrize(
    ("P", "elites", "fraction", "expected"),
    [
        (2, 0, 0.1, (0, 2, 0)),
        (2, 2, 0.5, (2, 0, 0)),
        (10, 9, 0.5, (9, 0, 1)),
        (10, 0, 1.0, (0, 0, 10)),
        (20, 1, 0.25, (1, 14, 5)),
    ],
)
def test_breeding_plan_counts(P, elites, fraction, expected):
    plan = breeding_plan(P, elites, fraction)
    assert (plan.elites, plan.offspring, plan.mutants) == expected
    assert plan.total == P


def test_parent_count_bounds():
    assert parent_count(1) == 1
    assert parent_count(2) == 2
    assert parent_count(4) == 2  # ceil(1.4) = 2
    assert parent_count(20) == 7  # 0.35 × 20 is exactly 7, not 8
    assert parent_count(10, 1.0) == 10


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"P": 1}, "P=1 must be an int >= 2"),
        ({"elites": -1}, "elites=-1 must be an int in 0..P=6"),
        ({"elites": 7}, "elites=7 must be an int in 0..P=6"),
        ({"ranked": []}, "ranked is empty"),
        ({"ranked": [(1, 2)], "elites": 2}, "elites=2 exceeds the 1 ranked"),
        ({"mutation_rate": -0.1}, "rate"),
        ({"mutant_fraction": 2.0}, "mutant_fraction=2.0"),
        ({"parent_fraction": 0.0}, "parent_fraction=0.0"),
        ({"ranked": [(1, 99)]}, r"ranked\[0\]\[1\] = 99 is outside"),
    ],
)
def test_breed_validates_arguments(kwargs, message):
    args = {"ranked": [(1, 2), (3, 4)], "P": 6, "elites": 1, "ranges": [(0, 5), (0, 5)]}
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        breed_genes(args.pop("ranked"), args.pop("P"), args.pop("elites"), args.pop("ranges"),
                              np.random.default_rng(0), **args)


def test_breed_is_deterministic_for_a_seed_and_varies_across_seeds():
    rng = np.random.default_rng(10)
    ranked = [random_genes(rng) for _ in range(30)]
    first = breed_genes(ranked, 30, 2, RANGES, np.random.default_rng(99))
    second = breed_genes(ranked, 30, 2, RANGES, np.random.default_rng(99))
    other = breed_genes(ranked, 30, 2, RANGES, np.random.default_rng(100))
    assert first == second
    assert first != other


def test_breed_composition():
    rng = np.random.default_rng(11)
    ranked = [random_genes(rng) for _ in range(352)]
    population = breed_genes(ranked, 352, 3, RANGES, np.random.default_rng(1))
    plan = breeding_plan(352, 3)
    assert len(population) == 352
    assert population[:3] == ranked[:3]
    for child in population[3:3 + plan.offspring]:
        assert in_ranges(child, RANGES)
    assert len(population[3 + plan.offspring:]) == plan.mutants == 35


def test_mutants_are_one_parent_with_exactly_one_gene_changed_at_rate_zero():
    rng = np.random.default_rng(12)
    ranked = [random_genes(rng) for _ in range(40)]
    plan = breeding_plan(40, 1, 0.5)
    population = breed_genes(ranked, 40, 1, RANGES, np.random.default_rng(2),
                                       mutation_rate=0.0, mutant_fraction=0.5)
    parents = ranked[:parent_count(40)]
    for mutant in population[plan.elites + plan.offspring:]:
        distances = [sum(a != b for a, b in zip(mutant, p)) for p in parents]
        assert min(distances) == 1


def test_offspring_genes_come_from_the_parents_when_not_mutated():
    # Parents with disjoint gene values and no mutation: every offspring
    # gene is traceable to the top-35% parents, never to the rest.
    ranges = [(0, 100)] * 8
    ranked = [(k * 10 + 1,) * 8 for k in range(10)]
    population = breed_genes(ranked, 10, 0, ranges, np.random.default_rng(3),
                                       mutation_rate=0.0, mutant_fraction=0.0)
    parent_values = {g for genes in ranked[:parent_count(10)] for g in genes}
    assert parent_count(10) == 4
    assert all(g in parent_values for child in population for g in child)


def test_single_ranked_chromosome_still_breeds():
    population = breed_genes([(1, 2, 3)], 6, 1, [(0, 5)] * 3, np.random.default_rng(0))
    assert len(population) == 6
    assert population[0] == (1, 2, 3)
    assert population[-1] != (1, 2, 3)  # the mutant


@settings(derandomize=True, max_examples=50, deadline=None)
@given(data=ranked_population(), P=st.integers(2, 20), elites=st.integers(0, 20),
       mutant_fraction=st.floats(0, 1), seed=st.integers(0, 2**32))
def test_breed_properties(data, P, elites, mutant_fraction, seed):
    ranges, ranked = data
    elites = min(elites, P, len(ranked))
    if mutant_fraction > 0 and all(low == high for low, high in ranges):
        mutant_fraction = 0.0
    snapshot = [tuple(genes) for genes in ranked]
    ranked_lists = [list(genes) for genes in ranked]  # lists too, to catch in-place edits
    population = breed_genes(ranked_lists, P, elites, ranges, np.random.default_rng(seed),
                                       mutant_fraction=mutant_fraction)
    assert len(population) == P
    assert all(isinstance(genes, tuple) and in_ranges(genes, ranges) for genes in population)
    assert population[:elites] == snapshot[:elites]
    assert [tuple(genes) for genes in ranked_lists] == snapshot


def test_operators_never_mutate_inputs():
    rng = np.random.default_rng(0)
    a, b = [1, 2, 3, 4], [5, 6, 7, 8]
    ranges = [(0, 9)] * 4
    before = (list(a), list(b), list(ranges))
    uniform_crossover(a, b, rng)
    one_point_crossover(a, b, rng)
    mutate(a, ranges, 1.0, rng)
    mutate_at_least_one(b, ranges, 1.0, rng)
    clip_to_ranges(a, ranges)
    assert (a, b, ranges) == before
