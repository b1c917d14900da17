#!/usr/bin/env python3
"""Benchmark whole games: how many evolution games one core plays per second.

What it measures: ``play_game`` between GeneThello's two oe_fmc players
(oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3 and oe_fmc_436_18:45:5:2:8:8:4:9:1:2:4),
at depth 4 with the last 8 empties solved exactly, colours alternating, each
pair of games (one per colour) after its own 4-ply opening: all 244 legal
4-ply openings in a seeded random order, so no two games are alike. This is the
workload of evolution: a 352-player round robin is 352 * 351 = 123,552 games,
and the time for one generation on this machine's 2 cores (assuming linear
scaling) is derived from the rate. The issue's target is >= 400 games/s per
core.

In the same run, game by game interleaved so that machine noise hits both
alike, it plays the same games with a naive engine: plain fail-hard
alpha-beta (``algorithm="alphabeta-hard"``) with no transposition table and
no move ordering (``hashing=False, ordering=False``), and reports the speed
ratio ours/naive. The issue quotes
about 250 games/s for a naive Cython search without ordering or hashing.
Every game is replayed on a Board; an illegal move or a wrong reported score
makes the script exit 1.

Usage: python benchmarks/bench_games.py [--games N] [--depth D] [--exact E]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from genethello.core import PASS, Board
from genethello.core.chromosome import Chromosome
from genethello.core.game import Engine, play_game

PLAYER_A = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"
PLAYER_B = "oe_fmc_436_18:45:5:2:8:8:4:9:1:2:4"
POPULATION = 352
GENERATION_GAMES = POPULATION * (POPULATION - 1)
CORES = 2
TARGET_PER_CORE = 400.0


def check_game(result, label: str, index: int) -> list[str]:
    """Problems with a game's record: it must replay legally to a finished
    position with the reported discs and score."""
    try:
        board = Board.from_moves(list(result.moves))
    except ValueError as exc:
        return [f"{label} game {index}: illegal record: {exc}"]
    problems = []
    if not board.is_game_over():
        problems.append(f"{label} game {index}: the game did not end")
    if board.disc_count() != (result.black_discs, result.white_discs):
        problems.append(f"{label} game {index}: discs {board.disc_count()} != reported "
                        f"{(result.black_discs, result.white_discs)}")
    if board.final_score() != result.score:
        problems.append(f"{label} game {index}: score {board.final_score()} != reported {result.score}")
    return problems


def distinct_openings(plies: int, seed: int) -> list[list[int]]:
    """Every legal opening of ``plies`` moves, in a seeded random order."""
    found: list[list[int]] = []

    def walk(board: Board, line: list[int]) -> None:
        if len(line) == plies or board.is_game_over():
            found.append(list(line))
            return
        for move in board.legal_moves() or [PASS]:
            board.play(move)
            walk(board, line + [move])
            board.undo()

    walk(Board(), [])
    random.Random(seed).shuffle(found)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="games per engine kind (default 400)")
    parser.add_argument("--depth", type=int, default=4, help="plies per move (default 4)")
    parser.add_argument("--exact", type=int, default=8, help="solve exactly at this many empties (default 8)")
    parser.add_argument("--plies", type=int, default=4, help="random opening plies (default 4)")
    args = parser.parse_args(argv)
    if args.games < 1 or not 1 <= args.depth <= 60 or not 0 <= args.exact <= 60:
        parser.error("--games must be >= 1, --depth in 1..60, --exact in 0..60")

    a, b = Chromosome.parse(PLAYER_A), Chromosome.parse(PLAYER_B)
    kinds = {
        "ours": dict(algorithm="negascout-soft", tt_bits=16),
        "naive": dict(algorithm="alphabeta-hard", hashing=False, ordering=False),
    }
    engines = {name: (Engine(a, depth=args.depth, exact_empties=args.exact, **kw),
                      Engine(b, depth=args.depth, exact_empties=args.exact, **kw))
               for name, kw in kinds.items()}
    seconds = {name: 0.0 for name in kinds}
    nodes = {name: 0 for name in kinds}
    a_points = {name: 0.0 for name in kinds}
    distinct = set()
    failures: list[str] = []
    openings = distinct_openings(args.plies, seed=2026)
    if args.games > 2 * len(openings):
        parser.error(f"--games: at most {2 * len(openings)} distinct games with {args.plies}-ply openings")
    for i in range(args.games):
        opening = openings[i // 2]
        for name, (ea, eb) in engines.items():
            black, white = (ea, eb) if i % 2 == 0 else (eb, ea)
            t0 = time.perf_counter()
            result = play_game(black, white, opening)
            seconds[name] += time.perf_counter() - t0
            nodes[name] += result.nodes
            a_points[name] += result.black_points if i % 2 == 0 else 1.0 - result.black_points
            failures += check_game(result, name, i)
            if name == "ours":
                distinct.add(result.moves)

    print(f"{args.games} games per engine: depth {args.depth}, exact at {args.exact} empties, "
          f"each of {args.games // 2 + args.games % 2} distinct {args.plies}-ply openings with both colours; "
          f"{len(distinct)} distinct games")
    print(f"{'engine':>6} {'games':>6} {'seconds':>8} {'games/s':>8} {'nodes/game':>11} {'nodes/s':>10} "
          f"{'A score':>8} {'generation':>11}")
    rates = {}
    for name in kinds:
        rate = args.games / seconds[name]
        rates[name] = rate
        generation = GENERATION_GAMES / (rate * CORES)
        print(f"{name:>6} {args.games:>6} {seconds[name]:>8.2f} {rate:>8.1f} "
              f"{nodes[name] / args.games:>11.0f} {nodes[name] / seconds[name]:>10.3g} "
              f"{a_points[name]:>8g} {generation / 60:>9.1f} m")
    print(f"generation = {POPULATION}*{POPULATION - 1} = {GENERATION_GAMES} games on {CORES} cores, "
          f"linear scaling assumed")
    print(f"ours/naive speed: {rates['ours'] / rates['naive']:.2f}x; "
          f"ours {'meets' if rates['ours'] >= TARGET_PER_CORE else 'MISSES'} the target of "
          f"{TARGET_PER_CORE:g} games/s per core")
    for failure in failures:
        print("error:", failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
