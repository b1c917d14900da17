"""Hypothesis strategies shared by the test modules."""

from __future__ import annotations

from hypothesis import strategies as st

from genethello.core import PASS, Board
from genethello.core.evaluation.evaluation import Evaluator


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


@st.composite
def endgames(draw, min_empties: int = 0, max_empties: int = 6) -> Board:
    """A random game played to its end, then taken back until it has at
    least a drawn number of empties (or is back at the start)."""
    board = Board()
    while not board.is_game_over():
        if board.must_pass():
            board.play(PASS)
            continue
        moves = board.legal_moves()
        board.play(moves[draw(st.integers(0, len(moves) - 1))])
    target = draw(st.integers(min_empties, max_empties))
    while board.empties < target and board.history:
        board.undo()
    if board.history and draw(st.booleans()) and board.history[-1] == PASS:
        board.undo()   # sometimes stand just before a pass
    return board


@st.composite
def evaluators(draw, max_weight: int = 10, min_weight: int = 0) -> Evaluator:
    """A random small evaluator: phase bounds and three phases of seven
    feature weights in min_weight..max_weight (coarse weights make equal
    values, and so ties between moves, common)."""
    o = draw(st.integers(0, 60))
    e = draw(st.integers(o, 60))
    weights = [draw(st.lists(st.integers(min_weight, max_weight), min_size=7, max_size=7)) for _ in range(3)]
    return Evaluator((o, e), weights)
