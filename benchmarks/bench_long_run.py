"""A long run stays fast (issue 37): the read commands and resume's start
on a database of a run of 20,000 generations, against the same commands on
the 4-generation run it was grown from (the baseline, in the same run).

A real 4-generation GeneThello run is evolved (serially, in this
process), then grown by SQL inserts to N generations shaped as a run
stores them: 6 new members a generation with their population slots and
parents (a lineage as deep as the run), 30 games, 6 rating rows, the
generation's row, and a hall entrant every 100 generations (the best so
far until the next) whose ratings are stored every generation. Each command runs as a user runs it (a new
``genethello`` process; the web's JSON from a running ``genethello
serve``); resume is timed to its first line about the new generation.

    python benchmarks/bench_long_run.py [--generations 2000 20000]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

P = 6
HALL_EVERY = 100
CLI = [sys.executable, "-m", "genethello.cluster.cli.main"]


def small_run(folder: Path) -> Path:
    """A real 4-generation run (the tests' small GeneThello config)."""
    from genethello.cluster.run.executors import SerialExecutor
    from tests.cluster.conftest import write_config
    from tests.cluster.test_network_runs import drive

    config = write_config(folder, **{"stop__max_generations": 4})
    db = folder / "base.db"
    assert drive(db, config, SerialExecutor(0.001)) == "finished"
    c = sqlite3.connect(db)                 # resumable for one generation more, as the grown ones
    c.execute("UPDATE runs SET status = 'stopped', max_generations = 5")
    c.commit()
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")   # all in the file: the databases are copied
    c.close()
    return db


def grow(base: Path, target: Path, generations: int) -> None:
    """``base`` grown to ``generations`` generations by SQL inserts."""
    shutil.copy(base, target)
    c = sqlite3.connect(target)
    c.execute("PRAGMA journal_mode = OFF")
    c.execute("PRAGMA synchronous = OFF")
    (run_id, last), = c.execute("SELECT id, generation FROM runs").fetchall()
    template = c.execute("SELECT c.ctype, c.genes, c.elo FROM population p JOIN chromosomes c ON c.id = p.player_id "
                         "WHERE p.generation = ? ORDER BY p.slot", (last,)).fetchall()
    stats = json.loads(c.execute("SELECT stats_json FROM generations WHERE number = ?", (last,)).fetchone()[0])
    previous = [r[0] for r in c.execute("SELECT player_id FROM population WHERE generation = ? ORDER BY slot",
                                        (last,))]
    hall = [r[0] for r in c.execute("SELECT player_id FROM hall_members")]
    best_so_far = c.execute("SELECT best_player_id FROM generations WHERE number = ?", (last,)).fetchone()[0]
    next_id = c.execute("SELECT max(id) FROM chromosomes").fetchone()[0] + 1
    game_id = c.execute("SELECT max(id) FROM games").fetchone()[0] + 1
    c.execute("UPDATE generations SET status = 'bred'")
    players, slots, gens, games, ratings, hall_rows, hall_games, hall_ratings = ([] for _ in range(8))
    for g in range(last + 1, generations + 1):
        ids = list(range(next_id, next_id + P))
        next_id += P
        for k, (pid, (ctype, genes, elo)) in enumerate(zip(ids, template, strict=True)):
            players.append((pid, run_id, f"{ctype}_{g}_{genes}", ctype, g, genes, g, elo + (g % 7) - 3, 5, 4, 1))
            slots.append((run_id, g, k, pid, "mutated", previous[k], None, g - 1, None))
        best = ids[0]
        if g % HALL_EVERY == 0:         # the hall's new entrant is the best so far until the next
            best_so_far = best
        gens.append((run_id, g, "rated" if g == generations else "bred", 30, 30, best_so_far, 1500.0,
                     json.dumps({**stats, "generation_best": players[-P][2]}, sort_keys=True)))
        pairs = [(a, b) for a in ids for b in ids if a != b]
        for i, (a, b) in enumerate(pairs):
            games.append((game_id, run_id, g, i, a, b, (i % 5) - 2, 33, 31, None, 1000))
            game_id += 1
        ratings += [(run_id, g, pid, 1500.0 + k, 5, 4, 1) for k, pid in enumerate(ids)]
        if g % HALL_EVERY == 0:
            hall.append(best)
            hall_rows.append((run_id, best, g))
            hall_games += [(run_id, g, i, best, hall[i % len(hall)], 2, 1000) for i in range(8)]
        hall_ratings += [(run_id, g, pid, float(i), 30.0, 8 * i, 4.0 * i) for i, pid in enumerate(hall)]
        previous = ids
    c.executemany("INSERT INTO chromosomes (id, run_id, text, ctype, birth, genes, death, elo, wins, losses, draws) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", players)
    c.executemany("INSERT INTO population VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", slots)
    c.executemany("INSERT INTO generations (run_id, number, status, games_total, games_done, best_player_id, "
                  "mean_elo, stats_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", gens)
    c.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", games)
    c.executemany("INSERT INTO rating_history (run_id, generation, player_id, elo, wins, losses, draws) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?)", ratings)
    c.executemany("INSERT INTO hall_members VALUES (?, ?, ?)", hall_rows)
    c.executemany("INSERT INTO hall_games VALUES (?, ?, ?, ?, ?, ?, ?)", hall_games)
    c.executemany("INSERT OR REPLACE INTO hall_ratings VALUES (?, ?, ?, ?, ?, ?, ?)", hall_ratings)
    c.execute("UPDATE runs SET generation = ?, status = 'stopped', max_generations = ?",
              (generations, generations + 1))
    c.commit()
    c.close()


def timed(argv: list[str], home: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(CLI + argv, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "HOME": str(home)})
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)}: {done.stderr.strip()[-500:]}")
    return time.perf_counter() - start


def resume_start(db: Path, generation: int, home: Path) -> float:
    """Seconds from ``resume`` to its line about the next generation."""
    start = time.perf_counter()
    proc = subprocess.Popen(CLI + ["resume", "--db", str(db), "--workers", "1"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env={**os.environ, "HOME": str(home)})
    try:
        assert proc.stdout is not None
        said = []
        for line in proc.stdout:
            if line.startswith(f"generation {generation + 1}"):
                return time.perf_counter() - start
            said.append(line)
        raise SystemExit(f"resume of {db} said nothing of generation {generation + 1}: {''.join(said[-5:])}")
    finally:
        proc.kill()
        proc.wait()


def web_times(db: Path, home: Path) -> tuple[float, float]:
    """Seconds for /api/runs/1 and /api/runs/1/lineage from a running server."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(CLI + ["serve", "--db", str(db), "--port", str(port)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env={**os.environ, "HOME": str(home)})
    try:
        deadline = time.time() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.time() > deadline:
                    raise SystemExit("serve did not start") from None
                time.sleep(0.1)
        found = []
        for path in ("/api/runs/1", "/api/runs/1/lineage"):
            start = time.perf_counter()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            conn.request("GET", path)
            answer = conn.getresponse()
            answer.read()
            if answer.status != 200:
                raise SystemExit(f"{path}: HTTP {answer.status}")
            found.append(time.perf_counter() - start)
        return found[0], found[1]
    finally:
        proc.terminate()
        proc.wait()


def measure(db: Path, generations: int, home: Path) -> dict[str, float]:
    row = {command: timed([command, "--db", str(db)], home) for command in ("status", "best", "history", "lineage")}
    row["web /api/runs/1"], row["web /api/runs/1/lineage"] = web_times(db, home)
    row["resume's start"] = resume_start(db, generations, home)
    row["database MB"] = os.path.getsize(db) / 1e6
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generations", type=int, nargs="+", default=[2000, 20000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        folder_path = Path(folder)
        home = folder_path / "home"
        home.mkdir()
        base = small_run(folder_path)
        measured = folder_path / "run4.db"        # resume's start changes what it measures: a copy
        shutil.copy(base, measured)
        columns = {4: measure(measured, 4, home)}
        for n in args.generations:
            db = folder_path / f"run{n}.db"
            start = time.perf_counter()
            grow(base, db, n)
            print(f"grew a run of {n:,} generations in {time.perf_counter() - start:.1f} s", file=sys.stderr)
            columns[n] = measure(db, n, home)
            db.unlink()
    names = list(columns[4])
    print(f"{'seconds':<26}" + "".join(f"{f'{n:,} gen.':>14}" for n in columns))
    for name in names:
        print(f"{name:<26}" + "".join(f"{columns[n][name]:>14.2f}" for n in columns))


if __name__ == "__main__":
    main()
