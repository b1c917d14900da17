"""The ``gtp`` command: play one chromosome or network as a GTP engine on stdin/stdout."""

from __future__ import annotations

import argparse
import sys

from genethello.core.cli.arguments import (
    add_engine_player_options,
    add_exact_option,
    add_patterns_option,
    add_tt_bits_option,
    game_seconds,
    patterns_note,
    positive_int,
)
from genethello.core.cli.context import CommandContext, takes_context
from genethello.core.families.registry import evaluator_of
from genethello.core.frontend import defaults
from genethello.core.frontend.errors import UserError
from genethello.core.gtp.gtp_server import GtpFrontend


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "gtp", help="play a chromosome or network as a GTP engine (Othello profile) on stdin/stdout",
        description="Answer GTP version 2 commands (Othello profile: vertices a1-h8 with row 1 at the top, "
                    "boardsize 8 only) on stdin/stdout; diagnostics go to stderr.")
    add_engine_player_options(p)
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=positive_int, metavar="N",
                       help=f"plies per move (default: {defaults.DEPTH}; capped by the clock when the controller "
                            "sets time_settings)")
    limit.add_argument("--time", type=game_seconds, metavar="S",
                       help="seconds per game on each clock unless the controller sends time_settings")
    add_exact_option(p)
    p.add_argument("--ponder", action="store_true", help="think on the opponent's time after genmove")
    add_tt_bits_option(p)
    p.add_argument("--verbose", action="store_true", help="log every genmove search to stderr")
    add_patterns_option(p)
    p.set_defaults(handler=takes_context(run_gtp))


def run_gtp(args: argparse.Namespace, context: CommandContext) -> int:
    if args.depth is None and args.time is None:
        args.depth = defaults.DEPTH        # README: depth 8 where a depth has a default
    if args.depth is not None and args.depth > 60:
        raise UserError(f"--depth must be in 1..60, got {args.depth}")
    if not 0 <= args.tt_bits <= 28:
        raise UserError(f"--tt-bits must be in 0..28, got {args.tt_bits}")
    evaluator = evaluator_of(context.individual(args.player, args.db), args.patterns)
    if patterns_note(evaluator):
        print(f"genethello gtp: {args.player}{patterns_note(evaluator)}", file=sys.stderr, flush=True)
    engine = GtpFrontend(evaluator, depth=args.depth, time=args.time, exact_empties=args.exact,
                       ponder=args.ponder, tt_bits=args.tt_bits, verbose=args.verbose)
    return engine.run(sys.stdin.buffer, sys.stdout)
