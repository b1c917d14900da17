"""The ``match`` command: two chromosomes play each other with both colours."""

from __future__ import annotations

import argparse
import time

from genethello.core.chromosome import Chromosome
from genethello.core.cli.arguments import positive_float, positive_int
from genethello.core.game import Engine, play_game, random_opening


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("match", help="two chromosomes play each other with both colours")
    p.add_argument("a", help="chromosome TYPE_BIRTH_GENES or a database id")
    p.add_argument("b", help="chromosome TYPE_BIRTH_GENES or a database id")
    limit = p.add_mutually_exclusive_group(required=True)
    limit.add_argument("--depth", type=positive_int)
    limit.add_argument("--time", type=positive_float, help="seconds per player per game")
    p.add_argument("--games", type=positive_int, default=2, metavar="K", help="games (even: both colours)")
    p.add_argument("--exact", type=int, default=8, metavar="E")
    p.add_argument("--random-plies", type=int, default=0, metavar="R")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--db", help="database for players given by id")
    p.set_defaults(handler=run_match)


def resolve_player(text: str, args: argparse.Namespace) -> Chromosome:
    """A chromosome string, or a database id with --db (looked up by the
    entry point's ``args.player_from_database``: core has no database)."""
    if text.isdigit():
        if not args.db:
            raise ValueError(f"player {text} looks like a database id: give --db")
        lookup = getattr(args, "player_from_database", None)
        if lookup is None:
            raise ValueError("players by database id need genethello's cluster part "
                             "(run this through the genethello command)")
        return Chromosome.parse(lookup(args.db, int(text)))
    return Chromosome.parse(text)


def run_match(args: argparse.Namespace) -> int:
    a, b = resolve_player(args.a, args), resolve_player(args.b, args)
    limits = {"depth": args.depth, "time": args.time, "exact_empties": args.exact}
    ea, eb = Engine(a, **limits), Engine(b, **limits)
    points = 0.0
    t0 = time.perf_counter()
    for game in range(args.games):
        opening = random_opening(args.random_plies, f"{args.seed}/{game // 2}")
        a_black = game % 2 == 0
        result = play_game(ea, eb, opening) if a_black else play_game(eb, ea, opening)
        a_points = result.black_points if a_black else 1.0 - result.black_points
        points += a_points
        print(f"game {game + 1}: {'A' if a_black else 'B'} black: {result.move_list()} "
              f"{result.black_discs}-{result.white_discs}; A scores {a_points:g}", flush=True)
    print(f"A = {a}\nB = {b}\nA {points:g} - {args.games - points:g} B "
          f"({args.games} games in {time.perf_counter() - t0:.1f} s)")
    return 0
