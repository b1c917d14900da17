"""Slow, obviously correct references that several test modules check the
fast code against."""

from __future__ import annotations

from collections.abc import Callable

from genethello.core import PASS, Board
from genethello.core.engine.search import minimax
from genethello.core.evaluation.evaluation import EVAL_WIN, Evaluator


def mover_score(board: Board) -> int:
    """final_score (Black's view) from the side to move's view."""
    score = board.final_score()
    return score if board.side_to_move == "black" else -score


def brute_force(board: Board) -> int:
    """Exact final disc difference for the side to move, by exhaustive search."""
    if board.is_game_over():
        return mover_score(board)
    if board.must_pass():
        board.play(PASS)
        try:
            return -brute_force(board)
        finally:
            board.undo()
    best = -65
    for move in board.legal_moves():
        board.play(move)
        best = max(best, -brute_force(board))
        board.undo()
    return best


def child_value(board: Board, ev: Evaluator, move: int, depth: int) -> int:
    """Value of `move` at `depth` (mover's view), from minimax / the evaluator:
    the value the root of a `depth`-ply search gives the move."""
    child = board.copy()
    child.play(move)
    if depth > 1:
        return -minimax(child, ev, depth - 1)
    if child.is_game_over():
        return -mover_score(child) * EVAL_WIN
    return ev.evaluate_move(board, move)


def plain_negamax(board: Board, depth: int, leaf: Callable[[Board], int]) -> int:
    """Negamax for the side to move over a plain leaf value: ``leaf(board)``
    at depth 0 (the side to move's value), a finished game EVAL_WIN per disc
    of the final margin, a pass uses no depth."""
    if board.is_game_over():
        return mover_score(board) * EVAL_WIN
    if depth == 0:
        return leaf(board)
    if board.must_pass():
        board.play(PASS)
        try:
            return -plain_negamax(board, depth, leaf)
        finally:
            board.undo()
    best = None
    for move in board.legal_moves():
        board.play(move)
        try:
            v = -plain_negamax(board, depth - 1, leaf)
        finally:
            board.undo()
        best = v if best is None else max(best, v)
    assert best is not None
    return best
