#!/usr/bin/env python3
"""Benchmark whole games of n-tuple networks in the searches (issue 24): what
a network costs at depth, beside GeneThello's chromosomes in the same run.

What it measures, on one core, rounds interleaved so that machine noise
hits all alike (time is this thread's CPU time): ``play_game`` at depth D
(default 4) with the last E (default 8) empties solved exactly, colours
alternating, each pair of games after its own seeded random 4-ply opening:

- ``all-2 vs all-2``: two seeded random ``all-2`` networks (N(0, 1) weights)
  through ``NetworkEvaluator`` (the network leaf kind of evaluation.pxd);
- ``all-4+2x2 vs all-4+2x2``: the larger systematic network, for scale;
- ``oe_fmc pair``: bench_games.py's two oe_fmc chromosomes, the evolution
  workload the network kind must not slow down (bench_games.py compares
  that against an earlier build).

Every game is replayed on a Board; an illegal record makes the script exit 1.

Usage: python benchmarks/bench_network_search.py [--games N] [--depth D] [--exact E] [--rounds R] [--seed S]
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from genethello.core.engine.board import Board
from genethello.core.engine.game import Engine, play_game
from genethello.core.evaluation.network_evaluator import NetworkEvaluator
from genethello.core.evaluation.ntuple_shapes import architecture
from genethello.core.families.chromosome import Chromosome
from genethello.core.families.networks import Network
from genethello.core.families.registry import evaluator_of
from genethello.core.play.openings import distinct_openings

PLAYER_A = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"
PLAYER_B = "oe_fmc_436_18:45:5:2:8:8:4:9:1:2:4"


def engines(kind: str, depth: int, exact: int, seed: int) -> tuple[Engine, Engine]:
    """The two engines of a row."""
    if kind == "oe_fmc pair":
        a, b = Chromosome.parse(PLAYER_A), Chromosome.parse(PLAYER_B)
        return (Engine(evaluator_of(a), depth=depth, exact_empties=exact),
                Engine(evaluator_of(b), depth=depth, exact_empties=exact))
    arch = architecture(kind.split()[0])
    rng = np.random.default_rng(seed)
    one, two = Network.random(arch, rng), Network.random(arch, rng)
    return (Engine(NetworkEvaluator(one), depth=depth, exact_empties=exact),
            Engine(NetworkEvaluator(two), depth=depth, exact_empties=exact))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per row (default 100)")
    parser.add_argument("--depth", type=int, default=4, help="plies per move (default 4)")
    parser.add_argument("--exact", type=int, default=8, help="solve exactly at this many empties (default 8)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="networks' and openings' seed (default 1)")
    args = parser.parse_args(argv)
    if args.games < 2 or args.rounds < 1 or not 1 <= args.depth <= 60 or not 0 <= args.exact <= 60:
        parser.error("--games >= 2, --rounds >= 1, --depth in 1..60, --exact in 0..60")
    openings = distinct_openings((args.games + 1) // 2, 6, f"bench-network-search/{args.seed}")
    kinds = ["all-2 vs all-2", "all-4+2x2 vs all-4+2x2", "oe_fmc pair"]
    players = {k: engines(k, args.depth, args.exact, args.seed) for k in kinds}
    seconds = {k: 0.0 for k in kinds}
    nodes = {k: 0 for k in kinds}
    problems = []
    per_round = -(-args.games // args.rounds)
    for r in range(args.rounds):
        chunk = range(r * per_round, min(args.games, (r + 1) * per_round))
        for k in kinds[r % 3:] + kinds[:r % 3]:
            a, b = players[k]
            for g in chunk:
                black, white = (a, b) if g % 2 == 0 else (b, a)
                t0 = time.thread_time()
                result = play_game(black, white, openings[g // 2])
                seconds[k] += time.thread_time() - t0
                nodes[k] += result.nodes
                board = Board.from_moves(list(result.moves))
                if not board.is_game_over() or board.final_score() != result.score:
                    problems.append(f"{k} game {g}: the record does not replay to its score")
    print(f"{args.games} games per row: depth {args.depth}, exact at {args.exact} empties, "
          f"{len(openings)} distinct 4-ply openings with both colours, {args.rounds} interleaved rounds (CPU time)")
    print(f"{'players':>24} {'games/s':>8} {'nodes/game':>11} {'nodes/s':>10} {'vs oe_fmc':>9}")
    base = args.games / seconds["oe_fmc pair"]
    for k in kinds:
        rate = args.games / seconds[k]
        print(f"{k:>24} {rate:>8.1f} {nodes[k] / args.games:>11.0f} {nodes[k] / seconds[k]:>10.3g} "
              f"{rate / base:>8.2f}x")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
