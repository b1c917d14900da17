"""n-tuple networks in the searches: the NetworkEvaluator against a plain
Python minimax over a plain Python sum of the tuples, symmetry at depth,
whole games, and a 1-ply search against the fast 1-ply loop's choice."""

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.core import PASS, Board
from genethello.core.engine.game import Engine, play_game
from genethello.core.engine.search import ALGORITHMS, Searcher, minimax
from genethello.core.evaluation.evaluation import EVAL_LIMIT, EVAL_WIN
from genethello.core.evaluation.network_evaluator import NetworkEvaluator
from genethello.core.evaluation.ntuple_shapes import architecture
from genethello.core.families.network_family import NETWORKS
from genethello.core.families.networks import Network
from genethello.core.families.registry import evaluator_of
from genethello.core.play.ntuple_games import play_games
from tests.ntuple_reference import SYMMETRIES, reference_value, transform_board
from tests.reference import plain_negamax
from tests.strategies import positions


def tuple_sum(network: Network, mine: int, theirs: int) -> int:
    """The plain Python sum of the network's quantized weights (the oracle)."""
    return reference_value(network.architecture, network.int_weights, mine, theirs)


def python_minimax(board: Board, network: Network, depth: int) -> int:
    """Negamax for the side to move: a leaf is the network's value for the
    player who just moved there (negated for the side to move)."""
    return plain_negamax(board, depth, lambda leaf: -tuple_sum(network, leaf.opponent, leaf.player))


def random_network(name: str, seed: int) -> Network:
    return Network.random(architecture(name), np.random.default_rng(seed))


@pytest.fixture(scope="module")
def all2() -> Network:
    return random_network("all-2", 7)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(board=positions(max_plies=58), seed=st.integers(0, 2**32 - 1), depth=st.integers(1, 3),
       name=st.sampled_from(("all-2", "all-3", "all-2x2")))
def test_search_value_equals_python_minimax_over_the_tuple_sum(board, seed, depth, name):
    if board.is_game_over():
        return
    network = random_network(name, seed)
    expected = python_minimax(board, network, depth)
    evaluator = NetworkEvaluator(network)
    assert minimax(board, evaluator, depth) == expected
    for algorithm in ALGORITHMS:
        assert Searcher(evaluator, algorithm, tt_bits=10).search(board, depth=depth).value == expected, algorithm
    values = dict(Searcher(evaluator, tt_bits=10).move_values(board, depth))
    if not board.must_pass():
        assert max(values.values()) == expected


@settings(max_examples=20, deadline=None, derandomize=True)
@given(board=positions(max_plies=50), seed=st.integers(0, 2**32 - 1))
def test_symmetric_positions_get_equal_values_at_depth_2(board, seed):
    if board.is_game_over() or board.must_pass():
        return
    evaluator = NetworkEvaluator(random_network("all-2", seed))
    side = board.side_to_move
    values = set()
    for sym in SYMMETRIES:
        black, white = transform_board(board.black, sym), transform_board(board.white, sym)
        values.add(Searcher(evaluator, tt_bits=10).search(Board.from_bitboards(black, white, side), depth=2).value)
    assert len(values) == 1


def test_values_stay_inside_the_evaluation_range_and_wins_outrank_them(all2):
    """Every leaf value is below EVAL_LIMIT (so never clamped) and a decided
    game's smallest value (EVAL_WIN) outranks it."""
    evaluator = NetworkEvaluator(all2)
    assert evaluator.ntuple.bound < EVAL_LIMIT < EVAL_WIN
    board = Board.from_moves("f5d6c3d3c4f4f6f3e6e7")
    for move in board.legal_moves():
        assert abs(evaluator.evaluate_move(board, move)) < EVAL_LIMIT


def test_family_evaluator_pickles_and_plays_a_whole_game(all2):
    individual = NETWORKS.random_individual(NETWORKS.parse_kind("all-2"), 0, np.random.default_rng(3))
    evaluator = evaluator_of(individual)
    assert isinstance(evaluator, NetworkEvaluator) and evaluator.individual == individual
    copy = pickle.loads(pickle.dumps(evaluator))
    assert isinstance(copy, NetworkEvaluator) and copy.network.digest() == individual.digest
    assert repr(copy) == f"NetworkEvaluator({str(individual)!r})"
    result = play_game(Engine(evaluator, depth=2, exact_empties=6), Engine(NetworkEvaluator(all2), depth=2))
    again = play_game(Engine(copy, depth=2, exact_empties=6), Engine(NetworkEvaluator(all2), depth=2))
    assert result.moves == again.moves and len(result.moves) >= 58
    assert result.black_discs + result.white_discs <= 64
    timed = play_game(Engine(evaluator, time=2.0), Engine(NetworkEvaluator(all2), depth=1, exact_empties=10))
    assert timed.time_loss is None


def test_one_ply_search_picks_the_fast_loops_move(all2):
    """With epsilon 0 the fast loop's first move from the start (and after
    f5 d6 c5) is the 1-ply search's: the best value for the mover, ties to
    the first square."""
    other = random_network("all-2", 8)
    for opening in ([], [37, 43, 34]):
        _, moves = play_games([all2.evaluator(), other.evaluator()], [0], [1], np.array([0]), 1, 0.0,
                              openings=[opening], opening_index=[0], record=True)
        board = Board.from_moves(opening)
        first = all2 if board.side_to_move == "black" else other
        assert Searcher(NetworkEvaluator(first)).search(board, depth=1).move == int(moves[0][0])
        # the whole game (the moves after the start): every move is the 1-ply search's,
        # unless it ends the game (the search then counts the final margin, the loop the network's value)
        game = [int(m) for m in moves[0] if m >= 0]
        for ply, move in enumerate(game):
            if board.must_pass():
                board.play(PASS)
            mover = all2 if board.side_to_move == "black" else other
            if ply < len(game) - 1:
                    assert Searcher(NetworkEvaluator(mover), tt_bits=10).search(board, depth=1).move == move, ply
            board.play(move)
