"""Engine front ends: ``nboard`` (the NBoard GUI's protocol) and
``metamachine`` (a GTP proxy over an oracle engine)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from genethello.core.cli.arguments import (
    add_engine_player_options,
    add_exact_option,
    add_patterns_option,
    add_tt_bits_option,
    non_negative_int,
    patterns_note,
    positive_int,
)
from genethello.core.cli.context import CommandContext, takes_context
from genethello.core.frontend import defaults
from genethello.core.frontend.errors import UserError
from genethello.core.frontend.interrupts import interruptible


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from genethello.core.metamachine.proxy import DEFAULT_TOP

    p = sub.add_parser(
        "nboard", help="play a chromosome or network as an engine for the NBoard GUI (NBoard protocol v2)",
        description="Answer NBoard protocol commands (nboard, set depth, set game, move, hint, go, ping, "
                    "learn, analyze) on stdin/stdout; diagnostics go to stderr.")
    add_engine_player_options(p)
    p.add_argument("--depth", type=positive_int, default=defaults.DEPTH, metavar="N",
                   help=f"midgame depth until the GUI sends 'set depth' (default: {defaults.DEPTH})")
    add_exact_option(p)
    add_tt_bits_option(p)
    add_patterns_option(p)
    p.set_defaults(handler=takes_context(run_nboard))

    p = sub.add_parser(
        "metamachine", help="a GTP engine that plays the best of its oracle engine's top moves",
        description="Start ORACLE COMMAND as a GTP oracle (it must answer top_moves and estimate_score, "
                    "like 'genethello gtp'), pass every command to it, and answer genmove by trying the "
                    "oracle's top N moves and playing the one estimate_score likes best.",
        usage="genethello metamachine [-h] [--debug] [--top N] [--workers N] [--address ADDR] "
              "-- ORACLE COMMAND...")
    p.add_argument("--debug", action="store_true", help="write the candidates and their scores to stderr")
    p.add_argument("--top", type=positive_int, default=DEFAULT_TOP, metavar="N",
                   help=f"candidate moves to try per genmove (default: {DEFAULT_TOP})")
    p.add_argument("--workers", type=non_negative_int, default=0, metavar="N",
                   help="extra oracle processes that score candidates in parallel (default: 0)")
    p.add_argument("--address", metavar="ADDR",
                   help="join the Ray cluster at this address, HOST:PORT or auto: the extra oracles run as Ray "
                        "actors there, --workers of them or one per CPU there (default: no Ray, local processes)")
    p.add_argument("oracle", nargs=argparse.REMAINDER, metavar="ORACLE COMMAND",
                   help="the oracle's command line, after --")
    p.set_defaults(handler=takes_context(run_metamachine))


def run_nboard(args: argparse.Namespace, context: CommandContext) -> int:
    from genethello.core.families.registry import evaluator_of
    from genethello.core.nboard import NBoardFrontend

    if args.depth > 60:
        raise UserError(f"--depth must be in 1..60, got {args.depth}")
    if not 0 <= args.tt_bits <= 28:
        raise UserError(f"--tt-bits must be in 0..28, got {args.tt_bits}")
    evaluator = evaluator_of(context.individual(args.player, args.db), args.patterns)
    if patterns_note(evaluator):
        print(f"genethello nboard: {args.player}{patterns_note(evaluator)}", file=sys.stderr, flush=True)
    engine = NBoardFrontend(evaluator, depth=args.depth, exact_empties=args.exact, tt_bits=args.tt_bits)
    return engine.run(sys.stdin.buffer)


def run_metamachine(args: argparse.Namespace, context: CommandContext) -> int:
    from genethello.core.metamachine import MetaMachine, OraclePool

    oracle = list(args.oracle)
    if oracle and oracle[0] == "--":
        oracle = oracle[1:]
    if not oracle:
        raise UserError("no oracle command: genethello metamachine [options] -- ORACLE COMMAND...")
    make_helpers = None if args.address is None else ray_helpers(args, context)
    pool = OraclePool(oracle, workers=args.workers, stderr=sys.stderr, make_helpers=make_helpers)
    with interruptible():          # exit 130 on SIGINT even when started with it ignored
        return MetaMachine(pool, top=args.top, debug=args.debug).run(sys.stdin.buffer, sys.stdout)


def ray_helpers(args: argparse.Namespace, context: CommandContext) -> Callable[[list[str]], list[Any]]:
    """A factory of Ray actor helpers on the cluster at ``args.address``:
    ``args.workers`` of them, or one per CPU there. Joining the cluster is
    the context's ``start_ray`` (core does not start Ray)."""
    start_ray = context.ray()

    def make(argv: list[str]) -> list[Any]:   # OraclePool's helpers
        from genethello.core.metamachine.oracles import RayHelper

        count = args.workers or start_ray(args.address)
        return [RayHelper(argv, i + 1) for i in range(count)]
    return make
