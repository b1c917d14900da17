"""Hypothesis strategies shared by the test modules."""

from __future__ import annotations

from hypothesis import strategies as st

from genethello.core import PASS, Board


@st.composite
def positions(draw, min_plies: int = 0, max_plies: int = 55) -> Board:
    """The position after a random legal sequence of plies from the start; a
    forced pass counts as a ply, and the sequence stops early at game end."""
    board = Board()
    for _ in range(draw(st.integers(min_plies, max_plies))):
        if board.is_game_over():
            break
        if board.must_pass():
            board.play(PASS)
            continue
        moves = board.legal_moves()
        board.play(moves[draw(st.integers(0, len(moves) - 1))])
    return board
