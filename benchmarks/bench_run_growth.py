"""How fast a run's database grows (issue 37): a config evolved for a while
as a user runs it (`genethello evolve`, a new process, Ray started
locally), its database measured at two moments, and the growth between
them given per generation and per hour, by table and by kind of payload.

The first moment is taken after ``--warmup`` seconds, so that Ray's start
and the constant part (the members that still hold real weights) fall
outside the rate. The rate an hour is the run's own speed on this machine
at the time: run it on an idle machine.

    python benchmarks/bench_run_growth.py [--config config/search-player.toml]
        [--workers 2] [--warmup 90] [--seconds 240]
"""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "genethello.cluster.cli.main"]


def measure(db: Path) -> tuple[int, int, Counter[str], Counter[str]]:
    """(file bytes, generations stored, bytes a table, payload bytes a kind)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        generations = conn.execute("SELECT count(*) FROM generations").fetchone()[0]
        tables: Counter[str] = Counter(dict(conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name")))
        payloads: Counter[str] = Counter()
        for (payload,) in conn.execute("SELECT payload FROM chromosomes WHERE payload IS NOT NULL"):
            head = bytes(payload[:6])
            payloads[head.decode() if head.startswith(b"GTNW") else "real weights"] += len(payload)
    finally:
        conn.close()
    return db.stat().st_size, generations, tables, payloads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=str(ROOT / "config" / "search-player.toml"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--warmup", type=float, default=90.0)
    parser.add_argument("--seconds", type=float, default=240.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="growth-") as folder:
        db = Path(folder) / "run.db"
        with open(Path(folder) / "evolve.log", "w") as log:
            evolve = subprocess.Popen([*CLI, "evolve", "--config", args.config, "--db", str(db), "--workers",
                                       str(args.workers)], stdout=log, stderr=subprocess.STDOUT,
                                      start_new_session=True)
        try:
            started = time.monotonic()
            time.sleep(args.warmup)
            first, t1 = measure(db), time.monotonic()
            time.sleep(max(0.0, args.seconds - (t1 - started)))
            second, t2 = measure(db), time.monotonic()
        finally:
            os.killpg(evolve.pid, signal.SIGINT)
            try:
                evolve.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(evolve.pid, signal.SIGKILL)
                evolve.wait()
        generations = second[1] - first[1]
        hours = (t2 - t1) / 3600
        if generations <= 0:
            sys.exit(f"no generation was stored between {t1 - started:.0f} s and {t2 - started:.0f} s")
        grown = second[0] - first[0]
        print(f"{Path(args.config).name}, --workers {args.workers}: generations {first[1]} -> {second[1]} "
              f"in {t2 - t1:.0f} s ({generations / hours:,.0f} an hour); file {first[0] / 1e6:.2f} -> "
              f"{second[0] / 1e6:.2f} MB\n")
        print("| growth | a generation | an hour |\n| --- | ---: | ---: |")
        print(f"| the file | {grown / generations / 1e3:,.1f} kB | {grown / hours / 1e6:,.1f} MB |")
        for name in sorted(set(first[2]) | set(second[2]), key=lambda n: first[2][n] - second[2][n]):
            delta = second[2][name] - first[2][name]
            if delta > 0:
                print(f"| table {name} | {delta / generations / 1e3:,.1f} kB | {delta / hours / 1e6:,.1f} MB |")
        for kind in sorted(set(first[3]) | set(second[3])):
            delta = second[3][kind] - first[3][kind]
            print(f"| payloads {kind} | {delta / generations / 1e3:,.1f} kB | {delta / hours / 1e6:,.1f} MB |")


if __name__ == "__main__":
    main()
