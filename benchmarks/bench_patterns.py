#!/usr/bin/env python3
"""Benchmark the pattern feature: search speed with it on and off, and how
well the sign of the pattern score predicts the winner of held-out games.

Speed: ``Searcher.search(board, depth=D)`` (default 8, negascout-soft, fresh
table per position) on 20 seeded random openings of 20..30 plies, with the
same chromosome twice: fdmxcp with the pattern weight on, and with it 0.
The figure is nodes per second; the target is a ratio (off / on) of at most
2 (the script exits 1 above it). A second line compares the pattern-only
player with a discs-only one.

Prediction: ``pattern_learning.sign_accuracy`` on the validation slice
(every 10th line) of the WTHOR games file: for the positions at moves 20,
30 and 40 of every decisive game, the share whose winner the sign of each
predictor (pattern score, disc count, mobility difference, classic square
weights) names, from the point of view of the player who just moved. The
targets: at least 80% at move 40, and better than mobility at 20 and 30
(the script exits 1 when one is missed). With ``--perfect K``, K of the
move-40 positions are also solved exactly: how often perfect play names the
human winner is the ceiling any static score can be held to.

Play: the pattern-only player (p_0_1) against a discs-only (d_0_1) and a
mobility-only (m_0_1) player at equal depth (default 3), each seeded random
4-ply opening (seeds 0..K-1) played with both colours; the target is a score
of at least 65% against each (the script exits 1 below it).

Versions: with more than one table installed, the cost of a searched node
with each (pattern-only and fdmxcp, runs interleaved on the same positions)
and the bare scoring rate; the target for the newest is at most 1.5x the
oldest's cost (the script exits 1 above it).

Usage: python benchmarks/bench_patterns.py [--depth D] [--positions N] [--games FILE]
           [--no-prediction] [--perfect K] [--match-depth D] [--openings K]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from genethello.core import Board
from genethello.core import pattern_learning as pl
from genethello.core.engine.game import Engine, play_game, random_opening
from genethello.core.engine.search import Searcher
from genethello.core.evaluation import pattern_table as ptab
from genethello.core.evaluation.evaluation import Evaluator
from genethello.core.families.chromosome import Chromosome
from genethello.core.families.registry import evaluator_of

PAIRS = (
    ("fdmxcp_0_2:1:8:6:10:4", "fdmxcp_0_2:1:8:6:10:0"),   # the same player, pattern on / off
    ("p_0_1", "d_0_1"),                                     # pattern only / discs only
)
REPO = Path(__file__).resolve().parents[1]


def default_games() -> Path:
    """The full WTHOR games file, which stays outside the repository: under
    $GENETHELLO_SHARED_DATA, else shared/data inside or beside the checkout.

    Raises:
        SystemExit: one line naming the places looked at, when it is in none.
    """
    env = os.environ.get("GENETHELLO_SHARED_DATA")
    roots = [Path(env)] if env else [REPO / "shared" / "data", REPO.parent / "shared" / "data"]
    places = [root / "games" / "wthor_human_games.txt.gz" for root in roots]
    for path in places:
        if path.is_file():
            return path
    raise SystemExit(f"error: the full games file is not at {' or '.join(map(str, places))}; "
                     "set GENETHELLO_SHARED_DATA, pass --games FILE "
                     "(tests/data/games holds a 2,000-game slice) or --no-prediction")


def nodes_per_second(chromosome: str, boards: list, depth: int, tt_bits: int,
                     patterns: str | None = None) -> tuple[float, int, float]:
    evaluator = Evaluator.from_chromosome(Chromosome.parse(chromosome), patterns)
    nodes, seconds = 0, 0.0
    for board in boards:
        r = Searcher(evaluator, tt_bits=tt_bits).search(board, depth=depth)
        nodes += r.nodes
        seconds += r.seconds
    return nodes / seconds, nodes, seconds


def compare_versions(boards: list, args: argparse.Namespace) -> bool:
    """The cost of a searched node with each installed table version, runs
    interleaved (v1, v2, v1, v2, ...; best of --repeat) on the same
    positions: the pattern-only player and fdmxcp. The v2 target: at most
    1.5x v1's cost per node. Also the bare scoring rate (pattern.scores on
    the positions of 2,000 random games). Returns True when a target is missed."""
    import time

    import numpy as np

    from genethello.core.evaluation import patterns as pt
    versions = ptab.shipped_versions()
    if len(versions) < 2:
        print(f"\nonly {versions} installed: no version comparison")
        return False
    print(f"\ncost per node by table version (depth {args.depth}, {len(boards)} positions, "
          f"best of {args.repeat}, interleaved)")
    print(f"{'chromosome':<24} " + " ".join(f"{v + ' nodes/s':>22}" for v in versions) + f" {'cost ratio':>11}")
    failed = False
    for chromosome in ("p_0_1", PAIRS[0][0]):
        best = {v: 0.0 for v in versions}
        for _ in range(args.repeat):
            for v in versions:
                best[v] = max(best[v], nodes_per_second(chromosome, boards, args.depth, args.tt_bits, v)[0])
        ratio = best[versions[0]] / best[versions[-1]]
        print(f"{chromosome:<24} " + " ".join(f"{best[v]:>22.3e}" for v in versions) + f" {ratio:>10.2f}x")
        failed |= ratio > 1.5
    rng = np.random.default_rng(0)
    movers, others = [], []
    for s in range(2000):
        b = Board.from_moves(random_opening(int(rng.integers(1, 55)), s))
        movers.append(b.opponent)
        others.append(b.player)
    m, o = np.array(movers, np.uint64), np.array(others, np.uint64)
    m, o = np.tile(m, 100), np.tile(o, 100)
    rates = {}
    for v in versions:
        table = ptab.shared_table(v).array
        t0 = time.perf_counter()
        pt.scores(table, m, o, np.zeros(m.size, np.uint8) + 30)
        rates[v] = m.size / (time.perf_counter() - t0)
    print("bare scoring: " + ", ".join(f"{v} {rates[v]:.3e} positions/s" for v in versions)
          + f" ({rates[versions[0]] / rates[versions[-1]]:.2f}x)")
    if failed:
        print("FAIL: a searched node costs more than 1.5x with the newest table")
    return failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=8, help="search depth (default 8)")
    parser.add_argument("--positions", type=int, default=20, help="how many positions (default 20)")
    parser.add_argument("--tt-bits", type=int, default=18, help="log2 table buckets (default 18)")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs per player (default 3)")
    parser.add_argument("--games", type=Path,
                        help="games file (default: the full wthor_human_games.txt.gz under "
                             "$GENETHELLO_SHARED_DATA or shared/data beside the checkout)")
    parser.add_argument("--no-prediction", action="store_true", help="skip the prediction table")
    parser.add_argument("--perfect", type=int, default=0,
                        help="solve this many move-40 validation positions exactly (~0.3 s each; default 0)")
    parser.add_argument("--match-depth", type=int, default=3, help="depth of the matches (default 3)")
    parser.add_argument("--openings", type=int, default=60,
                        help="random openings per match, each played with both colours (default 60)")
    args = parser.parse_args(argv)
    games_path = None
    if not args.no_prediction:
        # Found before the speed runs, so that a missing file costs no waiting.
        games_path = args.games or default_games()
        if not games_path.is_file():
            parser.error(f"--games: {games_path} is not a file")

    boards = [Board.from_moves(random_opening(20 + s % 11, s)) for s in range(args.positions)]
    print(f"pattern table {ptab.shared_table().version}; depth {args.depth}, {len(boards)} positions")
    print(f"{'chromosome':<24} {'nodes':>10} {'seconds':>8} {'nodes/s':>10}")
    worst = 0.0
    for on, off in PAIRS:
        rates = {}
        for chromosome in (on, off):
            best = max((nodes_per_second(chromosome, boards, args.depth, args.tt_bits)
                        for _ in range(args.repeat)), key=lambda r: r[0])
            rates[chromosome] = best[0]
            print(f"{chromosome:<24} {best[1]:>10} {best[2]:>8.3f} {best[0]:>10.3e}")
        ratio = rates[off] / rates[on]
        print(f"  speed ratio {off} / {on}: {ratio:.2f}x")
        if on.startswith("fdmxcp"):
            worst = ratio
    failed = worst > 2.0
    if failed:
        print(f"FAIL: the search with the pattern feature is {worst:.2f}x slower (limit 2x)")
    failed |= compare_versions(boards, args)

    if not args.no_prediction:
        validation = pl.read_games(games_path).slice("validation")
        print(f"\nsign of each predictor vs the winner, validation slice ({validation.games} games, "
              f"every {pl.HOLDOUT}th line of {games_path.name})")
        rows = pl.sign_accuracy(validation, ptab.shared_table().array)
        print("\n".join(pl.accuracy_lines(rows)))
        by_move = {row["move"]: row for row in rows}
        if args.perfect > 0:
            (row,) = pl.perfect_play_accuracy(validation, ptab.shared_table().array, (40,), args.perfect)
            print(f"  move 40, {row['positions']} positions solved exactly: perfect play {100 * row['perfect']:.1f}%, "
                  f"pattern {100 * row['pattern']:.1f}%, mobility {100 * row['mobility']:.1f}% on the same positions")
        if by_move[40]["pattern"] < 0.80:
            failed = True
            print(f"FAIL: target >= 80% at move 40 not met ({100 * by_move[40]['pattern']:.1f}%)")
        for move in (20, 30):
            if by_move[move]["pattern"] <= by_move[move]["mobility"]:
                failed = True
                print(f"FAIL: the pattern score does not beat mobility at move {move}")

    print(f"\nmatches at depth {args.match_depth}, {args.openings} seeded 4-ply openings x both colours")
    player = Engine(evaluator_of(Chromosome.parse("p_0_1")), depth=args.match_depth)
    for text in ("d_0_1", "m_0_1"):
        other = Engine(evaluator_of(Chromosome.parse(text)), depth=args.match_depth)
        points, wins, losses, draws = 0.0, 0, 0, 0
        for seed in range(args.openings):
            opening = random_opening(4, seed)
            for p_black in (True, False):
                r = play_game(player, other, opening) if p_black else play_game(other, player, opening)
                result = r.black_points if p_black else 1.0 - r.black_points
                points += result
                wins += result == 1.0
                losses += result == 0.0
                draws += result == 0.5
        games = 2 * args.openings
        print(f"  p_0_1 vs {text}: {points:g}/{games} = {100 * points / games:.1f}% "
              f"(won {wins}, lost {losses}, drawn {draws})")
        if points < 0.65 * games:
            failed = True
            print(f"FAIL: the pattern player scores under 65% against {text}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
