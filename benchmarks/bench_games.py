#!/usr/bin/env python3
"""Benchmark whole games: how many evolution games one core plays per second.

What it measures: ``play_game`` between GeneThello's two oe_fmc players
(oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3 and oe_fmc_436_18:45:5:2:8:8:4:9:1:2:4),
at depth 4 with the last 8 empties solved exactly, colours alternating, each
pair of games (one per colour) after its own 4-ply opening: all 244 legal
4-ply openings in a seeded random order, so no two games are alike. This is the
workload of evolution: a 352-player round robin is 352 * 351 = 123,552 games,
and the time for one generation on this machine's 2 cores (assuming linear
scaling) is derived from the rate.

In the same run it plays the same games with two other engines, each build in
its own process (baseline_build.py), a chunk of games at a time in turn (who
goes first rotates) so that machine noise hits all alike:
- cf7873c (or --baseline COMMIT): the core as it was when issue 10 began,
  built once from git history. Issue 10's target: ours at least 1.5x its games/s. Its games may
  differ from ours where its root broke ties differently (GeneThello's
  tie-break came later).
- naive: this checkout with plain fail-hard alpha-beta
  (``algorithm="alphabeta-hard"``), no transposition table and no move
  ordering (``hashing=False, ordering=False``).
Every game is replayed on a Board; an illegal move or a wrong reported score
makes the script exit 1.

Usage: python benchmarks/bench_games.py [--games N] [--depth D] [--exact E] [--chunk N] [--baseline COMMIT|none]
"""

from __future__ import annotations

import argparse
import random
import sys

from baseline_build import BASELINE_COMMIT, BuildWorker, build_commit, checkout_path

from genethello.core import PASS, Board

PLAYER_A = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"
PLAYER_B = "oe_fmc_436_18:45:5:2:8:8:4:9:1:2:4"
POPULATION = 352
GENERATION_GAMES = POPULATION * (POPULATION - 1)
CORES = 2
TARGET_RATIO = 1.5             # issue 10: at least 1.5x the cf7873c build on the same games


def check_game(moves: list[int], score: int, discs: tuple[int, int], label: str, index: int) -> list[str]:
    """Problems with a game's record: it must replay legally (on this
    checkout's board) to a finished position with the reported discs and score."""
    try:
        board = Board.from_moves(list(moves))
    except ValueError as exc:
        return [f"{label} game {index}: illegal record: {exc}"]
    problems = []
    if not board.is_game_over():
        problems.append(f"{label} game {index}: the game did not end")
    if board.disc_count() != tuple(discs):
        problems.append(f"{label} game {index}: discs {board.disc_count()} != reported {tuple(discs)}")
    if board.final_score() != score:
        problems.append(f"{label} game {index}: score {board.final_score()} != reported {score}")
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
    parser.add_argument("--chunk", type=int, default=10, help="games each engine plays in a turn (default 10)")
    parser.add_argument("--baseline", default=BASELINE_COMMIT,
                        help=f"the commit to compare with (default {BASELINE_COMMIT}); 'none' to leave it out")
    args = parser.parse_args(argv)
    if args.games < 1 or not 1 <= args.depth <= 60 or not 0 <= args.exact <= 60 or args.chunk < 1:
        parser.error("--games and --chunk must be >= 1, --depth in 1..60, --exact in 0..60")
    openings = distinct_openings(args.plies, seed=2026)
    if args.games > 2 * len(openings):
        parser.error(f"--games: at most {2 * len(openings)} distinct games with {args.plies}-ply openings")

    ours = checkout_path()
    kinds = {"ours": (ours, dict(algorithm="negascout-soft", tt_bits=16))}
    if args.baseline != "none":
        kinds[args.baseline] = (build_commit(args.baseline), dict(algorithm="negascout-soft", tt_bits=16))
    kinds["naive"] = (ours, dict(algorithm="alphabeta-hard", hashing=False, ordering=False))
    workers = {name: BuildWorker(name, path) for name, (path, _) in kinds.items()}
    seconds = {name: 0.0 for name in kinds}
    nodes = {name: 0 for name in kinds}
    a_points = {name: 0.0 for name in kinds}
    distinct = set()
    failures: list[str] = []
    games = [[openings[i // 2], i % 2 == 0] for i in range(args.games)]
    try:
        for turn, first in enumerate(range(0, args.games, args.chunk)):
            chunk = games[first:first + args.chunk]
            names = list(kinds)
            names = names[turn % len(names):] + names[:turn % len(names)]   # who goes first rotates
            for name in names:
                answer = workers[name].call(op="games", players=[PLAYER_A, PLAYER_B], depth=args.depth,
                                            exact=args.exact, games=chunk, engine=kinds[name][1])
                seconds[name] += answer["seconds"]
                nodes[name] += answer["nodes"]
                for offset, (moves, score, black, white) in enumerate(answer["games"]):
                    index = first + offset
                    a_is_black = games[index][1]
                    black_points = 1.0 if score > 0 else (0.5 if score == 0 else 0.0)
                    a_points[name] += black_points if a_is_black else 1.0 - black_points
                    failures += check_game(moves, score, (black, white), name, index)
                    if name == "ours":
                        distinct.add(tuple(moves))
    finally:
        for worker in workers.values():
            worker.close()

    print(f"{args.games} games per engine: depth {args.depth}, exact at {args.exact} empties, "
          f"each of {args.games // 2 + args.games % 2} distinct {args.plies}-ply openings with both colours; "
          f"{len(distinct)} distinct games; engines interleaved {args.chunk} games at a time")
    print(f"{'engine':>8} {'games':>6} {'seconds':>8} {'games/s':>8} {'nodes/game':>11} {'nodes/s':>10} "
          f"{'A score':>8} {'generation':>11} {'ours is':>8}")
    rates = {name: args.games / seconds[name] for name in kinds}
    for name in kinds:
        generation = GENERATION_GAMES / (rates[name] * CORES)
        print(f"{name:>8} {args.games:>6} {seconds[name]:>8.2f} {rates[name]:>8.1f} "
              f"{nodes[name] / args.games:>11.0f} {nodes[name] / seconds[name]:>10.3g} "
              f"{a_points[name]:>8g} {generation / 60:>9.1f} m {rates['ours'] / rates[name]:>7.2f}x")
    print(f"generation = {POPULATION}*{POPULATION - 1} = {GENERATION_GAMES} games on {CORES} cores, "
          f"linear scaling assumed")
    if args.baseline in rates:
        ratio = rates["ours"] / rates[args.baseline]
        print(f"ours/{args.baseline}: {ratio:.2f}x" + (f"; {'meets' if ratio >= TARGET_RATIO else 'MISSES'} the "
              f"target of {TARGET_RATIO:g}x" if args.baseline == BASELINE_COMMIT else ""))
    for failure in failures:
        print("error:", failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
