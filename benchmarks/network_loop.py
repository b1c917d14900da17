"""An in-process evolution loop for n-tuple networks (no database, no Ray):
the experiment of issue 24 behind ``bench_evolution.py --networks``.

One run = an optimizer, a fitness (:class:`genethello.cluster.fitness.network_fitness.FitnessConfig`)
and a budget of fitness games. Each generation the optimizer proposes λ
real weight vectors, their fitness games are played by the same
:func:`~genethello.cluster.fitness.network_fitness.fitness_tasks` a cluster run
plays, and the points go back to the optimizer. Every ``budget / checkpoints``
games the run's champion is measured on the League (league-fast-1).

The optimizers:

* ``cma``: CMA-ES with full covariance (``cmaes.CMA``); ``sep-cma``: the
  separable variant (``cmaes.SepCMA``, diagonal covariance). Mean 0 at the
  start: since a 1-ply network's play does not change when all its weights
  are scaled, a run from mean 0 is the same for every σ0 (all of it scales
  with σ0). The champion is the distribution **mean**: it is CMA-ES's
  estimate of the optimum, an average over the recombined best samples, so
  it is far less exposed to fitness noise than the luckiest sample of a
  generation (a sample's points over a few dozen ε-greedy games are noisy).
* ``ga``: a generational GA on real weights: the ``elites`` best kept
  unchanged (and played again, as the fitness is noisy or relative), the
  others children of two parents drawn from the best quarter (truncation
  selection), uniform crossover then Gaussian mutation of every weight by
  ``ga_sigma`` times the parent's root-mean-square weight (scale-free, like
  the players). Champion: the generation's best-ranked member.
* ``random``: random search: the best so far kept (and played again), every
  other member a fresh N(0, 1) network. Champion: the best-ranked member.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from genethello.cluster.fitness.network_fitness import FitnessConfig, fitness_tasks, rank_members, total_points
from genethello.core.families.network_family import NETWORKS, NetworkIndividual
from genethello.core.families.networks import Network
from genethello.core.play.network_league import league_score
from genethello.core.play.scoring import MatchScore

METHODS = ("cma", "sep-cma", "ga", "random")


class Optimizer(Protocol):
    def ask(self) -> list[np.ndarray]: ...
    def tell(self, points: np.ndarray) -> None: ...
    def champion(self) -> np.ndarray: ...


class CmaOptimizer:
    """CMA-ES (full or separable) from mean 0; it minimizes, so it is told -points."""

    def __init__(self, n: int, population: int, sigma0: float, seed: int, separable: bool) -> None:
        from cmaes import CMA, SepCMA

        kind = SepCMA if separable else CMA
        self.cma = kind(mean=np.zeros(n), sigma=sigma0, population_size=population, seed=seed)
        self.xs: list[np.ndarray] = []

    def ask(self) -> list[np.ndarray]:
        self.xs = [self.cma.ask() for _ in range(self.cma.population_size)]
        return self.xs

    def tell(self, points: np.ndarray) -> None:
        self.cma.tell([(x, -float(p)) for x, p in zip(self.xs, points)])

    def champion(self) -> np.ndarray:
        # The mean, not the best sample: CMA-ES's estimate of the optimum,
        # averaged over the best samples, so less noisy under noisy fitness.
        return np.array(self.cma.mean)


class GaOptimizer:
    """Truncation selection, elitism, uniform crossover, scale-free Gaussian mutation."""

    def __init__(self, n: int, population: int, sigma: float, seed: int, elites: int = 2) -> None:
        self.rng = np.random.default_rng(seed)
        self.population = [self.rng.normal(size=n) for _ in range(population)]
        self.sigma = sigma
        self.elites = elites
        self.best = self.population[0]

    def ask(self) -> list[np.ndarray]:
        return self.population

    def tell(self, points: np.ndarray) -> None:
        ranked = [self.population[i] for i in rank_members(points)]
        self.best = ranked[0]
        parents = ranked[:max(2, len(ranked) // 4)]
        children = list(ranked[:self.elites])
        while len(children) < len(ranked):
            a, b = self.rng.choice(len(parents), 2, replace=False)
            mask = self.rng.random(parents[a].size) < 0.5
            child = np.where(mask, parents[a], parents[b])
            rms = float(np.sqrt(np.mean(child * child))) or 1.0
            children.append(child + self.sigma * rms * self.rng.normal(size=child.size))
        self.population = children

    def champion(self) -> np.ndarray:
        return self.best


class RandomSearch:
    """The best so far and λ - 1 fresh N(0, 1) networks each generation."""

    def __init__(self, n: int, population: int, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.n = n
        self.size = population
        self.population = [self.rng.normal(size=n) for _ in range(population)]
        self.best = self.population[0]

    def ask(self) -> list[np.ndarray]:
        return self.population

    def tell(self, points: np.ndarray) -> None:
        self.best = self.population[rank_members(points)[0]]
        self.population = [self.best] + [self.rng.normal(size=self.n) for _ in range(self.size - 1)]

    def champion(self) -> np.ndarray:
        return self.best


def make_optimizer(method: str, n: int, population: int, seed: int, sigma0: float = 1.0,
                   ga_sigma: float = 0.1) -> Optimizer:
    if method in ("cma", "sep-cma"):
        return CmaOptimizer(n, population, sigma0, seed, separable=method == "sep-cma")
    if method == "ga":
        return GaOptimizer(n, population, ga_sigma, seed)
    if method == "random":
        return RandomSearch(n, population, seed)
    raise ValueError(f"unknown method {method!r}: expected one of {', '.join(METHODS)}")


@dataclass
class RunResult:
    """A run's League curve: (fitness games so far, generation, the champion's League score)."""

    method: str
    fitness: str
    seed: int
    curve: list[tuple[int, int, MatchScore]] = field(default_factory=list)
    champion: np.ndarray | None = None
    games: int = 0
    generations: int = 0
    seconds: float = 0.0


def evolve(method: str, config: FitnessConfig, *, architecture: str = "all-2", population: int = 20,
           budget: int = 1_000_000, checkpoints: int = 10, league_double_games: int = 500, seed: int = 1,
           sigma0: float = 1.0, ga_sigma: float = 0.1,
           report: Callable[[str], None] | None = None,
           on_checkpoint: Callable[[RunResult, np.ndarray], None] | None = None) -> RunResult:
    """One run of ``method`` with ``config``'s fitness until ``budget``
    fitness games are played; the champion's League score (league-fast-1,
    ``league_double_games`` double games, seed 0 for every measurement so
    all runs face the same games) at each ``budget / checkpoints`` games."""
    kind = NETWORKS.parse_kind(architecture)
    arch = kind.architecture
    optimizer = make_optimizer(method, arch.n_weights, population, seed, sigma0, ga_sigma)
    result = RunResult(method, config.kind, seed)
    step = budget / checkpoints
    next_mark = step
    t0 = time.perf_counter()
    generation = 0
    while result.games < budget:
        generation += 1
        xs = optimizer.ask()
        members = [NetworkIndividual(kind, generation, Network(arch, x)) for x in xs]
        outcomes = [task.run() for task in fitness_tasks(config, generation, seed, members)]
        optimizer.tell(total_points(outcomes, len(members)))
        result.games += sum(o.games for o in outcomes)
        if result.games >= next_mark or result.games >= budget:
            while next_mark <= result.games:
                next_mark += step
            champion = optimizer.champion()
            score = league_score(Network(arch, champion), league_double_games, seed=0)
            result.curve.append((result.games, generation, score))
            if on_checkpoint:
                on_checkpoint(result, champion)
            if report:
                low, high = score.interval
                report(f"  {method:<7} {config.kind:<11} seed {seed}: gen {generation:5d}, {result.games:>9,} games, "
                       f"{time.perf_counter() - t0:6.1f} s: League {100 * score.score:5.1f}% "
                       f"[{100 * low:4.1f}, {100 * high:4.1f}]")
    result.champion = optimizer.champion()
    result.generations = generation
    result.seconds = time.perf_counter() - t0
    return result
