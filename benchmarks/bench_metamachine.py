#!/usr/bin/env python3
"""Benchmark the metamachine: games against its bare oracle, and what parallel
scoring buys in time per move.

Strength: ``genethello metamachine --top N -- genethello gtp --depth D``
against the bare ``genethello gtp --depth D`` (same chromosome, same depth),
through the referee (genethello.core.gtp.referee), which checks every move.
Games come in pairs with the same seeded random opening
(genethello.core.engine.game.random_opening, ``--plies`` moves) and the colours
swapped. The metamachine tries the oracle's top N moves and scores each with
a depth-D search after the move: one ply deeper than the oracle on those
moves. Reported: its points (win 1, draw 1/2), average disc margin (WOF), and
each side's seconds per genmove.

Speed: the first ``--timing-games`` pairs are played again by metamachines
with ``--workers 0`` (one oracle process scores everything) and ``--workers
K`` (K extra oracle processes score shares of the candidates in parallel);
reported: seconds per genmove for each, and the speed-up.

Usage: python benchmarks/bench_metamachine.py [--games N] [--depth D] [--top N] [--workers K]
The issue's evidence run is the default, 100 games.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time

from genethello.core.engine.board import Board
from genethello.core.engine.game import random_opening
from genethello.core.engine.squares import PASS
from genethello.core.families.chromosome import Chromosome
from genethello.core.gtp.client import GtpProcess
from genethello.core.gtp.referee import Referee

PLAYER = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"
CLI = [sys.executable, "-m", "genethello.cluster.cli.main"]


def oracle_argv(args, depth: int) -> list[str]:
    return CLI + ["gtp", "--player", args.player, "--depth", str(depth), "--exact", str(args.exact)]


def metamachine_argv(args, depth: int, workers: int, debug: bool = False) -> list[str]:
    return (CLI + ["metamachine", "--top", str(args.top), "--workers", str(workers)]
            + (["--debug"] if debug else []) + ["--"] + oracle_argv(args, depth))


def phase_seconds(log_text: str) -> tuple[float, float]:
    """Total (top_moves, scoring) seconds from a --debug log."""
    top = scoring = 0.0
    for m in re.finditer(r"top_moves ([0-9.]+) s, scoring ([0-9.]+) s", log_text):
        top += float(m.group(1))
        scoring += float(m.group(2))
    return top, scoring


def play_pairs(meta: GtpProcess, bare: GtpProcess, openings, errors: list) -> list:
    """[(metamachine's colour, game)] for each opening, both colours."""
    out = []
    for opening in openings:
        for meta_color in ("black", "white"):
            black, white = (meta, bare) if meta_color == "black" else (bare, meta)
            game = Referee(black, white, move_timeout=600).play(opening)
            errors.extend(game.errors)
            out.append((meta_color, game))
    return out


def genmoves(game, color: str, opening_len: int) -> int:
    """Moves ``color`` chose itself (the opening and passes excluded)."""
    board = Board()
    count = 0
    for i, move in enumerate(game.moves):
        mover = board.side_to_move
        board.play(move)
        if i >= opening_len and move != PASS and mover == color:
            count += 1
    return count


def meta_margin(meta_color: str, game):
    """The metamachine's final disc margin, None for an unfinished game."""
    if game.score is None:
        return None
    return game.score if meta_color == "black" else -game.score


def points_of(margins) -> float:
    return sum(1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in margins)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games (default 100; rounded up to even)")
    parser.add_argument("--depth", type=int, default=8, help="the oracle's and the bare engine's depth (default 8)")
    parser.add_argument("--top", type=int, default=3, help="candidates the metamachine tries (default 3)")
    parser.add_argument("--exact", type=int, default=12, help="solve exactly at E empties (default 12)")
    parser.add_argument("--player", default=PLAYER, help=f"chromosome of both engines (default {PLAYER})")
    parser.add_argument("--plies", type=int, default=4, help="random opening plies (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the openings (default 0)")
    parser.add_argument("--workers", type=int, default=max(1, min(3, (os.cpu_count() or 2) - 1)),
                        help="extra oracle processes for the parallel timing (default: cores-1, 1..3)")
    parser.add_argument("--timing-depth", type=int, default=10,
                        help="depth of the timing games (default 10: deep enough for the searches to "
                             "outweigh the pipes)")
    parser.add_argument("--timing-games", type=int, default=2,
                        help="opening pairs replayed for the timing (default 2; 0: skip)")
    args = parser.parse_args()
    if args.games < 1 or args.depth < 1 or args.top < 1 or args.workers < 1:
        parser.error("--games, --depth, --top and --workers must be positive")
    Chromosome.parse(args.player)
    pairs = (args.games + 1) // 2
    openings = [random_opening(args.plies, args.seed * 100003 + i) for i in range(pairs)]
    print(f"bench_metamachine: {2 * pairs} games, metamachine --top {args.top} over genethello gtp --depth "
          f"{args.depth} --exact {args.exact} vs the bare oracle at the same depth; player {args.player}; "
          f"openings: {args.plies} random plies, seed {args.seed}, both colours; {os.cpu_count()} cores",
          flush=True)

    errors: list[str] = []
    t0 = time.monotonic()
    with GtpProcess(metamachine_argv(args, args.depth, 0), name="metamachine", timeout=600) as meta, \
            GtpProcess(oracle_argv(args, args.depth), name="oracle", timeout=600) as bare:
        results = []
        for i, opening in enumerate(openings):
            results += play_pairs(meta, bare, [opening], errors)
            if (i + 1) % 10 == 0:
                done = [m for m in (meta_margin(c, g) for c, g in results) if m is not None]
                print(f"  {len(done)} games: metamachine {points_of(done):.1f} points", flush=True)
    wall = time.monotonic() - t0

    points = 0.0
    margins = []
    wins = draws = losses = 0
    seconds = {"meta": 0.0, "bare": 0.0}
    moves = {"meta": 0, "bare": 0}
    for meta_color, game in results:
        margin = meta_margin(meta_color, game)
        if margin is None:
            continue
        margins.append(margin)
        if margin > 0:
            wins += 1
            points += 1
        elif margin == 0:
            draws += 1
            points += 0.5
        else:
            losses += 1
        bare_color = "white" if meta_color == "black" else "black"
        seconds["meta"] += game.seconds[meta_color]
        seconds["bare"] += game.seconds[bare_color]
        moves["meta"] += genmoves(game, meta_color, len(openings[0]))
        moves["bare"] += genmoves(game, bare_color, len(openings[0]))
    n = len(margins)
    print(f"games: {n} finished of {len(results)}, protocol errors: {len(errors)}, wall {wall:.1f} s")
    if n:
        print(f"metamachine vs bare oracle: +{wins} ={draws} -{losses}, {points:.1f}/{n} points "
              f"({100 * points / n:.1f} %), average margin {sum(margins) / n:+.2f} discs")
        print(f"seconds per genmove: metamachine {seconds['meta'] / max(1, moves['meta']):.4f}, "
              f"bare oracle {seconds['bare'] / max(1, moves['bare']):.4f}")
    for e in errors[:5]:
        print(f"  error: {e}")

    if args.timing_games > 0:
        timing_openings = openings[: args.timing_games]
        print(f"timing: {2 * len(timing_openings)} games at depth {args.timing_depth}, metamachines with 1 and "
              f"{args.workers + 1} oracle processes", flush=True)
        per_move = {}
        chosen = {}
        for workers in (0, args.workers):
            with tempfile.TemporaryFile("w+") as log:
                with GtpProcess(metamachine_argv(args, args.timing_depth, workers, debug=True),
                                name=f"metamachine-w{workers}", stderr=log, timeout=600) as meta, \
                        GtpProcess(oracle_argv(args, args.timing_depth), name="oracle", timeout=600) as bare:
                    games = play_pairs(meta, bare, timing_openings, errors)
                log.seek(0)
                top, scoring = phase_seconds(log.read())
            secs = sum(g.seconds[c] for c, g in games)
            count = sum(genmoves(g, c, len(timing_openings[0])) for c, g in games)
            per_move[workers] = secs / max(1, count)
            chosen[workers] = [g.move_list() for _, g in games]
            print(f"  {workers + 1} oracle process{'es' if workers else ''}: {per_move[workers]:.4f} s per "
                  f"genmove over {count} genmoves (of which top_moves on the main oracle "
                  f"{top / max(1, count):.4f} s, scoring the candidates {scoring / max(1, count):.4f} s)",
                  flush=True)
        same = chosen[0] == chosen[args.workers]
        print(f"  speed-up with {args.workers + 1} processes: {per_move[0] / per_move[args.workers]:.2f}x; "
              f"same games as serial: {same}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
