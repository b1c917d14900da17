"""Whole games: legal records, the reported result, determinism, random
openings, time-limited play, Engine validation and pickling."""

import pickle

import pytest

from genethello.core import PASS, Board, IllegalMoveError
from genethello.core.engine.game import Engine, GameResult, play_game, random_opening
from genethello.core.evaluation.evaluation import BaseEvaluator, Evaluator
from genethello.core.families.chromosome import Chromosome
from genethello.core.families.registry import evaluator_of

PLAYER_A = Chromosome.parse("oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3")
PLAYER_B = Chromosome.parse("oe_fmc_436_18:45:5:2:8:8:4:9:1:2:4")


def engines(**limits):
    limits.setdefault("depth", 2)
    limits.setdefault("exact_empties", 6)
    return Engine(evaluator_of(PLAYER_A), **limits), Engine(evaluator_of(PLAYER_B), **limits)


def replay(result: GameResult) -> Board:
    """Replay the record strictly: a PASS only where the side must pass, and
    no implicit passes (Board.play refuses a square when the side has none)."""
    board = Board()
    for number, move in enumerate(result.moves, start=1):
        if move != PASS:
            assert not board.must_pass(), f"move {number}: a pass is missing before it"
        board.play(move)
    return board


def assert_consistent(result: GameResult, opening) -> None:
    board = replay(result)
    assert board.is_game_over()
    assert board.disc_count() == (result.black_discs, result.white_discs)
    assert board.final_score() == result.score
    assert list(result.moves[:len(opening)]) == list(opening)
    assert result.opening_plies == len(opening)
    assert result.nodes > 0
    assert result.time_loss is None
    assert result.winner == ("black" if result.score > 0 else "white" if result.score < 0 else None)
    assert Board.from_moves(result.move_list()) == board


@pytest.mark.parametrize("seed", range(12))
def test_game_is_legal_and_reports_its_result(seed):
    black, white = engines()
    opening = random_opening(6, seed)
    assert_consistent(play_game(black, white, opening), opening)


def test_games_with_passes_record_them():
    black, white = engines()
    passes = 0
    for seed in range(12):
        result = play_game(black, white, random_opening(6, seed))
        passes += result.moves.count(PASS)
    assert passes > 0        # seeds 0, 1, 2 and 11 pass at least once (root ties by square)


def test_game_from_the_start_and_with_depth_one():
    black, white = engines(depth=1, exact_empties=0)
    assert_consistent(play_game(black, white), ())


def test_illegal_opening_raises():
    black, white = engines()
    with pytest.raises(IllegalMoveError):
        play_game(black, white, [0])          # a1 is not a legal first move


def test_same_engines_same_opening_same_game():
    black, white = engines(depth=3, exact_empties=8)
    opening = random_opening(4, 7)
    first = play_game(black, white, opening)
    for seed in range(3):                      # other games fill the tables
        play_game(black, white, random_opening(4, 100 + seed))
        play_game(white, black, random_opening(4, 200 + seed))
    again = play_game(black, white, opening)
    fresh = play_game(*engines(depth=3, exact_empties=8), opening)
    for other in (again, fresh):
        assert other.moves == first.moves
        assert other.score == first.score
        assert other.nodes == first.nodes


def test_random_opening_is_deterministic_and_legal():
    for seed in (0, 1, 42, "3/17"):
        moves = random_opening(10, seed)
        assert moves == random_opening(10, seed)
        assert len(moves) == 10
        Board.from_moves(moves)                 # raises if illegal
    assert len({tuple(random_opening(10, seed)) for seed in range(20)}) > 15
    assert random_opening(0, 5) == []


def test_time_limited_game_keeps_within_its_clock():
    clock = 0.3
    black, white = engines(depth=None, time=clock, exact_empties=10)
    result = play_game(black, white, random_opening(4, 3))
    assert result.time_loss is None
    assert 0 < result.black_seconds <= clock
    assert 0 < result.white_seconds <= clock
    assert_consistent(result, random_opening(4, 3))


@pytest.mark.parametrize("limits, message", [
    ({}, "depth or a time"),
    ({"depth": 0}, "depth"),
    ({"depth": 61}, "depth"),
    ({"time": -1.0}, "time"),
    ({"time": 0}, "time"),
    ({"depth": 3, "exact_empties": -1}, "exact"),
    ({"depth": 3, "exact_empties": 61}, "exact"),
    ({"depth": 3, "algorithm": "minimax"}, "algorithm"),
])
def test_engine_validation(limits, message):
    with pytest.raises(ValueError, match=message):
        Engine(evaluator_of(PLAYER_A), **limits)


def test_engine_accepts_an_evaluator():
    engine = Engine(Evaluator(), depth=2)
    assert engine.depth == 2 and engine.time == 0.0


def test_engine_takes_any_evaluator_kind_and_refuses_one_of_no_kind():
    """An evaluator of any kind (a BaseEvaluator) is searched as given, not
    read as a chromosome; the bare base, of no kind, is refused in one line."""
    evaluator = Evaluator.from_chromosome(PLAYER_A)
    assert Engine(evaluator, depth=2).evaluator is evaluator
    with pytest.raises(TypeError, match="BaseEvaluator is not an evaluator a search can use"):
        Engine(BaseEvaluator(), depth=2)


@pytest.mark.parametrize("limits", [
    {"depth": 3, "exact_empties": 8, "algorithm": "alphabeta-hard", "tt_bits": 12},
    {"time": 5.0, "exact_empties": 10},
])
def test_engine_pickle_round_trip(limits):
    black, white = engines(**limits)
    black2, white2 = pickle.loads(pickle.dumps((black, white)))
    for original, copy in ((black, black2), (white, white2)):
        assert (copy.depth, copy.time, copy.exact_empties) == (original.depth, original.time,
                                                               original.exact_empties)
        assert copy.searcher.algorithm == original.searcher.algorithm
        assert copy.searcher.table.bits == original.searcher.table.bits
        assert copy.evaluator.weights == original.evaluator.weights
        assert copy.evaluator.phase_bounds == original.evaluator.phase_bounds
    if "depth" in limits:
        opening = random_opening(4, 11)
        got, want = play_game(black2, white2, opening), play_game(black, white, opening)
        assert (got.moves, got.score, got.nodes) == (want.moves, want.score, want.nodes)
