"""The games of a measured series (a hall entrant's against one member, a
yardstick opponent's, fixed or sequential): their openings, drawn from the
run's opening set, and their play on the run's executor."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from genethello.cluster.config import RunConfig
from genethello.cluster.fitness.games import GauntletOutcome, GauntletSpec, candidate_margins, gauntlet_matches
from genethello.cluster.fitness.pairing import opening_seed
from genethello.cluster.work import Executor, batches_of
from genethello.core.engine.game import random_opening
from genethello.core.play.openings import RANDOM_WITH_REPLACEMENT, opening_set
from genethello.core.play.seeds import series_name

__all__ = ["draw_series", "play_specs", "series_openings"]


def series_openings(config: RunConfig, key: int, pairs: int) -> list[tuple[int, tuple[int, ...]]]:
    """The (seed, opening) of each pair of the yardstick's series ``key``
    (1000 + k for built-in opponent k, 2000 + k for GTP engine k): pair p's
    seed is (run seed, 0, key, p), which also seeds the random players'
    moves. Its opening is drawn from ``openings.series`` without
    replacement (a series seeded by the run seed and ``key``), or, with
    ``random`` (runs made before), is the random walk of
    ``yardstick.random_plies`` that the seed draws."""
    seeds = [opening_seed(config.seed, 0, key, pair) for pair in range(pairs)]
    drawn = draw_series(config.openings.series, config.yardstick.random_plies, seeds,
                        series_name(config.seed, "yardstick", key))
    return list(zip(seeds, drawn, strict=True))


def draw_series(series: str, random_plies: int, pair_seeds: Sequence[int], series_seed: str
                ) -> list[tuple[int, ...]]:
    """The openings of one series of ``len(pair_seeds)`` pairs: drawn from
    the opening set ``series`` without replacement (the series
    ``series_seed`` of it), or, with ``random`` (runs made before), pair
    p's own random walk of ``random_plies`` seeded by ``pair_seeds[p]``."""
    if series == RANDOM_WITH_REPLACEMENT:
        return [tuple(random_opening(random_plies, seed)) for seed in pair_seeds]
    return [tuple(moves) for moves in opening_set(series).series(series_seed, len(pair_seeds))]


def play_specs(executor: Executor, specs: Sequence[GauntletSpec],
               should_stop: Callable[[], bool]) -> list[GauntletOutcome] | None:
    """Play the specs through ``executor``; None when stopped before all
    were played (a measurement is stored whole or not at all)."""
    task, pairings = gauntlet_matches(specs)
    outcomes: list[GauntletOutcome] = []
    for batch in executor.run(task, batches_of(pairings), should_stop):
        outcomes.extend(candidate_margins(specs, batch))
    return outcomes if len(outcomes) == len(specs) else None
