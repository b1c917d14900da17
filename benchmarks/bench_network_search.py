#!/usr/bin/env python3
"""Benchmark whole games of n-tuple networks in the searches (issue 24): what
a network costs at depth, beside GeneThello's chromosomes in the same run.

What it measures, on one core, rounds interleaved so that machine noise
hits all alike (time is this thread's CPU time): ``play_game`` at depth D
(default 4) with the last E (default 8) empties solved exactly, colours
alternating, each pair of games after its own distinct 6-ply opening:

- ``all-2 vs all-2``: two seeded random ``all-2`` networks (N(0, 1) weights)
  through ``NetworkEvaluator`` (the network leaf kind of evaluation.pxd);
- ``all-4+2x2 vs all-4+2x2``: the larger systematic network, for scale;
- ``patterns-v2-net pair``: the shipped pattern-table network against
  itself, and ``p_1_10 pair``, the chromosome it plays move for move as
  (the same games, the same nodes: what the network's leaves cost beside
  the table read by the features' code);
- ``patterns-v2-net-m pair``: the same table's weights as a mobility
  network (``patterns-v2-s30-m``, values in 1/64 disc) whose entries give
  the side to move 1 disc a legal move at the start, falling to 0 at the
  end: what counting the other side's moves at every leaf costs (the
  depth-1 nodes' skipped leaves now bound by the stage's largest entry);
- ``fdmxcp_52 pair``: ``fdmxcp_52_2:0:6:9:4:5`` against itself with its
  pattern table (patterns-v2, the newest): the yardstick the networks'
  speed targets are ratios of (issue 29: an ``all-2`` network at >= 0.7x its
  nodes/s, the pattern-table network at >= 0.5x);
- ``oe_fmc pair``: bench_games.py's two oe_fmc chromosomes, the evolution
  workload the network kind must not slow down (bench_games.py compares
  that against an earlier build).

Networks' leaves read the searcher's incremental tuple indices (ntuple.pxd);
``--full`` values every leaf in full instead (the cost before them).

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
from genethello.core.evaluation.ntuple import MOBILITY_ENTRIES
from genethello.core.evaluation.ntuple_shapes import architecture
from genethello.core.families.chromosome import Chromosome
from genethello.core.families.individual_names import shipped_network
from genethello.core.families.networks import Network
from genethello.core.families.registry import evaluator_of
from genethello.core.play.openings import distinct_openings

PLAYER_A = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"
PLAYER_B = "oe_fmc_436_18:45:5:2:8:8:4:9:1:2:4"
FDMXCP = "fdmxcp_52_2:0:6:9:4:5"


def engines(kind: str, depth: int, exact: int, seed: int, full: bool) -> tuple[Engine, Engine]:
    """The two engines of a row (``full``: networks without incremental indices)."""
    if kind == "oe_fmc pair":
        a, b = Chromosome.parse(PLAYER_A), Chromosome.parse(PLAYER_B)
        return (Engine(evaluator_of(a), depth=depth, exact_empties=exact),
                Engine(evaluator_of(b), depth=depth, exact_empties=exact))
    if kind in ("fdmxcp_52 pair", "p_1_10 pair"):
        f = Chromosome.parse(FDMXCP if kind == "fdmxcp_52 pair" else "p_1_10")
        return (Engine(evaluator_of(f), depth=depth, exact_empties=exact),
                Engine(evaluator_of(f), depth=depth, exact_empties=exact))
    if kind == "patterns-v2-net pair":
        net = shipped_network("patterns-v2-net")
        assert net is not None, "patterns-v2-net is not shipped"
        pair = (Engine(evaluator_of(net), depth=depth, exact_empties=exact),
                Engine(evaluator_of(net), depth=depth, exact_empties=exact))
    elif kind == "patterns-v2-net-m pair":
        evaluator = NetworkEvaluator(mobility_table())
        pair = (Engine(evaluator, depth=depth, exact_empties=exact),
                Engine(evaluator, depth=depth, exact_empties=exact))
    else:
        arch = architecture(kind.split()[0])
        rng = np.random.default_rng(seed)
        one, two = Network.random(arch, rng), Network.random(arch, rng)
        pair = (Engine(NetworkEvaluator(one), depth=depth, exact_empties=exact),
                Engine(NetworkEvaluator(two), depth=depth, exact_empties=exact))
    if full:
        for engine in pair:
            engine.searcher.track_network(False)
    return pair


def mobility_table() -> Network:
    """patterns-v2-net's weights as a ``patterns-v2-s30-m`` network: 1 disc a
    legal move for the side to move at move 0, falling linearly to 0."""
    net = shipped_network("patterns-v2-net")
    assert net is not None, "patterns-v2-net is not shipped"
    table = net.network
    per_move = 1.0 - np.arange(table.stages) / table.stages
    entries = np.outer(per_move, np.arange(MOBILITY_ENTRIES)).reshape(-1)
    return Network(table.architecture, np.concatenate([table.weights, entries]), table.stages, mobility=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per row (default 100)")
    parser.add_argument("--depth", type=int, default=4, help="plies per move (default 4)")
    parser.add_argument("--exact", type=int, default=8, help="solve exactly at this many empties (default 8)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="networks' and openings' seed (default 1)")
    parser.add_argument("--full", action="store_true",
                        help="networks value every leaf in full (no incremental indices)")
    args = parser.parse_args(argv)
    if args.games < 2 or args.rounds < 1 or not 1 <= args.depth <= 60 or not 0 <= args.exact <= 60:
        parser.error("--games >= 2, --rounds >= 1, --depth in 1..60, --exact in 0..60")
    openings = distinct_openings((args.games + 1) // 2, 6, f"bench-network-search/{args.seed}")
    kinds = ["all-2 vs all-2", "all-4+2x2 vs all-4+2x2"]
    if shipped_network("patterns-v2-net") is not None:
        kinds += ["patterns-v2-net pair", "patterns-v2-net-m pair", "p_1_10 pair"]
    kinds += ["fdmxcp_52 pair", "oe_fmc pair"]
    players = {k: engines(k, args.depth, args.exact, args.seed, args.full) for k in kinds}
    seconds = {k: 0.0 for k in kinds}
    nodes = {k: 0 for k in kinds}
    problems = []
    per_round = -(-args.games // args.rounds)
    for r in range(args.rounds):
        chunk = range(r * per_round, min(args.games, (r + 1) * per_round))
        for k in kinds[r % len(kinds):] + kinds[:r % len(kinds)]:
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
          f"{len(openings)} distinct 6-ply openings with both colours, {args.rounds} interleaved rounds (CPU time)"
          + (", networks valued in full" if args.full else ", networks through incremental indices"))
    print(f"{'players':>24} {'games/s':>8} {'nodes/game':>11} {'nodes/s':>10} {'vs oe_fmc':>9} "
          f"{'nodes/s vs fdmxcp_52':>21}")
    base = args.games / seconds["oe_fmc pair"]
    yardstick = nodes["fdmxcp_52 pair"] / seconds["fdmxcp_52 pair"]
    for k in kinds:
        rate = args.games / seconds[k]
        print(f"{k:>24} {rate:>8.1f} {nodes[k] / args.games:>11.0f} {nodes[k] / seconds[k]:>10.3g} "
              f"{rate / base:>8.2f}x {nodes[k] / seconds[k] / yardstick:>20.2f}x")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
