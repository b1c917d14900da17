#!/usr/bin/env python3
"""Fit a staged network's endgame stages to exact scores (issue 36, a
Buro-style fit of the stages the solver reaches), and measure what it does
to the values.

Every position at ``--low``..``--high`` empties (side to move with a move)
of the WTHOR games is solved exactly by the core's solver: the training
lines' positions are the fit's data, the validation lines' (every
``HOLDOUT``-th, never trained on by the pattern table either) its measure.
Each stage that holds such positions is then fitted by ridge least squares
toward the start network (``pattern_learning.fit.ridge_least_squares`` on
the residuals: a configuration the labels show rarely keeps its start
value), learning also from the positions of ``--overlap`` stages on either
side. Prints each stage's validation MAE before and after, in discs, and
writes the fitted network with ``--out``. With ``--inputs`` it also fits,
per stage, the start network's error to four scalar inputs the sum of
patterns does not have (the difference of frontier discs, of potential
mobility, the empty quadrants of odd size, a constant) and prints what
each would weigh and the validation MAE they leave.

Measured (docs/networks.md, "What did not pay"): from ``table-player-4``
on all 1,074,993 positions at 5-16 empties, ridge 512, validation MAE
falls by 0.1-0.7 disc a stage (7.73 to 7.07 at 15-16 empties), and the
fitted network plays no stronger on the panel or against ``gtp-rhino``.

Labels take about 10 minutes on 2 cores for all the games (``--games``
limits them); the fit about a minute.

Usage: python benchmarks/experiment_exact_fit.py [--start table-player-4] [--low 5] [--high 16]
       [--games N] [--ridge 512] [--overlap 1] [--workers 2] [--inputs] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from pathlib import Path

import numpy as np

from genethello.core import PASS, Board
from genethello.core.engine.search import Searcher
from genethello.core.evaluation.network_evaluator import NetworkEvaluator
from genethello.core.evaluation.ntuple import MOBILITY_ENTRIES, stage_of_move
from genethello.core.families.individual_names import resolve_individual
from genethello.core.families.network_family import NetworkIndividual
from genethello.core.families.network_files import write_network_file
from genethello.core.families.networks import Network
from genethello.core.learning.td import TupleReader, position_indices
from genethello.core.pattern_learning.fit import ridge_least_squares
from genethello.core.pattern_learning.games import HOLDOUT
from genethello.core.records import parse_move_line, read_maybe_gzipped

ROOT = Path(__file__).resolve().parents[1]
FULL_GAMES = ROOT.parent / "shared" / "data" / "games" / "wthor_human_games.txt.gz"
SLICE_GAMES = ROOT / "tests" / "data" / "games" / "wthor_human_games_first2000.txt.gz"

_solver: Searcher | None = None     # each labelling process's own (_start_solver)


def load_start(spec: str) -> NetworkIndividual:
    """The start network ``spec`` names (a shipped name or a network file:
    the core's resolver), refused in one line if it is no staged network."""
    try:
        found = resolve_individual(spec)
    except ValueError as exc:
        raise SystemExit(str(exc)) from None
    if not isinstance(found, NetworkIndividual) or not found.network.staged:
        raise SystemExit(f"{spec}: not a staged network")
    return found


def game_positions(line: str, low: int, high: int) -> list[tuple[int, int]]:
    """(player, opponent) of a game's positions at low..high empties with a move."""
    board = Board()
    out = []
    for move in parse_move_line(line):
        if board.must_pass() and not board.is_game_over():
            board.play(PASS)
        if low <= board.empties <= high and not board.must_pass():
            out.append((board.player, board.opponent))
        board.play(move)
    return out


def _start_solver(start: str) -> None:
    """A labelling process's solver (the start network orders its moves)."""
    global _solver
    _solver = Searcher(NetworkEvaluator(load_start(start).network))


def solve_game(job: tuple[int, str, int, int]) -> list[tuple[int, int, int, int]]:
    """(line, player, opponent, exact margin for the player) of one game's positions."""
    assert _solver is not None, "a labelling process starts with _start_solver"
    number, line, low, high = job
    return [(number, p, o, _solver.solve(Board.from_bitboards(p, o, "black")).value)
            for p, o in game_positions(line, low, high)]


def label(path: Path, start: str, low: int, high: int, games: int | None, workers: int) -> dict[str, np.ndarray]:
    lines = [(n, text.strip()) for n, text in
             enumerate(read_maybe_gzipped(path).decode("ascii").splitlines(), start=1) if text.strip()]
    jobs = [(n, text, low, high) for n, text in lines[:games]]
    with multiprocessing.Pool(workers, initializer=_start_solver, initargs=(start,)) as pool:
        rows = [row for game in pool.imap(solve_game, jobs, chunksize=64) for row in game]
    return {"line": np.array([r[0] for r in rows], dtype=np.int64),
            "player": np.array([r[1] for r in rows], dtype=np.uint64),
            "opponent": np.array([r[2] for r in rows], dtype=np.uint64),
            "value": np.array([r[3] for r in rows], dtype=np.float64)}


NOT_A_FILE = np.uint64(0xFEFEFEFEFEFEFEFE)     # no disc on the a-file (bit 0 is a1)
NOT_H_FILE = np.uint64(0x7F7F7F7F7F7F7F7F)
QUADRANTS = tuple(np.uint64(q) for q in (0x0F0F0F0F, 0xF0F0F0F0, 0x0F0F0F0F00000000, 0xF0F0F0F000000000))
INPUTS = ("frontier", "potential mobility", "odd quadrants", "constant")


def popcounts(bits: np.ndarray) -> np.ndarray:
    return np.unpackbits(bits.astype("<u8").view(np.uint8).reshape(-1, 8), axis=1).sum(axis=1).astype(np.int64)


def neighbours(bits: np.ndarray) -> np.ndarray:
    """The squares next to any set square, in all eight directions."""
    one, seven, eight, nine = (np.uint64(k) for k in (1, 7, 8, 9))
    return (((bits << one) & NOT_A_FILE) | ((bits >> one) & NOT_H_FILE) | (bits << eight) | (bits >> eight)
            | ((bits << nine) & NOT_A_FILE) | ((bits << seven) & NOT_H_FILE)
            | ((bits >> seven) & NOT_A_FILE) | ((bits >> nine) & NOT_H_FILE))


def scalar_inputs(player: np.ndarray, opponent: np.ndarray) -> np.ndarray:
    """Per position (``player`` to move): its frontier discs (next to an
    empty square) minus the other side's, the empties next to the other
    side's discs minus those next to its own (potential mobility), the
    quadrants with an odd number of empties, and 1."""
    empty = ~(player | opponent)
    frontier = popcounts(neighbours(empty) & player) - popcounts(neighbours(empty) & opponent)
    potential = popcounts(neighbours(opponent) & empty) - popcounts(neighbours(player) & empty)
    odd = sum(popcounts(empty & q) % 2 for q in QUADRANTS)
    return np.column_stack([frontier, potential, odd, np.ones(player.size, dtype=np.int64)]).astype(np.float64)


def moved_to_stage(rows: np.ndarray, network: Network, source: int, target: int) -> np.ndarray:
    """Index rows of stage ``source``'s positions, read as if in stage ``target``."""
    out = rows.copy()
    last = out.shape[1] - 1 if network.mobility else out.shape[1]   # with mobility, the last index is its entry
    out[:, :last] += (target - source) * network.architecture.n_weights
    if network.mobility:
        out[:, last] += (target - source) * MOBILITY_ENTRIES
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", default="table-player-4")
    parser.add_argument("--games-file", type=Path, default=FULL_GAMES if FULL_GAMES.exists() else SLICE_GAMES)
    parser.add_argument("--games", type=int, default=None, help="label only the first N games")
    parser.add_argument("--low", type=int, default=5)
    parser.add_argument("--high", type=int, default=16)
    parser.add_argument("--ridge", type=float, default=512.0)
    parser.add_argument("--overlap", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--inputs", action="store_true", help="also fit the error to four scalar inputs")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.out and args.out.exists():
        raise SystemExit(f"{args.out} exists: name another file")
    start = load_start(args.start)
    network = start.network
    began = time.time()
    labels = label(args.games_file, args.start, args.low, args.high, args.games, args.workers)
    print(f"{labels['value'].size} positions at {args.low}-{args.high} empties solved in {time.time() - began:.0f} s "
          f"({args.games_file.name}; validation: every {HOLDOUT}th line)")
    reader = TupleReader(network.architecture, network.stages, network.mobility)
    rows = position_indices(reader, labels["player"], labels["opponent"]).astype(np.int64)
    discs = popcounts(labels["player"] | labels["opponent"])
    stage = stage_of_move(network.stages)[discs - 4]
    stages_labelled = sorted(set(stage.tolist()))
    validation = labels["line"] % HOLDOUT == 0
    y = labels["value"]
    start_values = network.weights[rows].sum(axis=1)     # each position's value by the start, in its own stage
    weights = network.weights.copy()
    print(f"{'stage':>5} {'empties':>8} {'fitted on':>10} {'validation':>10} {'MAE before':>10} {'after':>6}")
    for s in stages_labelled:
        parts = [moved_to_stage(rows[(stage == s + d) & ~validation], network, s + d, s)
                 for d in range(-args.overlap, args.overlap + 1)]
        train_rows = np.concatenate(parts)
        train_y = np.concatenate([y[(stage == s + d) & ~validation] for d in range(-args.overlap, args.overlap + 1)])
        indices, change = ridge_least_squares(train_rows, train_y - network.weights[train_rows].sum(axis=1),
                                              args.ridge, args.iterations)
        weights[indices] += change
        held = (stage == s) & validation
        before = np.mean(np.abs(start_values[held] - y[held]))
        after = np.mean(np.abs(weights[rows[held]].sum(axis=1) - y[held]))
        held_empties = 60 - (discs[stage == s] - 4)
        print(f"{s:>5} {f'{held_empties.min()}-{held_empties.max()}':>8} {train_y.size:>10} {int(held.sum()):>10} "
              f"{before:>10.2f} {after:>6.2f}")
    if args.inputs:
        inputs = scalar_inputs(labels["player"], labels["opponent"])
        error = y - start_values
        print(f"\nthe start's error fitted to scalar inputs (discs each): {', '.join(INPUTS)}")
        print(f"{'stage':>5} {'MAE before':>10} {'after':>6}  " + " ".join(f"{name:>18}" for name in INPUTS))
        for s in stages_labelled:
            train, held = (stage == s) & ~validation, (stage == s) & validation
            coefficients = np.linalg.lstsq(inputs[train], error[train], rcond=None)[0]
            after = np.mean(np.abs(error[held] - inputs[held] @ coefficients))
            print(f"{s:>5} {np.mean(np.abs(error[held])):>10.2f} {after:>6.2f}  "
                  + " ".join(f"{c:>+18.2f}" for c in coefficients))
    if args.out:
        write_network_file(NetworkIndividual(start.type, start.birth, network.with_weights(weights)), args.out)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
