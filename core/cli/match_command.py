"""The ``match`` command: two chromosomes play each other with both colours,
or a chromosome plays an external GTP engine (``--gtp``), and the score is
printed with its W/D/L and 95% interval."""

from __future__ import annotations

import argparse
import time

from genethello.core.chromosome import Chromosome
from genethello.core.cli.arguments import add_patterns_option, patterns_note, positive_float, positive_int
from genethello.core.evaluation import Evaluator
from genethello.core.game import Engine, play_game, random_opening
from genethello.core.scoring import MatchScore


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("match", help="two chromosomes (or one and a GTP engine) play each other with both colours")
    p.add_argument("a", help="chromosome TYPE_BIRTH_GENES or a database id")
    p.add_argument("b", nargs="?", help="chromosome TYPE_BIRTH_GENES or a database id (or --gtp)")
    p.add_argument("--gtp", metavar="COMMAND",
                   help="B is this GTP engine, e.g. 'gtp-rhino -l 3' (A searches to --depth)")
    limit = p.add_mutually_exclusive_group(required=True)
    limit.add_argument("--depth", type=positive_int)
    limit.add_argument("--time", type=positive_float, help="seconds per player per game")
    p.add_argument("--games", type=positive_int, default=2, metavar="K", help="games (even: both colours)")
    p.add_argument("--exact", type=int, default=8, metavar="E")
    p.add_argument("--random-plies", type=int, default=0, metavar="R")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--db", help="database for players given by id")
    add_patterns_option(p)
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


def summary(score: MatchScore) -> str:
    """'A scores 61.0% [56.1%, 65.7%] 95% (W/D/L 240/8/152)': A's score with
    its 95% Wilson interval."""
    low, high = score.interval
    return (f"A scores {score.score:.1%} [{low:.1%}, {high:.1%}] 95% "
            f"(W/D/L {score.wins}/{score.draws}/{score.losses})")


def run_gtp_match(args: argparse.Namespace) -> int:
    """A (at --depth) against an external GTP engine, openings seeded by
    --seed, each with both colours."""
    from genethello.core.players import ChromosomePlayer, GtpPlayer, play

    if args.b is not None:
        raise ValueError("give either B or --gtp, not both")
    if args.depth is None:
        raise ValueError("--gtp needs --depth (the engine keeps its own time)")
    a = resolve_player(args.a, args)
    me = ChromosomePlayer(a, args.depth, args.exact, patterns=args.patterns)
    engine = GtpPlayer(args.gtp)
    score = MatchScore()
    t0 = time.perf_counter()
    try:
        for game in range(args.games):
            opening = random_opening(args.random_plies, f"{args.seed}/{game // 2}")
            a_black = game % 2 == 0
            margin = play(me, engine, opening, game) if a_black else -play(engine, me, opening, game)
            score = score.add(margin)
            print(f"game {game + 1}: A {'black' if a_black else 'white'}: margin {margin:+d} for A", flush=True)
    finally:
        engine.close()
    print(f"A = {a} (depth {args.depth}, exact {args.exact}{patterns_note(me.searcher.evaluator)})\nB = {args.gtp}\n"
          f"{summary(score)} ({args.games} games in {time.perf_counter() - t0:.1f} s)")
    return 0


def run_match(args: argparse.Namespace) -> int:
    if args.gtp is not None:
        return run_gtp_match(args)
    if args.b is None:
        raise ValueError("give B (a chromosome or database id) or --gtp COMMAND")
    a, b = resolve_player(args.a, args), resolve_player(args.b, args)
    limits = {"depth": args.depth, "time": args.time, "exact_empties": args.exact}
    ea = Engine(Evaluator.from_chromosome(a, args.patterns), **limits)
    eb = Engine(Evaluator.from_chromosome(b, args.patterns), **limits)
    score = MatchScore()
    t0 = time.perf_counter()
    for game in range(args.games):
        opening = random_opening(args.random_plies, f"{args.seed}/{game // 2}")
        a_black = game % 2 == 0
        result = play_game(ea, eb, opening) if a_black else play_game(eb, ea, opening)
        a_points = result.black_points if a_black else 1.0 - result.black_points
        score = score.add(result.score if a_black else -result.score)
        print(f"game {game + 1}: {'A' if a_black else 'B'} black: {result.move_list()} "
              f"{result.black_discs}-{result.white_discs}; A scores {a_points:g}", flush=True)
    print(f"A = {a}{patterns_note(ea.evaluator)}\nB = {b}{patterns_note(eb.evaluator)}\n"
          f"A {score.points:g} - {args.games - score.points:g} B "
          f"({args.games} games in {time.perf_counter() - t0:.1f} s)\n{summary(score)}")
    return 0
