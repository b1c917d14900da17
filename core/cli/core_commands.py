"""Commands about one game and one engine: perft, solve, selfplay."""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

from genethello.core import BLACK, WHITE, BadPositionError, Board, parse_square, square_name
from genethello.core.cli.arguments import (
    MAX_PLIES,
    MAX_TT_BITS,
    PLAYER_HELP,
    add_db_option,
    add_game_options,
    add_patterns_option,
    check_range,
    patterns_note,
    positive_int,
)
from genethello.core.cli.context import CommandContext, takes_context
from genethello.core.engine.game import Engine, play_game
from genethello.core.engine.perft import perft
from genethello.core.engine.search import Searcher
from genethello.core.evaluation.evaluation import Evaluator
from genethello.core.families.registry import evaluator_of
from genethello.core.frontend import defaults
from genethello.core.frontend.errors import UserError
from genethello.core.frontend.user_files import read_user_file, user_text
from genethello.core.frontend.wording import counted, duration, game_line, rate
from genethello.core.play.openings import TooFewOpeningsError, distinct_openings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("perft", help="count positions 1..N plies from the start")
    p.add_argument("depth", type=positive_int, help=f"deepest ply to count (1..{MAX_PLIES})")
    p.set_defaults(handler=run_perft)

    p = sub.add_parser("solve", help="solve OBF positions exactly and check their scores")
    p.add_argument("file", type=Path, help="OBF file: one position per line, optional 'MOVE:SCORE;' list")
    p.add_argument("--first", type=positive_int, metavar="K", help="only the first K positions")
    p.add_argument("--tt-bits", type=int, default=22, metavar="B",
                   help=f"log2 transposition-table buckets, 0..{MAX_TT_BITS} (default: 22, larger than the "
                        f"engines' {defaults.TT_BITS}: a solve fills the table)")
    p.set_defaults(handler=run_solve)

    p = sub.add_parser("selfplay", help="play games between two chromosomes",
                       description="BLACK plays WHITE, each game from its own random opening (no two alike).")
    p.add_argument("--black", required=True, metavar="PLAYER", help=f"Black: {PLAYER_HELP}")
    p.add_argument("--white", required=True, metavar="PLAYER", help=f"White: {PLAYER_HELP}")
    add_game_options(p, "games", "random opening plies per game")
    add_db_option(p)
    add_patterns_option(p)
    p.set_defaults(handler=takes_context(run_selfplay))


def run_perft(args: argparse.Namespace) -> int:
    check_range("depth", args.depth, 1, MAX_PLIES)
    board = Board()
    print(f"{'depth':>5} {'nodes':>14} {'seconds':>9} {'nodes/s':>12}")
    for depth in range(1, args.depth + 1):
        t0 = time.perf_counter()
        nodes = perft(board, depth)
        dt = time.perf_counter() - t0
        rate = f"{nodes / dt:12.3e}" if dt > 0 else f"{'-':>12}"
        print(f"{depth:>5} {nodes:>14} {dt:>9.3f} {rate}", flush=True)
    return 0


#: The largest positions file ``solve`` reads (an OBF line is under 100 bytes).
MAX_POSITIONS_BYTES = 16 * 1024 * 1024


def parse_obf_scores(line: str) -> dict[int, int]:
    """The 'MOVE:SCORE;' entries after the side to move, as {square: score}."""
    scores: dict[int, int] = {}
    for entry in line.split(";")[1:]:
        entry = entry.strip()
        if not entry:
            continue
        move, sep, score = entry.partition(":")
        if not sep:
            raise BadPositionError(f"score entry {entry!r} is not MOVE:SCORE")
        try:
            scores[parse_square(move)] = int(score)
        except ValueError:
            raise BadPositionError(f"score entry {entry!r} is not MOVE:SCORE") from None
    return scores


def run_solve(args: argparse.Namespace) -> int:
    check_range("--tt-bits", args.tt_bits, 0, MAX_TT_BITS)
    text = user_text(read_user_file(args.file, "positions file", MAX_POSITIONS_BYTES), str(args.file))
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if args.first:
        lines = lines[: args.first]
    searcher = Searcher(Evaluator(), tt_bits=args.tt_bits)
    wrong = 0
    total_nodes = 0
    total_time = 0.0
    print(f"{'#':>3} {'empties':>7} {'move':>4} {'score':>5} {'expect':>6} {'nodes':>12} {'seconds':>8} "
          f"{'nodes/s':>10}")
    for index, (line_no, line) in enumerate(lines, start=1):
        try:
            board = Board.from_obf(line)
            scores = parse_obf_scores(line)
        except ValueError as exc:
            raise BadPositionError(f"{args.file}:{line_no}: {exc}") from None
        searcher.clear()
        r = searcher.solve(board)
        expect = max(scores.values()) if scores else None
        mark = ""
        if expect is not None and r.value != expect:
            wrong += 1
            mark = "  WRONG"
        move = square_name(r.move) if r.move is not None else "-"
        print(f"{index:>3} {board.empties:>7} {move:>4} {r.value:>+5} "
              f"{f'{expect:+d}' if expect is not None else '-':>6} {r.nodes:>12} {r.seconds:>8.3f} "
              f"{r.nodes_per_second:>10.3g}{mark}", flush=True)
        total_nodes += r.nodes
        total_time += r.seconds
    rate = total_nodes / total_time if total_time > 0 else 0.0
    print(f"total: {len(lines)} positions, {total_nodes} nodes, {total_time:.3f} s, {rate:.3g} nodes/s, {wrong} wrong")
    return 1 if wrong else 0


def run_selfplay(args: argparse.Namespace, context: CommandContext) -> int:
    black = context.individual(args.black, args.db)
    white = context.individual(args.white, args.db)
    if args.depth is not None:
        check_range("--depth", args.depth, 1, MAX_PLIES)
    if args.time is not None and not math.isfinite(args.time):
        raise UserError(f"--time must be a finite number of seconds, got {args.time}")
    check_range("--exact", args.exact, 0, MAX_PLIES)
    check_range("--random-plies", args.random_plies, 0, MAX_PLIES)
    limits = {"depth": args.depth, "time": args.time, "exact_empties": args.exact}
    black_engine = Engine(evaluator_of(black, args.patterns), **limits)
    white_engine = Engine(evaluator_of(white, args.patterns), **limits)
    for colour, engine in ((BLACK, black_engine), (WHITE, white_engine)):
        note = patterns_note(engine.evaluator)
        if note:
            print(f"{colour}: {black if colour == BLACK else white}{note}", flush=True)
    try:
        openings = distinct_openings(args.games, args.random_plies, args.seed)
    except TooFewOpeningsError:
        raise UserError(f"--games {args.games} needs {args.games} different openings and --random-plies "
                         f"{args.random_plies} does not give that many: the games would repeat each other "
                         f"(use --random-plies {defaults.RANDOM_PLIES}, or --games 1)") from None
    points = 0.0
    t0 = time.perf_counter()
    for game, opening in enumerate(openings, start=1):
        result = play_game(black_engine, white_engine, opening)
        points += result.black_points
        extra = f" time loss: {result.time_loss}" if result.time_loss else ""
        print(game_line(game, result.move_list(), result.black_discs, result.white_discs, result.score) + extra,
              flush=True)
    dt = time.perf_counter() - t0
    print(f"{counted(args.games, 'game')} in {duration(dt)} ({rate(args.games, dt, 'games')}); "
          f"black scored {points:g}/{args.games}")
    return 0
