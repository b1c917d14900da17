"""Slow, obviously correct references that several test modules check the
fast code against."""

from __future__ import annotations

from genethello.core import PASS, Board


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
