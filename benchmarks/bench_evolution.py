#!/usr/bin/env python3
"""Does evolution breed better players? The same budget spent three ways.

Each way is a real run (the coordinator on Ray workers, a SQLite file) of
the same type, population, depth and number of generations — so the same
number of round-robin games — differing only in how the next generation is
made:

  ga-score   the GA as configured by default: parents ranked by the
             generation's own round-robin score;
  ga-elo     the GA with GeneThello's selection: parents ranked by Elo
             carried over from earlier generations;
  random     random search: the elites kept, every other member a fresh
             random chromosome each generation (``breeding.method =
             "random-search"``).

Every run has the same hall of fame (each generation's champion plays the
hall) and the same yardstick, measured on the hall's champion (the best so
far) at generation 1 and every ``--every`` generations: fixed opponents —
by default the pattern-only ``p_1_10`` at the same depth, the square-weights
player and the Othello League measure — with 95% Wilson intervals. Each way
runs with ``--seeds`` seeds. The table printed is the evidence for the
defaults: the champion's score per generation for each way and seed, then
each way's last-generation scores pooled over its seeds.

Usage: python benchmarks/bench_evolution.py [--type fdmxcp] [--population 16]
       [--generations 15] [--depth 4] [--exact 8] [--seeds 3] [--workers N]
       [--hall-games 200] [--games 200] [--league 200] [--every 5]
       [--opponent p_1_10 ...] [--ways ga-score ga-elo random] [--db FILE]

Sized by default to run in about 15 minutes on 2 cores; --population 32
--generations 40 is a larger experiment for a bigger machine.

With ``--networks`` it runs the n-tuple network experiment instead (issue
24), in this process — no database, no Ray — with the loop of
``benchmarks/network_loop.py``: at a fixed budget of fitness games per run,
on one architecture, each method (CMA-ES full and separable, the GA with
Gaussian mutation on real weights, random search) with each fitness
(coevolution: the generation's round robin; fixed: against the WPC
heuristic), ``--seeds`` seeds each, printing the champion's League score
(league-fast-1, 95% interval) every ``--budget / --checkpoints`` games — a
League-against-games curve — then a summary table:

  python benchmarks/bench_evolution.py --networks [--architecture all-2]
       [--methods cma sep-cma ga random] [--fitness fixed coevolution]
       [--budget 1000000] [--checkpoints 10] [--lambda 20] [--seeds 3]
       [--games-per-member 25] [--games-per-pair 2] [--epsilon 0.1]
       [--start-plies 4] [--league 500] [--final-league 10000] [--jobs 1]
       [--save out/best.npy]
"""

from __future__ import annotations

import os

# BLAS on one thread before numpy loads: CMA-ES's eigendecomposition of a 288 x 288
# covariance takes 6 ms on one thread and 100 ms on two of a busy 2-core machine.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")


import argparse  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from sqlalchemy import select  # noqa: E402

from genethello.cluster.db import Database  # noqa: E402
from genethello.cluster.db.models import YardstickResult  # noqa: E402
from genethello.cluster.measures.intervals import MatchScore  # noqa: E402
from genethello.cluster.measures.yardstick import measure  # noqa: E402
from genethello.cluster.run.coordinator import Coordinator, create_run  # noqa: E402
from genethello.cluster.run.executors import RayExecutor, start_ray  # noqa: E402
from genethello.cluster.run.progress import Progress  # noqa: E402
from genethello.cluster.run.run_check import config_from_mapping  # noqa: E402
from genethello.cluster.run.run_store import RunStore  # noqa: E402

WAYS = {
    "ga-score": {"rating": {"selection": "score"}, "breeding": {"method": "ga"}},
    "ga-elo": {"rating": {"selection": "elo"}, "breeding": {"method": "ga"}},
    "random": {"rating": {"selection": "score"}, "breeding": {"method": "random-search"}},
}


def run_config(args: argparse.Namespace, way: str, seed: int) -> dict:
    """The config of one run: everything equal across ways but the breeding."""
    config = {
        "name": f"{way}-{seed}", "seed": seed,
        "population": {"type": args.type, "size": args.population},
        "games": {"depth": args.depth, "exact_empties": args.exact, "random_plies": 4, "tt_bits": 14},
        "breeding": {"elites": 2, "inject_top": 1},
        "stop": {"max_generations": args.generations, "converge_generations": 0},
        "hall": {"games_per_member": args.hall_games},
        "yardstick": {"every": args.every, "games_per_opponent": args.games, "depth": args.depth,
                      "league_double_games": args.league, "opponents": list(args.opponent)},
        "storage": {"keep_moves_generations": 1},
        "cluster": {"task_seconds": 0.2, "commit_every_seconds": 2.0},
    }
    for section, values in WAYS[way].items():
        config.setdefault(section, {}).update(values)
    return config


def yardstick_table(db: Database, run_id: int) -> dict[int, dict[str, MatchScore]]:
    """generation -> opponent -> the champion's W/D/L."""
    found: dict[int, dict[str, MatchScore]] = {}
    with db.session() as s:
        for r in s.scalars(select(YardstickResult).where(YardstickResult.run_id == run_id)):
            found.setdefault(r.generation, {})[r.opponent] = MatchScore(r.wins, r.draws, r.losses)
    return found


def short(score: MatchScore) -> str:
    low, high = score.interval
    return f"{100 * score.score:5.1f} [{100 * low:4.1f},{100 * high:5.1f}]"


# --------------------------------------------------------------------------- #
# --networks: the n-tuple network experiment (in process, benchmarks/network_loop.py)


def _network_run(job: tuple) -> object:
    """One run of the experiment (a pool worker's job): its RunResult, with
    the final League score of its champion appended as the last curve point."""
    import numpy as np
    from network_loop import evolve

    from genethello.core.evaluation.ntuple_shapes import architecture
    from genethello.core.families.networks import Network
    from genethello.core.play.network_league import league_score

    method, fitness, seed, args = job
    save = None
    if args.save is not None:
        path = Path(args.save)
        target = path if args.single_run else path.with_name(f"{path.stem}-{method}-{fitness.kind}-{seed}{path.suffix}")

        def save(result, champion):  # the latest champion's real weights, kept as the run goes
            target.parent.mkdir(parents=True, exist_ok=True)
            np.save(target, champion)

    result = evolve(method, fitness, architecture=args.architecture, population=args.lambda_, budget=args.budget,
                    checkpoints=args.checkpoints, league_double_games=args.league, seed=seed, sigma0=args.sigma0,
                    ga_sigma=args.ga_sigma, report=lambda line: print(line, flush=True), on_checkpoint=save)
    final = league_score(Network(architecture(args.architecture), result.champion), args.final_league, seed=1)
    result.curve.append((result.games, result.generations, final))
    return result


def networks_main(argv: list[str]) -> int:
    """The n-tuple network experiment (module docstring)."""
    import multiprocessing

    from network_loop import METHODS

    from genethello.cluster.fitness.network_fitness import FitnessConfig

    parser = argparse.ArgumentParser(prog="bench_evolution.py --networks",
                                     description="the n-tuple network experiment, in process")
    parser.add_argument("--architecture", default="all-2")
    parser.add_argument("--methods", nargs="+", choices=METHODS, default=list(METHODS))
    parser.add_argument("--fitness", nargs="+", choices=("fixed", "coevolution"), default=["fixed", "coevolution"])
    parser.add_argument("--budget", type=int, default=1_000_000, help="fitness games per run")
    parser.add_argument("--checkpoints", type=int, default=10, help="League measurements per run")
    parser.add_argument("--lambda", dest="lambda_", type=int, default=20, help="population (CMA-ES's lambda)")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--games-per-member", type=int, default=25,
                        help="fixed: double games a member plays against the WPC heuristic a generation")
    parser.add_argument("--games-per-pair", type=int, default=2, help="coevolution: double games a pair")
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--start-plies", type=int, default=4)
    parser.add_argument("--sigma0", type=float, default=1.0)
    parser.add_argument("--ga-sigma", type=float, default=0.1)
    parser.add_argument("--league", type=int, default=500, help="League double games at each checkpoint")
    parser.add_argument("--final-league", type=int, default=10_000, help="League double games of the final champion")
    parser.add_argument("--jobs", type=int, default=1, help="runs played at once (processes)")
    parser.add_argument("--save", type=Path, default=None,
                        help="save each run's latest champion's real weights (.npy; the run's name added "
                             "unless there is one run)")
    args = parser.parse_args(argv)
    fitnesses = {
        "fixed": FitnessConfig("fixed", opponents=("wpc",), games_per_opponent=args.games_per_member,
                               epsilon=args.epsilon, start_plies=args.start_plies),
        "coevolution": FitnessConfig("coevolution", games_per_pair=args.games_per_pair, epsilon=args.epsilon,
                                     start_plies=args.start_plies),
    }
    jobs = [(m, fitnesses[f], seed, args) for seed in range(args.first_seed, args.first_seed + args.seeds)
            for f in args.fitness for m in args.methods]
    args.single_run = len(jobs) == 1
    print(f"bench_evolution --networks: {args.architecture}, lambda {args.lambda_}, budget {args.budget:,} "
          f"fitness games a run, fixed {args.games_per_member} double games a member vs wpc, coevolution "
          f"{args.games_per_pair} double games a pair, epsilon {args.epsilon}, start plies {args.start_plies}; "
          f"League (league-fast-1) {args.league} double games every {args.budget // args.checkpoints:,} games, "
          f"final {args.final_league}; {len(jobs)} runs, {args.jobs} at once", flush=True)
    t0 = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            results = pool.map(_network_run, jobs, chunksize=1)
    else:
        results = [_network_run(job) for job in jobs]
    wall = time.perf_counter() - t0

    step = args.budget // args.checkpoints
    marks = [step * (i + 1) for i in range(args.checkpoints)]
    print(f"\nThe champion's League score (%, 95% Wilson interval, {args.league} double games) against "
          f"fitness games played")
    print(f"{'method':<8} {'fitness':<12} {'seed':>4} " + " ".join(f"{m:>19,}" for m in marks))
    for r in results:
        cells = [short(score) for _, _, score in r.curve[:-1]]
        print(f"{r.method:<8} {r.fitness:<12} {r.seed:>4} " + " ".join(f"{c:>19}" for c in cells))
    print("\nPooled over seeds (W/D/L summed) at each checkpoint")
    print(f"{'method':<8} {'fitness':<12} " + " ".join(f"{m:>19,}" for m in marks))
    groups: dict[tuple[str, str], list] = {}
    for r in results:
        groups.setdefault((r.method, r.fitness), []).append(r)
    for (method, fitness), runs in groups.items():
        cells = []
        for i in range(args.checkpoints):
            scores = [r.curve[i][2] for r in runs if i < len(r.curve) - 1]
            cells.append(short(sum(scores, MatchScore(0, 0, 0))) if scores else "-")
        print(f"{method:<8} {fitness:<12} " + " ".join(f"{c:>19}" for c in cells))
    print(f"\nFinal champions: League {args.final_league} double games each (seed 1), then pooled over seeds")
    print(f"{'method':<8} {'fitness':<12} {'gens':>6} {'s/run':>6} "
          + " ".join(f"{'seed ' + str(s):>19}" for s in range(args.first_seed, args.first_seed + args.seeds))
          + f" {'pooled':>19}")
    for (method, fitness), runs in groups.items():
        finals = [r.curve[-1][2] for r in runs]
        print(f"{method:<8} {fitness:<12} {sum(r.generations for r in runs) / len(runs):6.0f} "
              f"{sum(r.seconds for r in runs) / len(runs):6.0f} " + " ".join(f"{short(f):>19}" for f in finals)
              + f" {short(sum(finals, MatchScore(0, 0, 0))):>19}")
    print(f"\n{len(results)} runs in {wall:.0f} s wall")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--networks" in argv:
        return networks_main([a for a in argv if a != "--networks"])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--type", default="fdmxcp")
    parser.add_argument("--population", type=int, default=16)
    parser.add_argument("--generations", type=int, default=15)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--exact", type=int, default=8)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--hall-games", type=int, default=200)
    parser.add_argument("--games", type=int, default=200, help="yardstick games per opponent (even)")
    parser.add_argument("--league", type=int, default=200, help="League double games (0 = off)")
    parser.add_argument("--every", type=int, default=5)
    parser.add_argument("--opponent", action="append", default=None,
                        help="fixed reference chromosome (repeatable; default p_1_10)")
    parser.add_argument("--ways", nargs="+", choices=list(WAYS), default=list(WAYS))
    parser.add_argument("--db", type=Path, default=None, help="keep the runs in this file (default: a temp file)")
    args = parser.parse_args(argv)
    args.opponent = args.opponent or ["p_1_10"]

    folder = tempfile.TemporaryDirectory(prefix="bench-evolution-")
    db_path = args.db or Path(folder.name) / "bench.db"
    db = Database.open(db_path, create=True)
    workers = start_ray(None, args.workers, private=True)
    executor = RayExecutor(workers, 0.2, 2)
    print(f"bench_evolution: {args.type}, P={args.population}, {args.generations} generations, depth "
          f"{args.depth} (exact {args.exact}), hall {args.hall_games} games an entrant, yardstick "
          f"{args.games} games an opponent + League {args.league} double games, seeds "
          f"{args.first_seed}..{args.first_seed + args.seeds - 1}, {workers} workers; database {db_path}",
          flush=True)
    results: dict[str, dict[int, dict[int, dict[str, MatchScore]]]] = {}
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        for way in args.ways:
            t0 = time.perf_counter()
            run_id = create_run(db, config_from_mapping(run_config(args, way, seed)))
            Coordinator(db, run_id, executor, Progress(enabled=False), yardstick=measure).run()
            results.setdefault(way, {})[seed] = table = yardstick_table(db, run_id)
            hall = RunStore(db, run_id).hall_ranked(1)[0]
            last = table[max(table)]
            print(f"  {way:<9} seed {seed}: {time.perf_counter() - t0:6.1f} s; champion {hall.text} "
                  f"(hall {hall.rating:+.0f} ± {hall.stderr:.0f}); last yardstick "
                  + ", ".join(f"{o} {short(s)}" for o, s in last.items()), flush=True)

    opponents = [*args.opponent, "square-weights", "othello-league"]
    print()
    print("The hall champion's score (%, 95% Wilson interval) per measured generation")
    for opponent in opponents:
        print(f"\nvs {opponent}")
        gens = sorted({g for way in results.values() for t in way.values() for g in t})
        print(f"{'way':<9} {'seed':>4} " + " ".join(f"{'gen ' + str(g):>19}" for g in gens))
        for way, by_seed in results.items():
            for seed, table in by_seed.items():
                cells = [short(table[g][opponent]) if g in table and opponent in table[g] else "-" for g in gens]
                print(f"{way:<9} {seed:>4} " + " ".join(f"{c:>19}" for c in cells))
    print("\nLast generation, pooled over seeds (W/D/L summed): score [95%]")
    print(f"{'way':<9} " + " ".join(f"{o[:24]:>26}" for o in opponents))
    for way, by_seed in results.items():
        cells = []
        for opponent in opponents:
            pooled = MatchScore(0, 0, 0)
            for table in by_seed.values():
                s = table[max(table)].get(opponent)
                if s is not None:
                    pooled = MatchScore(pooled.wins + s.wins, pooled.draws + s.draws, pooled.losses + s.losses)
            cells.append(short(pooled) if pooled.games else "-")
        print(f"{way:<9} " + " ".join(f"{c:>26}" for c in cells))
    db.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
