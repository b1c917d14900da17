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
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import select

from genethello.cluster.config import config_from_mapping
from genethello.cluster.coordinator import Coordinator, create_run
from genethello.cluster.db import Database
from genethello.cluster.db.models import YardstickResult
from genethello.cluster.executors import RayExecutor, start_ray
from genethello.cluster.intervals import MatchScore
from genethello.cluster.progress import Progress
from genethello.cluster.run_store import RunStore
from genethello.cluster.yardstick import measure

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


def main(argv: list[str] | None = None) -> int:
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
