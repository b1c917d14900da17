#!/usr/bin/env python3
"""Benchmark the midgame search: nodes per second at a fixed depth.

What it measures: ``Searcher.search(board, depth=D)`` (iterative deepening to
D plies, default 8, default algorithm negascout-soft, fresh table per
position) on a fixed set of 20 midgame positions, each a seeded random
opening of 20..30 plies (seed = position index), with an oe_fdmxcp evaluator
(flips, discs, mobility, x-squares, corners; pattern weight 0), the feature
set evolution uses most. Nodes per second is the figure that says how much an
engine sees in a given time; the node count says how well the search prunes.

A second table runs the four algorithms (alpha-beta / negascout, fail-hard /
fail-soft) at a lower depth (default 6) on the same positions: they must all
return the same value as plain minimax (checked; any difference makes the
script exit 1) and differ only in the nodes they visit and the time they take.
Searches this short are repeated (each with a fresh table) until a
measurement lasts ``--min-time`` seconds; times are per search.

Usage: python benchmarks/bench_midgame.py [--depth D] [--compare-depth D2] [--positions N] [--min-time S]
"""

from __future__ import annotations

import argparse
import sys
import time

from genethello.core import Board, square_name
from genethello.core.engine.game import random_opening
from genethello.core.engine.search import ALGORITHMS, Searcher, minimax
from genethello.core.evaluation.evaluation import Evaluator
from genethello.core.families.chromosome import Chromosome

# o=20, e=50; then f d m x c p for the opening, midgame and endgame phases:
# mobility and corners first, discs only late, pattern off.
CHROMOSOME = "oe_fdmxcp_1_20:50:1:0:8:6:10:0:2:1:7:5:10:0:1:8:2:1:6:0"


def positions(count: int) -> list[tuple[int, int, Board]]:
    """[(seed, plies, board)]: seeded random openings of 20..30 plies."""
    out = []
    for seed in range(count):
        plies = 20 + seed % 11
        board = Board.from_moves(random_opening(plies, seed))
        if board.is_game_over():
            raise SystemExit(f"error: opening {seed} ended the game; choose other seeds")
        out.append((seed, plies, board))
    return out


def timed_search(evaluator, algorithm: str, board: Board, depth: int, tt_bits: int,
                 min_time: float, **flags):
    """(SearchResult, seconds per search), fresh table each time, repeated
    until min_time has passed."""
    calls, seconds = 0, 0.0
    while True:
        r = Searcher(evaluator, algorithm, tt_bits=tt_bits, **flags).search(board, depth=depth)
        calls += 1
        seconds += r.seconds
        if seconds >= min_time:
            return r, seconds / calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=8, help="search depth of the main table (default 8)")
    parser.add_argument("--compare-depth", type=int, default=6,
                        help="depth at which the four algorithms are compared (default 6)")
    parser.add_argument("--positions", type=int, default=20, help="how many positions (default 20)")
    parser.add_argument("--naive-depths", type=int, nargs="+", default=[4, 6, 8],
                        help="depths of the ours-vs-naive table (default 4 6 8)")
    parser.add_argument("--tt-bits", type=int, default=16, help="log2 table buckets (default 16)")
    parser.add_argument("--min-time", type=float, default=0.05,
                        help="repeat each search until this many seconds have passed (default 0.05)")
    args = parser.parse_args(argv)
    if not 1 <= args.depth <= 60 or not 1 <= args.compare_depth <= 60 or args.positions < 1:
        parser.error("depths must be in 1..60 and --positions >= 1")

    evaluator = Evaluator.from_chromosome(Chromosome.parse(CHROMOSOME))
    boards = positions(args.positions)
    failures = []

    print(f"evaluator {CHROMOSOME}, negascout-soft, depth {args.depth}")
    print(f"{'seed':>4} {'plies':>5} {'empties':>7} {'move':>4} {'value':>7} {'nodes':>11} "
          f"{'seconds':>8} {'nodes/s':>10}")
    total_nodes, total_s = 0, 0.0
    for seed, plies, board in boards:
        r, seconds = timed_search(evaluator, "negascout-soft", board, args.depth, args.tt_bits, args.min_time)
        if r.depth != args.depth:
            failures.append(f"seed {seed}: search reached depth {r.depth}, not {args.depth}")
        total_nodes += r.nodes
        total_s += seconds
        move = "-" if r.move is None else square_name(r.move)
        print(f"{seed:>4} {plies:>5} {board.empties:>7} {move:>4} {r.value:>7} {r.nodes:>11} "
              f"{seconds:>8.5f} {r.nodes / seconds:>10.3g}", flush=True)
    print(f"{'total':>5} {'':>5} {'':>7} {'':>4} {'':>6} {total_nodes:>11} {total_s:>8.5f} "
          f"{total_nodes / total_s:>10.3g}")

    # The four variants at a lower depth, checked against plain minimax.
    d = args.compare_depth
    print(f"\nalgorithms at depth {d} over the same {len(boards)} positions "
          f"(values checked against minimax)")
    print(f"{'algorithm':>15} {'nodes':>11} {'seconds':>8} {'nodes/s':>10} {'nodes vs ns-soft':>16}")
    reference = {}
    t0 = time.perf_counter()
    for seed, _, board in boards:
        reference[seed] = minimax(board, evaluator, d)
    minimax_s = time.perf_counter() - t0
    per_algo = {}
    for algorithm in ALGORITHMS:
        nodes, seconds = 0, 0.0
        for seed, _, board in boards:
            r, per_call = timed_search(evaluator, algorithm, board, d, args.tt_bits, args.min_time)
            nodes += r.nodes
            seconds += per_call
            if r.value != reference[seed]:
                failures.append(f"{algorithm}, seed {seed}: value {r.value}, minimax says {reference[seed]}")
        per_algo[algorithm] = (nodes, seconds)
    base_nodes = per_algo["negascout-soft"][0]
    for algorithm, (nodes, seconds) in per_algo.items():
        print(f"{algorithm:>15} {nodes:>11} {seconds:>8.5f} {nodes / seconds:>10.3g} "
              f"{nodes / base_nodes:>16.3f}")
    print(f"{'minimax':>15} {'':>11} {minimax_s:>8.5f}  (reference values, no pruning)")

    # What ordering and hashing buy, by depth: the default engine against a
    # naive one (fail-hard alpha-beta, board order, no table), same positions.
    print("\nours (negascout-soft, ordering, table) vs naive (alphabeta-hard, no ordering, no table)")
    print(f"{'depth':>5} {'ours nodes':>11} {'ours s':>8} {'naive nodes':>12} {'naive s':>8} {'speed-up':>8}")
    for depth in args.naive_depths:
        totals = {}
        for name, algorithm, flags in (("ours", "negascout-soft", {}),
                                       ("naive", "alphabeta-hard", {"hashing": False, "ordering": False})):
            nodes, seconds = 0, 0.0
            for _seed, _, board in boards:
                r, per_call = timed_search(evaluator, algorithm, board, depth, args.tt_bits, args.min_time, **flags)
                nodes += r.nodes
                seconds += per_call
            totals[name] = (nodes, seconds)
        (on, os_), (nn, ns) = totals["ours"], totals["naive"]
        print(f"{depth:>5} {on:>11} {os_:>8.4f} {nn:>12} {ns:>8.4f} {ns / os_:>7.2f}x")
    for failure in failures:
        print("error:", failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
