#!/usr/bin/env python3
"""Benchmark the exact endgame solver on the FFO endgame test suite.

What it measures: the time and node count of ``Searcher.solve`` on FFO
positions (default #40-#44, 20-23 empties; ``--from 40 --first 20`` for the
standard #40-#59 listing that Othello engines publish), each with a fresh
2^22-bucket transposition table, so that no position profits from the one
before, and at most ``--seconds`` (default 60) a position.

In the same run, position by position (who goes first alternates), it solves
each position with the core as it was at ``--baseline`` (default cf7873c, when
issue 10 began; built once from git history, see baseline_build.py), each
build in its own process, and reports the time ratio. Issue 10's target: ours
at least 1.65x faster on #40-#44 together. Each score is checked against the
best score the OBF line lists (the optimal move may differ when several moves
tie); a wrong score makes the script exit 1.

Usage: python benchmarks/bench_ffo.py [--from N] [--first K] [--seconds S] [--baseline COMMIT|none]
                                      [--data DIR] [--tt-bits B]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from baseline_build import BASELINE_COMMIT, BuildWorker, build_commit, checkout_path

from genethello.core import square_name

# (first FFO number in the file, file name): the suite is split 1-19, 20-39, ...
FFO_FILES = [(1, "fforum-1-19.obf"), (20, "fforum-20-39.obf"),
             (40, "fforum-40-59.obf"), (60, "fforum-60-79.obf")]
TARGET_RATIO = 1.65            # issue 10: #40-#44 together at least 1.65x faster than cf7873c
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
        lines = [line for line in path.read_text().splitlines() if line.strip()]
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
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="give up on a position after this long (default 60)")
    parser.add_argument("--baseline", default=BASELINE_COMMIT,
                        help=f"the commit to compare with (default {BASELINE_COMMIT}); 'none' for ours alone")
    parser.add_argument("--tt-bits", type=int, default=22,
                        help="log2 transposition-table buckets, fresh per position (default 22)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA_DIR,
                        help="folder holding ffo/*.obf (default: tests/data in this checkout)")
    args = parser.parse_args(argv)
    if args.start < 1 or args.first < 1 or args.seconds <= 0:
        parser.error("--from and --first must be >= 1, --seconds > 0")

    positions = load_positions(args.data, args.start, args.first)
    builds = {"ours": checkout_path()}
    if args.baseline != "none":
        builds[args.baseline] = build_commit(args.baseline)
    workers = {name: BuildWorker(name, path) for name, path in builds.items()}
    failures: list[str] = []
    totals = {name: [0, 0.0] for name in builds}        # nodes, seconds over the positions both finished
    unfinished: list[str] = []
    header = (f"{'#':>3} {'empties':>7} {'move':>4} {'score':>5} {'expected':>8} {'nodes':>13} {'seconds':>8} "
              f"{'nodes/s':>10}")
    if len(builds) > 1:
        header += f" | {args.baseline + ' s':>12} {'nodes/s':>10} {'ratio':>6}"
    print(header)
    try:
        for turn, (number, line) in enumerate(positions):
            want = expected_score(line)
            names = list(builds) if turn % 2 == 0 else list(builds)[::-1]
            answers = {name: workers[name].call(op="solve", obf=line, tt_bits=args.tt_bits, seconds=args.seconds)
                       for name in names}
            for name, r in answers.items():
                if r["exact"] and r["value"] != want:
                    failures.append(f"FFO #{number} ({name}): solver gave {r['value']:+d}, expected {want:+d}")
            ours = answers["ours"]
            done = all(r["exact"] for r in answers.values())
            if done:
                for name, r in answers.items():
                    totals[name][0] += r["nodes"]
                    totals[name][1] += r["seconds"]
            else:
                unfinished.append(f"#{number}")
            move = square_name(ours["move"]) if ours["move"] is not None else "-"
            shown = f"{ours['seconds']:>8.3f}" if ours["exact"] else f"{'>' + format(args.seconds, 'g'):>8}"
            value = f"{ours['value']:>+5d}" if ours["exact"] else f"{'?':>5}"
            row = (f"{number:>3} {ours['empties']:>7} {move:>4} {value} {want:>+8d} {ours['nodes']:>13} "
                   f"{shown} {ours['nodes'] / max(ours['seconds'], 1e-9):>10.3g}")
            if len(builds) > 1:
                base = answers[args.baseline]
                base_shown = f"{base['seconds']:>12.3f}" if base["exact"] else f"{'>' + format(args.seconds, 'g'):>12}"
                ratio = f"{base['seconds'] / ours['seconds']:>5.2f}x" if done else f"{'-':>6}"
                row += f" | {base_shown} {base['nodes'] / max(base['seconds'], 1e-9):>10.3g} {ratio}"
            if any(r["exact"] and r["value"] != want for r in answers.values()):
                row += "  WRONG"
            print(row, flush=True)
    finally:
        for worker in workers.values():
            worker.close()
    nodes, seconds = totals["ours"]
    row = (f"{'total':>5} {'':>5} {'':>4} {'':>5} {'':>8} {nodes:>13} {seconds:>8.3f} "
           f"{nodes / max(seconds, 1e-9):>10.3g}")
    if len(builds) > 1:
        base_nodes, base_seconds = totals[args.baseline]
        row += (f" | {base_seconds:>12.3f} {base_nodes / max(base_seconds, 1e-9):>10.3g} "
                f"{base_seconds / max(seconds, 1e-9):>5.2f}x")
    print(row)
    if unfinished:
        print(f"not in the totals (a build gave up after {args.seconds:g} s): {', '.join(unfinished)}")
    if len(builds) > 1 and args.start == 40 and args.first == 5 and not unfinished:
        ratio = totals[args.baseline][1] / max(seconds, 1e-9)
        print(f"#40-#44: ours {seconds:.2f} s, {args.baseline} {totals[args.baseline][1]:.2f} s: {ratio:.2f}x, "
              f"{'meets' if ratio >= TARGET_RATIO else 'MISSES'} the target of {TARGET_RATIO:g}x")
    for failure in failures:
        print("error:", failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
