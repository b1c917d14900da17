#!/usr/bin/env python3
"""Benchmark genethello's perft against a plain C reference.

What it measures: the time of ``genethello.core.engine.perft`` from the start position
for depths 1..N, next to ``perft_reference.c`` (a straightforward shift-based C
perft, compiled here with ``cc -O2``) on the same machine in the same run.
Perft with bulk counting at the last ply is almost nothing but move generation
and flipping, so the ratio ours/reference says how our Cython core compares
with honest, plain compiled C. The two are interleaved depth by depth, so that
drift in machine load or clock speed hits both alike; small depths are
repeated until a measurement lasts at least ``--min-time`` seconds and the time
is reported per call. Both node counts are checked against the ``nodes`` column
of tests/data/perft.txt; any mismatch makes the script exit non-zero.

Usage: python benchmarks/bench_perft.py [--depth N] [--data DIR] [--min-time S]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from genethello.core import Board, perft

HERE = Path(__file__).resolve().parent
REFERENCE_SOURCE = HERE / "perft_reference.c"
# perft.txt travels with the repository (tests/data/README.md says where it came from).
DEFAULT_DATA_DIR = HERE.parent / "tests" / "data"


def load_nodes(data_dir: Path) -> dict[int, int]:
    """depth -> nodes from perft.txt (columns: depth nodes passes finished_before standard)."""
    path = data_dir / "perft.txt"
    if not path.is_file():
        sys.exit(f"error: {path} not found (--data names the folder holding perft.txt)")
    table = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            fields = line.split()
            table[int(fields[0])] = int(fields[1])
    return table


def compile_reference(workdir: Path) -> Path:
    cc = os.environ.get("CC", "cc")
    if shutil.which(cc) is None:
        sys.exit(f"error: C compiler {cc!r} not found (set CC)")
    exe = workdir / "perft_reference"
    subprocess.run([cc, "-O2", "-o", str(exe), str(REFERENCE_SOURCE)], check=True)
    return exe


def time_ours(depth: int, min_time: float) -> tuple[int, float]:
    """(nodes, seconds per call), repeating the call until min_time has passed."""
    board = Board()
    calls = 0
    start = time.perf_counter()
    while True:
        nodes = perft(board, depth)
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return nodes, elapsed / calls


def time_reference(exe: Path, depth: int, min_time: float) -> tuple[int, float]:
    """(nodes, seconds per call) as timed by the reference itself (process start excluded)."""
    out = subprocess.run([str(exe), str(depth), repr(min_time), str(depth)],
                         check=True, capture_output=True, text=True).stdout.split()
    d, nodes, seconds = int(out[0]), int(out[1]), float(out[2])
    assert d == depth, out
    return nodes, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=11, help="deepest depth to run (default 11)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA_DIR,
                        help="folder holding perft.txt (default: tests/data in this checkout)")
    parser.add_argument("--min-time", type=float, default=0.05,
                        help="repeat each measurement until it lasts this long, seconds (default 0.05)")
    args = parser.parse_args(argv)
    if args.depth < 1:
        parser.error("--depth must be >= 1")

    expected = load_nodes(args.data)
    failures = []
    rows = []
    with tempfile.TemporaryDirectory(prefix="perft_ref_") as tmp:
        exe = compile_reference(Path(tmp))
        print(f"{'depth':>5} {'nodes':>14} {'ours s':>12} {'ref s':>12} {'ours/ref':>9} {'leaves/s':>12}")
        for depth in range(1, args.depth + 1):
            ours_nodes, ours_s = time_ours(depth, args.min_time)
            ref_nodes, ref_s = time_reference(exe, depth, args.min_time)
            want = expected.get(depth)
            note = ""
            if want is None:
                note = "  (not in perft.txt: unchecked)"
            for who, got in (("ours", ours_nodes), ("reference", ref_nodes)):
                if want is not None and got != want:
                    failures.append(f"depth {depth}: {who} gave {got}, perft.txt says {want}")
                    note += f"  MISMATCH {who}"
            if ours_nodes != ref_nodes:
                failures.append(f"depth {depth}: ours {ours_nodes} != reference {ref_nodes}")
            rows.append((ours_s, ref_s))
            print(f"{depth:>5} {ours_nodes:>14} {ours_s:>12.6g} {ref_s:>12.6g} "
                  f"{ours_s / ref_s:>9.3f} {ours_nodes / ours_s:>12.4g}{note}", flush=True)
    total_ours = sum(r[0] for r in rows)
    total_ref = sum(r[1] for r in rows)
    print(f"{'total':>5} {'':>14} {total_ours:>12.6g} {total_ref:>12.6g} {total_ours / total_ref:>9.3f}")
    for failure in failures:
        print("error:", failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
