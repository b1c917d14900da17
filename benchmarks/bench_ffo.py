#!/usr/bin/env python3
"""Benchmark the exact endgame solver on the FFO endgame test suite.

What it measures: the time and node count of ``Searcher.solve`` on FFO
positions #40-#44 (the first five lines of tests/data/ffo/fforum-40-59.obf,
20-22 empties), each with a fresh 2^22-bucket transposition table, so that no
position profits from the one before. These are the standard yardstick of
Othello endgame solvers; the issue's target is #40-#44 together in under 22 s
on one core. Each score is checked against the best score the OBF line lists
(the optimal move may differ when several moves tie); any wrong score makes
the script exit 1.

Usage: python benchmarks/bench_ffo.py [--from N] [--first K] [--data DIR] [--tt-bits B]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from genethello.core import Board, square_name
from genethello.core.evaluation import Evaluator
from genethello.core.search import Searcher

# (first FFO number in the file, file name): the suite is split 1-19, 20-39, ...
FFO_FILES = [(1, "fforum-1-19.obf"), (20, "fforum-20-39.obf"),
             (40, "fforum-40-59.obf"), (60, "fforum-60-79.obf")]
TARGET_SECONDS = 22.0          # the target for #40-#44 together
# The FFO files travel with the repository (tests/data/README.md says where they came from).
DEFAULT_DATA_DIR = Path(__file__).resolve().parents[1] / "tests" / "data"


def expected_score(line: str) -> int:
    """The best of the 'MOVE:SCORE;' entries after the side to move."""
    scores = []
    for entry in line.split(";")[1:]:
        entry = entry.strip()
        if entry:
            scores.append(int(entry.partition(":")[2]))
    if not scores:
        raise ValueError(f"OBF line has no scores: {line!r}")
    return max(scores)


def load_positions(data_dir: Path, first_number: int, count: int) -> list[tuple[int, str]]:
    """[(FFO number, OBF line)] for count positions from first_number on."""
    out = []
    for number in range(first_number, first_number + count):
        start, name = max((s, n) for s, n in FFO_FILES if s <= number)
        path = data_dir / "ffo" / name
        if not path.is_file():
            raise SystemExit(f"error: {path} not found (--data names the folder holding ffo/*.obf)")
        lines = [l for l in path.read_text().splitlines() if l.strip()]
        index = number - start
        if index >= len(lines):
            raise SystemExit(f"error: FFO #{number} is not in {name}")
        out.append((number, lines[index]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--from", dest="start", type=int, default=40,
                        help="first FFO position number (default 40)")
    parser.add_argument("--first", type=int, default=5, help="how many positions (default 5)")
    parser.add_argument("--tt-bits", type=int, default=22,
                        help="log2 transposition-table buckets, fresh per position (default 22)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA_DIR,
                        help="folder holding ffo/*.obf (default: tests/data in this checkout)")
    args = parser.parse_args(argv)
    if args.start < 1 or args.first < 1:
        parser.error("--from and --first must be >= 1")

    positions = load_positions(args.data, args.start, args.first)
    failures = []
    total_nodes = 0
    total_seconds = 0.0
    print(f"{'#':>3} {'empties':>7} {'move':>4} {'score':>5} {'expected':>8} {'nodes':>13} "
          f"{'seconds':>8} {'nodes/s':>10}")
    for number, line in positions:
        board = Board.from_obf(line)
        want = expected_score(line)
        searcher = Searcher(Evaluator(), tt_bits=args.tt_bits)
        r = searcher.solve(board)
        note = ""
        if not r.exact or r.value != want:
            failures.append(f"FFO #{number}: solver gave {r.value:+d} (exact={r.exact}), expected {want:+d}")
            note = "  WRONG"
        move = square_name(r.move) if r.move is not None else "-"
        print(f"{number:>3} {board.empties:>7} {move:>4} {r.value:>+5d} {want:>+8d} {r.nodes:>13} "
              f"{r.seconds:>8.3f} {r.nodes_per_second:>10.3g}{note}", flush=True)
        total_nodes += r.nodes
        total_seconds += r.seconds
    rate = total_nodes / total_seconds if total_seconds > 0 else 0.0
    print(f"{'total':>5} {'':>5} {'':>4} {'':>5} {'':>8} {total_nodes:>13} {total_seconds:>8.3f} {rate:>10.3g}")
    if args.start == 40 and args.first == 5:
        verdict = "meets" if total_seconds < TARGET_SECONDS else "MISSES"
        print(f"#40-#44 in {total_seconds:.2f} s: {verdict} the target of {TARGET_SECONDS:g} s")
    for failure in failures:
        print("error:", failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
