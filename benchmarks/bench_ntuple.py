#!/usr/bin/env python3
"""Benchmark the fast 1-ply game loop of n-tuple networks (issue 24's speed target).

What it measures, on one core, in the same run (rounds interleaved so that
machine noise hits all alike; time is this thread's CPU time, so that other
processes on a shared machine count less than in wall time):

- ``all-2 vs all-2``: two seeded random ``all-2`` networks (288 weights,
  N(0, 1) draws) at 1 ply, ε = 0.1 for both sides, from the standard start,
  in batches of ``--chunk`` games through ``ntuple_games.play_games``
  (incremental evaluation, the default).
- ``all-2 (full eval)``: the same games with ``incremental=False`` (every
  tuple of every candidate move evaluated): what the incremental update buys.
- ``all-2 vs wpc``: a network against the League's WPC heuristic, ε = 0.1.
- ``all-4+2x2 vs all-4+2x2``: the larger systematic network (2,511 weights),
  for scale.
- ``fdmxcp vs p_1_10``: today's typed game loop (``core/engine/game.pyx``
  ``play_game``, one call a game) between the README's best
  ``fdmxcp_52_2:0:6:9:4:5`` and ``p_1_10`` at depth 1 with no exact
  endgame, colours alternating, each game after its own seeded random
  4-ply opening (without ε that loop plays one game per opening).

The target (issue 24): all-2 vs all-2 at least 2.7 times the fdmxcp rate.

Usage: python benchmarks/bench_ntuple.py [--rounds N] [--chunk N] [--seed S]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")   # numpy's BLAS threads would spin beside the games

import numpy as np  # noqa: E402

from genethello.core.engine.game import Engine, play_game, random_opening  # noqa: E402
from genethello.core.evaluation.ntuple_shapes import architecture  # noqa: E402
from genethello.core.families.chromosome import Chromosome  # noqa: E402
from genethello.core.families.networks import Network  # noqa: E402
from genethello.core.families.registry import evaluator_of  # noqa: E402
from genethello.core.play.ntuple_games import play_games  # noqa: E402

TARGET_RATIO = 2.7
FDMXCP = "fdmxcp_52_2:0:6:9:4:5"
REFERENCE = "p_1_10"
EPSILON = 0.1


def network_round(contestants: list, chunk: int, first_id: int, seed: int, incremental: bool = True) -> int:
    """One chunk of network games (colours alternating); returns the games played."""
    ids = np.arange(first_id, first_id + chunk, dtype=np.uint64)
    black = (ids % 2).astype(np.int64)
    play_games(contestants, black, 1 - black, ids, seed, EPSILON, incremental=incremental)
    return chunk


def engine_round(engines: tuple[Engine, Engine], openings: list[list[int]], first_id: int) -> int:
    """One chunk of fdmxcp/p_1_10 games through play_game, one call a game
    (the openings drawn beforehand, outside the timing)."""
    a, b = engines
    for i, opening in enumerate(openings, start=first_id):
        if i % 2 == 0:
            play_game(a, b, opening)
        else:
            play_game(b, a, opening)
    return len(openings)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=10, help="interleaved rounds (default 10)")
    parser.add_argument("--chunk", type=int, default=2000, help="network games per round (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.chunk < 2:
        parser.error("--rounds must be >= 1 and --chunk >= 2")

    rng = np.random.default_rng(args.seed)
    arch = architecture("all-2")
    first, second = (Network.random(arch, rng).evaluator() for _ in range(2))
    big = [Network.random(architecture("all-4+2x2"), rng).evaluator() for _ in range(2)]
    engines = (Engine(evaluator_of(Chromosome.parse(FDMXCP)), depth=1, exact_empties=0),
               Engine(evaluator_of(Chromosome.parse(REFERENCE)), depth=1, exact_empties=0))
    engine_chunk = max(2, args.chunk // 4)
    full_chunk = max(2, args.chunk // 4)
    openings = [[random_opening(4, args.seed * 1_000_003 + i) for i in range(r * engine_chunk, (r + 1) * engine_chunk)]
                for r in range(args.rounds)]
    runs: dict[str, Callable[[int], int]] = {
        "all-2 vs all-2": lambda r: network_round([first, second], args.chunk, r * args.chunk, args.seed),
        "all-2 (full eval)": lambda r: network_round([first, second], full_chunk, r * full_chunk, args.seed,
                                                      incremental=False),
        "all-2 vs wpc": lambda r: network_round([first, "wpc"], args.chunk, r * args.chunk, args.seed),
        "all-4+2x2 vs all-4+2x2": lambda r: network_round(big, args.chunk, r * args.chunk, args.seed),
        f"{FDMXCP} vs {REFERENCE}": lambda r: engine_round(engines, openings[r], r * engine_chunk),
    }
    games = dict.fromkeys(runs, 0)
    seconds = dict.fromkeys(runs, 0.0)
    for r in range(args.rounds):
        names = list(runs)
        names = names[r % len(names):] + names[:r % len(names)]   # who goes first rotates
        for name in names:
            t0 = time.thread_time()
            games[name] += runs[name](r)
            seconds[name] += time.thread_time() - t0

    rates = {name: games[name] / seconds[name] for name in runs}
    fdmxcp_rate = rates[f"{FDMXCP} vs {REFERENCE}"]
    print(f"{'loop':<34} {'games':>7} {'CPU s':>8} {'games/s':>9} {'x fdmxcp':>9}")
    for name in runs:
        print(f"{name:<34} {games[name]:>7} {seconds[name]:>8.2f} {rates[name]:>9.0f} "
              f"{rates[name] / fdmxcp_rate:>9.2f}")
    ratio = rates["all-2 vs all-2"] / fdmxcp_rate
    verdict = "met" if ratio >= TARGET_RATIO else "NOT met"
    print(f"all-2 vs all-2 / fdmxcp vs p_1_10 = {ratio:.2f} (target >= {TARGET_RATIO}: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
