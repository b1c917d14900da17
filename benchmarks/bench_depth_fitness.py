#!/usr/bin/env python3
"""Benchmark fitness with search in the loop (issue 29, part 2): depth-D
fitness games of networks per second per core, beside fdmxcp against
``p_1_10`` at the same depth in the same loop.

Every row is a generation's fitness tasks
(:func:`genethello.cluster.fitness.network_depth_fitness.depth_fitness_tasks`)
played in this process, one core, rounds interleaved so that machine noise
hits all rows alike (time is this thread's CPU time, engines built anew each
round so that no row profits from a warm cache):

- ``all-2 coevolution``: 6 seeded random ``all-2`` networks, their round
  robin at depth D (NetworkEvaluator, the network leaf kind);
- ``all-2 vs wpc``: 6 of them against the WPC heuristic (an ``all-1`` network);
- ``all-2 vs p_1_10``: against the regression-fitted pattern-table player;
- ``fdmxcp vs p_1_10``: ``fdmxcp_52_2:0:6:9:4:5`` against ``p_1_10``, the
  baseline (GeneThello's chromosomes with their pattern table).

Openings: ``distinct-6``, one per double game of a pairing. The ratio
column is games/s over the baseline's in the same run.

Usage: python benchmarks/bench_depth_fitness.py [--games N] [--depth D] [--exact E] [--rounds R] [--seed S]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from genethello.cluster.config import FitnessConfig
from genethello.cluster.fitness.network_depth_fitness import (
    DepthFitnessTask,
    depth_fitness_tasks,
    forget_engines,
    resolve_opponent,
)
from genethello.core.families.network_family import NETWORKS
from genethello.core.families.registry import Individual, parse_individual, parse_kind

FDMXCP = "fdmxcp_52_2:0:6:9:4:5"
BASELINE = "fdmxcp vs p_1_10"
ROWS = ("all-2 coevolution", "all-2 vs wpc", "all-2 vs p_1_10", BASELINE)


def row_tasks(row: str, games: int, depth: int, exact: int, seed: int) -> list[DepthFitnessTask]:
    """About ``games`` fitness games of ``row`` at depth, as tasks of 64."""
    rng = np.random.default_rng(seed)
    networks: list[Individual] = [NETWORKS.random_individual(parse_kind("all-2"), 1, rng) for _ in range(6)]
    if row == "all-2 coevolution":
        per = max(1, round(games / (2 * 15)))
        f = FitnessConfig(kind="coevolution", games_per_pair=per, depth=depth, exact_empties=exact,
                          openings="distinct-6")
        return depth_fitness_tasks(f, 1, seed, networks)
    opponent = row.split(" vs ")[1]
    members: list[Individual] = [parse_individual(FDMXCP)] if row == BASELINE else networks
    per = max(1, round(games / (2 * len(members))))
    f = FitnessConfig(kind="fixed", opponents=(opponent,), games_per_opponent=per, depth=depth,
                      exact_empties=exact, openings="distinct-6")
    return depth_fitness_tasks(f, 1, seed, members, (), [resolve_opponent(opponent)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=120, help="games per row and round (default 120)")
    parser.add_argument("--depth", type=int, default=2, help="plies per move (default 2)")
    parser.add_argument("--exact", type=int, default=0, help="solve exactly at this many empties (default 0)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="networks' and openings' seed (default 1)")
    args = parser.parse_args(argv)
    tasks = {row: row_tasks(row, args.games, args.depth, args.exact, args.seed) for row in ROWS}
    seconds = dict.fromkeys(ROWS, 0.0)
    played = dict.fromkeys(ROWS, 0)
    for _ in range(args.rounds):
        for row in ROWS:
            forget_engines()
            start = time.thread_time()
            for task in tasks[row]:
                played[row] += task.run().games
            seconds[row] += time.thread_time() - start
    base = played[BASELINE] / seconds[BASELINE]
    print(f"depth {args.depth}, exact at {args.exact} empties, distinct-6 openings, {args.rounds} rounds, one core")
    print(f"{'fitness games':>20} {'games':>6} {'games/s/core':>13} {'vs fdmxcp':>10}")
    for row in ROWS:
        rate = played[row] / seconds[row]
        print(f"{row:>20} {played[row]:>6} {rate:>13.1f} {rate / base:>9.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
