"""Stable discs (the solver's stability cut-off) are never flipped."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.core import PASS, Board
from genethello.core.engine.stability import stable


def random_position(rng: random.Random, plies: int) -> Board:
    board = Board()
    for _ in range(plies):
        if board.is_game_over():
            break
        if board.must_pass():
            board.play(PASS)
        else:
            board.play(rng.choice(board.legal_moves()))
    return board


def test_start_position_has_no_stable_disc():
    b = Board()
    assert stable(b.black, b.white) == 0
    assert stable(b.white, b.black) == 0


def test_an_owned_corner_is_stable_and_a_full_board_is_all_stable():
    board = Board.from_obf("X" + "-" * 62 + "O" + " X")
    assert stable(board.black, board.white) == 1
    assert stable(board.white, board.black) == 1 << 63
    full = Board.from_obf("XO" * 32 + " X")
    assert stable(full.black, full.white) == full.black
    assert stable(full.white, full.black) == full.white


def test_an_edge_run_from_a_corner_is_stable_but_not_past_a_gap():
    # a1 b1 c1 black, e1 black after a gap at d1: only a1..c1 are stable.
    board = Board.from_obf("XXX-X" + "-" * 59 + " X")
    assert stable(board.black, board.white) == 0b111


@settings(derandomize=True, max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(20, 58))
def test_stable_discs_never_flip_in_any_continuation(seed, plies):
    rng = random.Random(seed)
    board = random_position(rng, plies)
    black_stable = stable(board.black, board.white)
    white_stable = stable(board.white, board.black)
    assert black_stable & ~board.black == 0 and white_stable & ~board.white == 0
    for _ in range(12):
        game = board.copy()
        while not game.is_game_over():
            game.play(PASS if game.must_pass() else rng.choice(game.legal_moves()))
            assert game.black & black_stable == black_stable, board.to_obf()
            assert game.white & white_stable == white_stable, board.to_obf()
