#!/usr/bin/env python3
"""Measure whether staged networks' values are discs (issue 36 part 3).

For each network (a shipped network's name, a network file, or
``patterns-v2-net``, which is p_1_10's pattern table as a network):

- **MAE at 20 empties**: the mean absolute error, in discs, of its static
  value (the real-weight sum, discs of final margin for the side to move)
  against the exact score (the core's solver) of held-out positions: the
  position at exactly ``--empties`` empties, side to move with a move, of
  the WTHOR validation games (lines that are a multiple of
  ``pattern_learning.HOLDOUT``: never trained on by the pattern table; the
  learned networks learned from self-play only). The full games file
  (``../shared/data/games``) by default, else the repository's slice.
- **MAE at earlier stages** (``--stages``, empties): against a depth
  ``--depth`` search of ``--reference`` (patterns-v2-net by default, its
  search value in discs) of the same games' positions at that many empties.
- **Leaves at the clamp**: over ``--clamp-games`` depth-4 self-play games of
  the network (6 random plies first), the share of the positions two plies
  ahead of each game position (what a depth-4 search values most) whose
  integer value, as the search reads it, reaches ±EVAL_LIMIT.

Exact scores and reference values are cached in ``--cache`` (JSON), so a
second run (a network learned since) measures against the same labels
without solving again.

Usage: python benchmarks/measure_values.py [--positions N] [--networks A B ...]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from genethello.core import PASS, Board
from genethello.core.engine.game import Engine, play_game, random_opening
from genethello.core.engine.search import Searcher
from genethello.core.evaluation.evaluation import EVAL_LIMIT, EVAL_WIN
from genethello.core.evaluation.network_evaluator import NetworkEvaluator
from genethello.core.families.individual_names import resolve_individual
from genethello.core.families.network_family import NetworkIndividual
from genethello.core.families.networks import DISC_UNITS, Network, pattern_table_network
from genethello.core.learning.td import TupleReader, position_value
from genethello.core.pattern_learning.games import HOLDOUT
from genethello.core.records import parse_move_line, read_maybe_gzipped

ROOT = Path(__file__).resolve().parents[1]
FULL_GAMES = ROOT.parent / "shared" / "data" / "games" / "wthor_human_games.txt.gz"
SLICE_GAMES = ROOT / "tests" / "data" / "games" / "wthor_human_games_first2000.txt.gz"


def load_network(name: str) -> Network:
    """A network by shipped name, ``patterns-v2-net`` or a network file."""
    if name == "patterns-v2-net":
        return pattern_table_network()
    try:
        found = resolve_individual(name)
    except ValueError as exc:
        raise SystemExit(str(exc)) from None
    if not isinstance(found, NetworkIndividual) or not found.network.staged:
        raise SystemExit(f"{name}: not a staged network (its values are not discs)")
    return found.network


def held_out_positions(path: Path, empties: int, count: int) -> list[tuple[int, int, int]]:
    """(line, player, opponent) of the first ``count`` validation games'
    positions at exactly ``empties`` empties with a move for the side to move."""
    out = []
    for number, line in enumerate(read_maybe_gzipped(path).decode("ascii").splitlines(), start=1):
        if number % HOLDOUT or not line.strip():
            continue
        board = Board()
        for move in parse_move_line(line.strip()):
            if board.empties == empties:
                break
            if board.must_pass():
                board.play(PASS)
            board.play(move)
        if board.must_pass() and not board.is_game_over():
            board.play(PASS)
        if board.empties == empties and not board.is_game_over() and not board.must_pass():
            out.append((number, board.player, board.opponent))
            if len(out) == count:
                break
    return out


def board_of(player: int, opponent: int) -> Board:
    # Board.from_bitboards takes colours; the side to move's colour does not change a value for that side
    return Board.from_bitboards(player, opponent, "black")


def labels(cache: dict, key: str, positions: list, label) -> list[float]:
    """Cached labels of ``positions`` (by ``key`` and the position)."""
    store = cache.setdefault(key, {})
    out = []
    for _, p, o in positions:
        k = f"{p:x}:{o:x}"
        if k not in store:
            store[k] = label(p, o)
        out.append(float(store[k]))
    return out


def search_discs(value: int, scale: int) -> float:
    """A search value in discs: a decided game's EVAL_WIN a disc, else ``scale`` units a disc."""
    return value / EVAL_WIN if abs(value) > EVAL_LIMIT else value / scale


def static_values(net: Network, positions: list) -> np.ndarray:
    reader = TupleReader(net.architecture, net.stages, net.mobility)
    return np.array([position_value(reader, net.weights, p, o) for _, p, o in positions])


def clamp_share(net: Network, games: int) -> tuple[float, int]:
    """The share of positions two plies ahead of depth-4 game positions at
    ±EVAL_LIMIT as the search reads them, and how many were valued."""
    reader = TupleReader(net.architecture, net.stages, net.mobility)
    engine = Engine(NetworkEvaluator(net), depth=4)
    k = net.whole_disc_weight
    at_clamp = total = 0

    def units(board: Board) -> float:
        s = position_value(reader, net.weights, board.player, board.opponent)
        return k * np.floor(s) if k else s * DISC_UNITS

    for g in range(games):
        result = play_game(engine, engine, random_opening(6, g), epsilon=0.0, seed=g)
        board = Board()
        for move in result.moves:
            for first in board.legal_moves():
                child = board.copy()
                child.play(first)
                for second in child.legal_moves() or ([PASS] if not child.is_game_over() else []):
                    leaf = child.copy()
                    leaf.play(second)
                    if leaf.is_game_over():
                        continue
                    total += 1
                    at_clamp += abs(units(leaf)) >= EVAL_LIMIT
            board.play(move)
    return at_clamp / max(1, total), total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--networks", nargs="+", default=["patterns-v2-net", "pbt-td-searcher"])
    parser.add_argument("--games", type=Path, default=FULL_GAMES if FULL_GAMES.exists() else SLICE_GAMES)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--empties", type=int, default=20)
    parser.add_argument("--stages", type=int, nargs="*", default=[30, 40], help="earlier stages (empties)")
    parser.add_argument("--stage-positions", type=int, default=100)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--reference", default="patterns-v2-net")
    parser.add_argument("--clamp-games", type=int, default=4)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/measure_values_cache.json"))
    args = parser.parse_args(argv)
    cache = json.loads(args.cache.read_text()) if args.cache.exists() else {}
    start = time.time()
    exact_positions = held_out_positions(args.games, args.empties, args.positions)
    solver = Searcher(NetworkEvaluator(pattern_table_network()))
    exact = labels(cache, f"exact-{args.empties}", exact_positions,
                   lambda p, o: solver.solve(board_of(p, o)).value)
    args.cache.write_text(json.dumps(cache))
    reference = load_network(args.reference)
    searcher = Searcher(NetworkEvaluator(reference))
    scale = reference.whole_disc_weight or DISC_UNITS
    staged = {}
    for empties in args.stages:
        positions = held_out_positions(args.games, empties, args.stage_positions)
        staged[empties] = positions, labels(
            cache, f"{args.reference}-d{args.depth}-{empties}", positions,
            lambda p, o: search_discs(searcher.search(board_of(p, o), depth=args.depth).value, scale))
        args.cache.write_text(json.dumps(cache))
    print(f"games: {args.games} (validation lines, every {HOLDOUT}th: never trained on); "
          f"{len(exact_positions)} positions at {args.empties} empties solved exactly "
          f"(mean |score| {np.mean(np.abs(exact)):.2f}); labels in {time.time() - start:.0f} s")
    header = f"{'network':>24} {'MAE@' + str(args.empties) + ' exact':>14}"
    header += "".join(f" {'MAE@' + str(e) + ' d' + str(args.depth):>11}" for e in args.stages)
    print(header + f" {'leaves at clamp':>16}")
    for name in args.networks:
        net = load_network(name)
        row = f"{name:>24} {np.mean(np.abs(static_values(net, exact_positions) - exact)):>14.2f}"
        for empties in args.stages:
            positions, values = staged[empties]
            row += f" {np.mean(np.abs(static_values(net, positions) - np.array(values))):>11.2f}"
        share, total = clamp_share(net, args.clamp_games)
        print(row + f" {100 * share:>9.2f}% of {total}")
    print(f"earlier stages: against {args.reference}'s depth-{args.depth} search value (discs); "
          f"clamp: ±{EVAL_LIMIT} units, over positions 2 plies ahead of {args.clamp_games} depth-4 games' positions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
