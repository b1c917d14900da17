#!/usr/bin/env python3
"""Check tournament time control: no game is lost on time.

What it measures: ``play_game`` between GeneThello's two oe_fmc players with
``--time`` seconds on each side's clock for the whole game (default 1 s,
GeneThello's tournaments used 60 s), after seeded random 4-ply openings (seed
= game index), colours alternating, exact solving from ``--exact`` empties on
(default 14, so that solves which run out of time and fall back to the
midgame search are exercised too). Each game gets freshly built engines; the
games are spread over ``--processes`` worker processes (default 2, this
machine's cores), which also loads the machine the way evolution does.

For every game it records each side's thinking time as the engine's clock
counted it (``black_seconds``/``white_seconds``) and the game's ``time_loss``.
The summary gives the number of time losses (must be 0: any loss makes the
script exit 1), the largest time used by one side in one game, the largest
overshoot max(used - budget, 0) and used/budget, the mean time used per
side, and the wall time per game (which includes the work outside the
searches). 200 games at 1 s a side are 400 s of thinking: about 200 s on 2
processes.

Usage: python benchmarks/bench_timecontrol.py [--games N] [--time S] [--processes P] [--exact E]
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time

from genethello.core.engine.game import Engine, play_game, random_opening
from genethello.core.families.chromosome import Chromosome
from genethello.core.families.registry import evaluator_of

PLAYER_A = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"
PLAYER_B = "oe_fmc_436_18:45:5:2:8:8:4:9:1:2:4"


def play_one(job: tuple[int, float, int, int]) -> dict:
    """Play game `index` with fresh engines; what the clocks said."""
    index, seconds, exact, plies = job
    a = Engine(evaluator_of(Chromosome.parse(PLAYER_A)), time=seconds, exact_empties=exact)
    b = Engine(evaluator_of(Chromosome.parse(PLAYER_B)), time=seconds, exact_empties=exact)
    black, white = (a, b) if index % 2 == 0 else (b, a)
    t0 = time.perf_counter()
    result = play_game(black, white, random_opening(plies, index))
    wall = time.perf_counter() - t0
    return {"index": index, "black": result.black_seconds, "white": result.white_seconds,
            "time_loss": result.time_loss, "wall": wall, "moves": len(result.moves)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    parser.add_argument("--time", type=float, default=1.0, help="seconds per side per game (default 1)")
    parser.add_argument("--processes", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--exact", type=int, default=14, help="solve exactly at this many empties (default 14)")
    parser.add_argument("--plies", type=int, default=4, help="random opening plies (default 4)")
    args = parser.parse_args(argv)
    if args.games < 1 or not args.time > 0 or args.processes < 1 or not 0 <= args.exact <= 60:
        parser.error("--games and --processes must be >= 1, --time > 0, --exact in 0..60")

    jobs = [(i, args.time, args.exact, args.plies) for i in range(args.games)]
    t0 = time.perf_counter()
    with multiprocessing.Pool(args.processes) as pool:
        games = pool.map(play_one, jobs, chunksize=1)
    elapsed = time.perf_counter() - t0

    used = [g[side] for g in games for side in ("black", "white")]
    losses = [g for g in games if g["time_loss"]]
    worst = max(used)
    print(f"{args.games} games at {args.time:g} s per side, exact at {args.exact} empties, "
          f"{args.processes} processes, {elapsed:.1f} s wall")
    print(f"{'games':>6} {'time losses':>11} {'max used s':>10} {'max over s':>10} {'max used/budget':>15} "
          f"{'mean used s':>11} {'mean wall/game s':>16}")
    print(f"{args.games:>6} {len(losses):>11} {worst:>10.4f} {max(worst - args.time, 0.0):>10.4f} "
          f"{worst / args.time:>15.3f} {statistics.fmean(used):>11.4f} "
          f"{statistics.fmean(g['wall'] for g in games):>16.4f}")
    for g in losses:
        print(f"error: game {g['index']}: {g['time_loss']} lost on time "
              f"(black {g['black']:.4f} s, white {g['white']:.4f} s)", file=sys.stderr)
    return 1 if losses else 0


if __name__ == "__main__":
    sys.exit(main())
