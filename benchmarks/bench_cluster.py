#!/usr/bin/env python3
"""Benchmark the evolution cluster's overhead.

(a) Games through the cluster vs plain loops. A generation's round robin
    (P players, depth 4, exact from 8 empties by default) is played through
    Generation.play with a RayExecutor on every core, results
    committed to a real SQLite file; the very same games are played by plain
    processes (multiprocessing, one per core, each playing its share with
    genethello.cluster.fitness.matches.Matches, all at once). Both sides are warmed
    up first (every Ray worker has run a task; the plain processes are
    spawned and imported before the clock starts), and both must search the
    same number of nodes. Each round is a new run (seed), with new games;
    rounds alternate which side goes first so that other load on the
    machine hits both alike. Target: the cluster plays at >= 95% of the
    plain loops' rate.

(b) The coordinator's ingest rate: a fake executor yields precomputed
    MatchOutcome batches (no game is played) into Generation.play
    on a real SQLite file: a full generation of P = 352 (123,552 results).
    Target: >= 100,000 results/s. --profile prints where the time goes.

Usage: python benchmarks/bench_cluster.py [--population 64] [--depth 4]
       [--exact 8] [--rounds 5] [--workers N] [--skip-games] [--skip-ingest]
       [--ingest-population 352] [--batch 512] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import multiprocessing as mp
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

from genethello.cluster.db import Database, acquire_lease, release_lease
from genethello.cluster.fitness.matches import Matches, MatchOutcome, Pairing, SeededOpenings, Side
from genethello.cluster.fitness.pairing import round_robin_pairs
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.run.generation import Generation
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import config_from_mapping

GAMES_TARGET = 0.95
INGEST_TARGET = 100_000.0
# A full game's move list (60 squares) so the rows have their real size.
MOVES = ("f5d6c3d3c4f4f6f3e6e7d7c6c5b6b5a5b4a3a4c7e3g4g5h5h4h3g3g6h6h7"
         "f7e8f8d8c8b8g7g8h8h2g2f2e2d2c2b2a2b3b7a6a7a8b1c1d1e1f1g1h1a1")


def new_coordinator(folder: Path, name: str, config: dict, executor=None) -> Coordinator:
    """A run with its first population written and its lease taken (what
    Coordinator.run does before it plays)."""
    db = Database.open(folder / f"{name}.db", create=True)
    run_id = create_run(db, config_from_mapping({"name": name, **config}))
    coordinator = Coordinator(db, run_id, executor, Progress(enabled=False))
    Generation(coordinator).start()
    acquire_lease(db, run_id, coordinator.owner)
    coordinator._last_renew = time.monotonic()
    return coordinator


def close(coordinator: Coordinator) -> None:
    release_lease(coordinator.db, coordinator.run_id, coordinator.owner)
    coordinator.db.dispose()


def generation_specs(coordinator: Coordinator, g: int = 1) -> list[Pairing]:
    members = coordinator.population(g)
    return [Pairing(i, b, w) for i, (b, w) in enumerate(round_robin_pairs(list(range(len(members)))))]


def generation_task(coordinator: Coordinator, g: int = 1) -> Matches:
    """The match task of generation g's round robin (its members at the run's setting)."""
    s = coordinator.settings
    return Matches(tuple(Side(text, None, s.play_setting()) for _, text in coordinator.population(g)),
                   openings=SeededOpenings(s.seed, g, s.random_plies))


# --------------------------------------------------------------------------- #
# (a) cluster vs plain loops


def _plain_worker(task: Matches, specs: list[Pairing], start, results) -> None:
    start.wait()
    t0 = time.perf_counter()
    outcomes = task.run(specs)
    results.put((len(outcomes), time.perf_counter() - t0, sum(o.nodes for o in outcomes)))


def plain_loops(task: Matches, specs: list[Pairing], workers: int) -> tuple[float, int]:
    """Seconds for `workers` processes to play their shares concurrently, and
    the nodes searched."""
    # spawn, not fork: this process runs Ray's threads, which a fork would copy
    # half-way. The children start (and import) before the clock does.
    ctx = mp.get_context("spawn")
    start = ctx.Barrier(workers + 1)
    results = ctx.Queue()
    shares = [specs[i::workers] for i in range(workers)]
    procs = [ctx.Process(target=_plain_worker, args=(task, share, start, results)) for share in shares]
    for p in procs:
        p.start()
    start.wait()
    t0 = time.perf_counter()
    got = [results.get() for _ in procs]
    seconds = time.perf_counter() - t0
    for p in procs:
        p.join()
    assert sum(n for n, _, _ in got) == len(specs)
    return seconds, sum(nodes for _, _, nodes in got)


def _warm_up(task: Matches, specs: list[Pairing]) -> int:
    task.run(specs)
    time.sleep(0.5)  # hold the CPU so that the next warm-up task needs another worker
    return os.getpid()


def warm_up_ray(task: Matches, specs: list[Pairing], workers: int) -> None:
    """Start every Ray worker and import the engine there (a worker's first
    task pays its imports): one task per CPU, all at once. Results are pure,
    so this changes nothing measured."""
    import ray

    remote = ray.remote(num_cpus=1)(_warm_up)
    pids = ray.get([remote.remote(task, specs[i:i + 2]) for i in range(workers)])
    if len(set(pids)) != workers:
        print(f"warning: the warm-up reached {len(set(pids))} of {workers} workers", file=sys.stderr)


def bench_games(args: argparse.Namespace, folder: Path) -> bool:
    from genethello.cluster.run.executors import RayExecutor, start_ray

    workers = start_ray(None, args.workers)
    config = {"population": {"size": args.population},
              "games": {"depth": args.depth, "exact_empties": args.exact, "random_plies": 4}}
    print(f"(a) a generation's games: P={args.population} ({args.population * (args.population - 1)} games), "
          f"depth {args.depth}, exact {args.exact}, {workers} workers, {args.rounds} round(s)")
    print(f"{'round':>5} {'games':>6} {'cluster s':>10} {'cluster g/s':>12} {'plain s':>8} {'plain g/s':>10} "
          f"{'ratio':>6}")
    totals = {"games": 0, "cluster": 0.0, "plain": 0.0}
    ratios = []
    for r in range(1, args.rounds + 1):
        cfg = dict(config, seed=r)
        executor = RayExecutor(workers, task_seconds=0.2)
        coordinator = new_coordinator(folder, f"games{r}", cfg, executor)
        specs = generation_specs(coordinator)
        warm_up_ray(generation_task(coordinator), specs, workers)
        if r % 2 == 0:  # every other round the plain loops go first
            plain, nodes_plain = plain_loops(generation_task(coordinator), specs, workers)
        t0 = time.perf_counter()
        assert Generation(coordinator).play(1)
        cluster = time.perf_counter() - t0
        with coordinator.db.engine.connect() as conn:
            nodes_cluster = conn.exec_driver_sql("SELECT sum(nodes) FROM games").scalar()
        close(coordinator)
        if r % 2 == 1:
            plain, nodes_plain = plain_loops(generation_task(coordinator), specs, workers)
        if nodes_plain != nodes_cluster:
            print(f"round {r}: the plain loops searched {nodes_plain} nodes, the cluster {nodes_cluster}: "
                  "not the same games", file=sys.stderr)
            return False
        n = len(specs)
        totals["games"] += n
        totals["cluster"] += cluster
        totals["plain"] += plain
        ratios.append(plain / cluster)
        print(f"{r:>5} {n:>6} {cluster:>10.2f} {n / cluster:>12.1f} {plain:>8.2f} {n / plain:>10.1f} "
              f"{plain / cluster:>6.1%}", flush=True)
    ratio = totals["plain"] / totals["cluster"]
    n = totals["games"]
    print(f"{'all':>5} {n:>6} {totals['cluster']:>10.2f} {n / totals['cluster']:>12.1f} {totals['plain']:>8.2f} "
          f"{n / totals['plain']:>10.1f} {ratio:>6.1%}")
    median = statistics.median(ratios)
    ok = ratio >= GAMES_TARGET
    print(f"cluster / plain loops = {ratio:.1%} over all rounds, median round {median:.1%} "
          f"(target >= {GAMES_TARGET:.0%}): {'met' if ok else 'MISSED'}")
    return ok


# --------------------------------------------------------------------------- #
# (b) ingest


class InstantExecutor:
    """Yields precomputed outcomes for the batches it is handed: the
    coordinator's side of a generation without playing a game."""

    workers = 1

    def __init__(self, outcomes: dict[int, MatchOutcome], batch: int) -> None:
        self.outcomes = outcomes
        self.batch = batch

    def run(self, task, next_batch, should_stop):
        while not should_stop():
            specs = next_batch(self.batch)
            if not specs:
                return
            yield [self.outcomes[s.index] for s in specs]

    def close(self) -> None:
        pass


def bench_ingest(args: argparse.Namespace, folder: Path) -> bool:
    P = args.ingest_population
    coordinator = new_coordinator(folder, "ingest", {"population": {"size": P},
                                                     "cluster": {"commit_every_seconds": args.commit_every}})
    specs = generation_specs(coordinator)
    outcomes = {s.index: MatchOutcome(s.index, (s.index % 65) - 32, 100_000 + s.index, 33, 31, MOVES)
                for s in specs}
    coordinator.executor = InstantExecutor(outcomes, args.batch)
    profile = cProfile.Profile() if args.profile else None
    t0 = time.perf_counter()
    if profile:
        profile.enable()
    complete = Generation(coordinator).play(1)
    if profile:
        profile.disable()
    seconds = time.perf_counter() - t0
    with coordinator.db.engine.connect() as conn:
        stored = conn.exec_driver_sql("SELECT count(*) FROM games").scalar()
        done = conn.exec_driver_sql("SELECT games_done FROM generations").scalar()
    close(coordinator)
    n = len(specs)
    rate = n / seconds
    print(f"(b) ingest: P={P}, {n} instant results in batches of {args.batch}, "
          f"a commit every {args.commit_every:g} s, SQLite {folder / 'ingest.db'}")
    print(f"{'results':>8} {'seconds':>8} {'results/s':>10}")
    print(f"{n:>8} {seconds:>8.2f} {rate:>10,.0f}")
    if not (complete and stored == done == n):
        print(f"ingest stored {stored} games, counted {done}, expected {n}", file=sys.stderr)
        return False
    ok = rate >= INGEST_TARGET
    print(f"ingest rate {rate:,.0f} results/s (target >= {INGEST_TARGET:,.0f}): {'met' if ok else 'MISSED'}")
    if profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(20)
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--population", type=int, default=64, help="players in (a) (P*(P-1) games a round)")
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--exact", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds in (a), a new run each")
    parser.add_argument("--workers", type=int, default=None, help="default: every core")
    parser.add_argument("--ingest-population", type=int, default=352)
    parser.add_argument("--batch", type=int, default=512, help="results per batch in (b)")
    parser.add_argument("--commit-every", type=float, default=1.0, help="seconds between commits in (b)")
    parser.add_argument("--profile", action="store_true", help="cProfile the ingest")
    parser.add_argument("--skip-games", action="store_true")
    parser.add_argument("--skip-ingest", action="store_true")
    parser.add_argument("--keep", type=Path, help="keep the databases in this folder")
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        if not args.skip_ingest:
            ok &= bench_ingest(args, folder)
            print()
        if not args.skip_games:
            import ray

            try:
                ok &= bench_games(args, folder)
            finally:
                ray.shutdown()
    return 0 if ok else 1


if __name__ == "__main__":
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    sys.exit(main())
