"""Measure the strength panel's anchored ratings (run once, result shipped).

    python -m genethello.cluster.cli.panel_anchors --depth 4 --games 400 \\
        --engine 'gtp-rhino -l 1' --engine 'gtp-rhino -l 3' --engine-games 200

plays a round robin among the panel's built-in players (every pair the same
``games / 2`` openings with both colours, all at ``--depth`` and
``--exact``), each named engine against every built-in player
(``--engine-games`` each), and rates them all in one Bradley–Terry fit
(:func:`~genethello.cluster.fitness.tournament_rating.fit_bradley_terry`),
Elo relative to ``p_1_10`` = 0. The table replaces the one of the same
depth and exact in ``--out`` (default: the shipped
``cluster/measures/data/panel-anchors.json``), which keeps every pair's
results and the command line, so a table can be checked by playing it
again. The openings are drawn by their own seed (1000 by default), apart
from the ``panel`` command's (1 by default).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from genethello.cluster.cli.quiet_ray import executor_for
from genethello.cluster.fitness.matches import Pairing
from genethello.cluster.fitness.tournament_rating import fit_bradley_terry
from genethello.cluster.measures.compare import compare_schedule
from genethello.cluster.measures.panel import (
    ANCHORS_FILE,
    DEFAULT_MEMBERS,
    engine_key,
    panel_openings,
    panel_schedule,
)
from genethello.cluster.measures.panel_games import entrant, play_engine, play_specs
from genethello.core.families.individual_names import resolve_individual
from genethello.core.play.openings import DEFAULT_SET
from genethello.core.play.scoring import points_from_margin

#: The player every anchored rating is relative to.
ANCHOR = "p_1_10"

MODEL = "Bradley-Terry, draws half, Elo relative to p_1_10 = 0, stderr of the difference to it"


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m genethello.cluster.cli.panel_anchors",
                                description="Play the panel's round robin and store its anchored ratings.")
    p.add_argument("--depth", type=int, default=4)
    p.add_argument("--exact", type=int, default=8)
    p.add_argument("--games", type=int, default=400, help="games a pair of built-in players")
    p.add_argument("--engine", action="append", default=[], metavar="COMMAND")
    p.add_argument("--engine-games", type=int, default=200, help="games of an engine against each player")
    p.add_argument("--openings", default=DEFAULT_SET)
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", type=Path, default=ANCHORS_FILE)
    return p.parse_args(argv)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """The anchor table of one depth and exact limit, as stored."""
    names = list(DEFAULT_MEMBERS)
    players = [entrant(resolve_individual(name), args.depth, args.exact) for name in names]
    openings = panel_openings(args.openings, args.seed, args.games)
    schedule = compare_schedule(len(names), args.games)
    specs = [Pairing(p.game_index, p.black, p.white, openings[p.opening]) for p in schedule]
    executor = executor_for(args.workers, None)
    t0 = time.perf_counter()
    try:
        margins = play_specs(executor, players, specs)
    finally:
        executor.close()
    assert margins is not None
    games: list[tuple[str, str, float]] = [(names[p.black], names[p.white], points_from_margin(m))
                                           for p, m in zip(schedule, margins, strict=True)]
    engine_openings = panel_openings(args.openings, args.seed + 1, args.engine_games)
    for command in args.engine:
        key = engine_key(command)
        for name in DEFAULT_MEMBERS:            # an engine plays the players, not the other engines
            print(f"{key} against {name} ...", file=sys.stderr, flush=True)
            member = resolve_individual(name)
            for m in play_engine(member, command, args.depth, args.exact, panel_schedule(1, engine_openings)):
                games.append((name, key, points_from_margin(m)))
        names.append(key)
    fit = fit_bradley_terry(names, games, anchor=ANCHOR)
    pairs: dict[tuple[str, str], list[float]] = {}
    for a, b, score in games:
        first, second = sorted((a, b), key=names.index)
        tally = pairs.setdefault((first, second), [0, 0.0])
        tally[0] += 1
        tally[1] += score if a == first else 1 - score
    command = shlex.join(["python", "-m", "genethello.cluster.cli.panel_anchors", "--depth", str(args.depth),
                          "--exact", str(args.exact), "--games", str(args.games), "--openings", args.openings,
                          "--seed", str(args.seed), *[w for e in args.engine for w in ("--engine", e)],
                          "--engine-games", str(args.engine_games)])
    print(f"played {len(games)} games in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return {
        "depth": args.depth, "exact": args.exact, "model": MODEL, "anchor": ANCHOR,
        "games_per_pair": args.games, "engine_games": args.engine_games, "openings": args.openings,
        "seed": args.seed, "command": command,
        "ratings": {name: {"rating": round(fit[name].rating, 1), "stderr": round(fit[name].stderr, 1),
                           "games": fit[name].games, "score": fit[name].score} for name in names},
        "pairs": [{"a": a, "b": b, "games": n, "a_points": points} for (a, b), (n, points) in pairs.items()],
    }


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    table = measure(args)
    document: dict[str, Any] = {"about": "the strength panel's anchored ratings (genethello panel); "
                                         "written by python -m genethello.cluster.cli.panel_anchors",
                                "tables": []}
    if args.out.is_file():
        document = json.loads(args.out.read_text(encoding="utf-8"))
    document["tables"] = sorted([t for t in document["tables"]
                                 if (t["depth"], t["exact"]) != (args.depth, args.exact)] + [table],
                                key=lambda t: (t["depth"], t["exact"]))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    for name, value in table["ratings"].items():
        print(f"{name:<24} {value['rating']:+7.1f} ± {value['stderr']:5.1f}  ({value['games']} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
