#!/usr/bin/env python3
"""Benchmark pondering: timed games of ``genethello gtp --ponder`` against the
same player without pondering.

What it measures: both engines play the same chromosome (default GeneThello's
oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3) under the same clock (``--time`` seconds
per side for the whole game, default 5; absolute time, with ``time_left``
before every move), through the referee (genethello.core.gtp.referee), which
checks every move. Each engine is pinned to its own core with ``taskset``
when there are two cores and taskset is installed, so the ponderer thinks on
its own core while the other engine thinks on the other. Games come in pairs
with the same seeded random opening (``--plies``, default 4) and the colours
swapped. Reported:

* each side's average depth reached on its midgame moves (plies of the
  deepest completed iteration; moves solved exactly are counted apart),
* the pondering side's score: points (win 1, draw 1/2) and average disc
  margin (WOF),
* ponder hits, misses and the time saved (``genethello-ponder_stats``),
* protocol errors and losses on time (the script exits 1 if there are any).

Usage: python benchmarks/bench_ponder.py [--games N] [--time S] [--player CHROM]
The issue's evidence run is the default: 50 games at 5 s per side
(about 10 minutes).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time

from genethello.core.engine.game import random_opening
from genethello.core.families.chromosome import Chromosome
from genethello.core.gtp.client import GtpProcess
from genethello.core.gtp.referee import Referee

PLAYER = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"


def stats(engine: GtpProcess, command: str) -> dict:
    r = engine.send(command)
    if not r.ok or r.text == "off":
        return {}
    words = r.text.split()
    out = {}
    for key, value in zip(words[::2], words[1::2]):
        try:
            out[key] = float(value)
        except ValueError:
            out[key] = value
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50, help="games (default 50; rounded up to even)")
    parser.add_argument("--time", type=int, default=5, help="seconds per side per game (default 5)")
    parser.add_argument("--player", default=PLAYER, help=f"chromosome of both engines (default {PLAYER})")
    parser.add_argument("--exact", type=int, default=14, help="solve exactly at E empties (default 14)")
    parser.add_argument("--plies", type=int, default=4, help="random opening plies (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the openings (default 0)")
    args = parser.parse_args()
    if args.games < 1 or args.time < 1:
        parser.error("--games and --time must be positive")
    Chromosome.parse(args.player)
    games = args.games + args.games % 2

    pin = (os.cpu_count() or 1) >= 2 and shutil.which("taskset") is not None
    base = [sys.executable, "-m", "genethello.cluster.cli.main", "gtp", "--player", args.player,
            "--time", str(args.time), "--exact", str(args.exact)]
    print(f"bench_ponder: {games} games, {args.time} s per side, player {args.player}, exact {args.exact}, "
          f"{'each engine pinned to its own core (taskset -c 0 / -c 1)' if pin else 'NOT pinned'}",
          flush=True)

    points = 0.0
    margin_sum = 0
    errors: list[str] = []
    time_losses = {"ponder": 0, "plain": 0}
    t_start = time.monotonic()
    with GtpProcess(base + ["--ponder"], name="ponder", cpu=0 if pin else None) as ponder, \
            GtpProcess(base, name="plain", cpu=1 if pin else None) as plain:
        before = {"ponder": stats(ponder, "genethello-search_stats"),
                  "plain": stats(plain, "genethello-search_stats")}
        for index in range(games):
            opening = random_opening(args.plies, f"{args.seed}/{index // 2}")
            ponder_black = index % 2 == 0
            black, white = (ponder, plain) if ponder_black else (plain, ponder)
            game = Referee(black, white, time_per_side=args.time).play(opening)
            after = {"ponder": stats(ponder, "genethello-search_stats"),
                     "plain": stats(plain, "genethello-search_stats")}
            depth = {}
            for side in ("ponder", "plain"):
                moves = after[side]["midgame_moves"] - before[side]["midgame_moves"]
                total = after[side]["depth_sum"] - before[side]["depth_sum"]
                depth[side] = total / moves if moves else 0.0
            before = after
            if game.errors:
                errors += [f"game {index + 1}: {e}" for e in game.errors]
            if game.time_loss is not None:
                loser = "ponder" if (game.time_loss == "black") == ponder_black else "plain"
                time_losses[loser] += 1
            score = game.score
            if score is None:
                print(f"game {index + 1}: protocol error: {game.errors}", flush=True)
                continue
            margin = score if ponder_black else -score
            margin_sum += margin
            points += 1.0 if margin > 0 else (0.5 if margin == 0 else 0.0)
            ps = stats(ponder, "genethello-ponder_stats")
            print(f"game {index + 1:>3}: ponder {'black' if ponder_black else 'white'} "
                  f"{margin:+3d}  depth ponder {depth['ponder']:5.2f} plain {depth['plain']:5.2f}  "
                  f"clock used ponder {game.seconds['black' if ponder_black else 'white']:.2f} s "
                  f"plain {game.seconds['white' if ponder_black else 'black']:.2f} s  "
                  f"hits {int(ps.get('hits', 0))} misses {int(ps.get('misses', 0))}"
                  f"{'  time loss: ' + game.time_loss if game.time_loss else ''}", flush=True)
        final = {"ponder": stats(ponder, "genethello-search_stats"),
                 "plain": stats(plain, "genethello-search_stats")}
        ps = stats(ponder, "genethello-ponder_stats")

    played = games - len({e.split(":")[0] for e in errors})
    print()
    print(f"{games} games in {time.monotonic() - t_start:.0f} s")
    for side in ("ponder", "plain"):
        f = final[side]
        avg = f["depth_sum"] / f["midgame_moves"] if f["midgame_moves"] else 0.0
        print(f"{side:>6}: average depth {avg:.2f} over {int(f['midgame_moves'])} midgame moves, "
              f"{int(f['exact_moves'])} moves solved exactly, {f['seconds']:.1f} s searched")
    hits, misses = int(ps.get("hits", 0)), int(ps.get("misses", 0))
    rate = hits / (hits + misses) if hits + misses else 0.0
    print(f"ponder: hits {hits}, misses {misses} (hit rate {rate:.0%}), cancelled {int(ps.get('cancelled', 0))}, "
          f"time saved {ps.get('saved', 0.0):.1f} s, pondered {ps.get('ponder', 0.0):.1f} s")
    if played:
        print(f"pondering side scored {points:g}/{played} ({points / played:.1%}), "
              f"average margin {margin_sum / played:+.2f} discs")
    print(f"protocol errors: {len(errors)}; losses on time: ponder {time_losses['ponder']}, "
          f"plain {time_losses['plain']}")
    for e in errors:
        print("  " + e)
    return 1 if errors or any(time_losses.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
