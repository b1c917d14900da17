"""The Player protocol and the one game loop: every player hears every move,
randomness comes from the game's seed only, illegal choices are named."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genethello.core import PASS, Board
from genethello.core.engine.game import random_opening
from genethello.core.families.chromosome import Chromosome
from genethello.core.play.players import (
    BasePlayer,
    ChromosomePlayer,
    EpsilonPlayer,
    GreedyPlayer,
    IllegalPlayerMoveError,
    Player,
    RandomPlayer,
    SquareWeightsPlayer,
    WeightedSquaresPlayer,
    play,
)

BEST = Chromosome.parse("oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3")


class Recorder(BasePlayer):
    """Plays the first legal move and records what it hears."""

    name = "recorder"

    def __init__(self) -> None:
        self.heard: list[int] = []
        self.seeds: list[int] = []

    def new_game(self, seed: int) -> None:
        self.seeds.append(seed)

    def observe(self, board: Board, move: int) -> None:
        assert move == PASS or board.is_legal(move)
        self.heard.append(move)

    def choose(self, board: Board) -> int:
        return board.legal_moves()[0]


def test_every_built_in_player_is_a_player():
    for p in (RandomPlayer(), GreedyPlayer(), SquareWeightsPlayer(), ChromosomePlayer(BEST, 1),
              EpsilonPlayer(GreedyPlayer(), 0.1)):
        assert isinstance(p, Player)


def test_both_players_hear_every_move_passes_included():
    black, white = Recorder(), Recorder()
    margin = play(black, white)
    assert black.heard == white.heard
    board = Board()
    for move in black.heard:
        board.play(move)
    assert board.is_game_over() and board.final_score() == margin


@given(st.integers(0, 2**63 - 1))
@settings(max_examples=20, deadline=None)
def test_a_game_is_a_function_of_its_seed(seed):
    def game():
        return play(EpsilonPlayer(GreedyPlayer(), 0.3), RandomPlayer(), random_opening(4, seed), seed)
    assert game() == game()


def test_seeds_reach_the_players_and_differ_between_colours():
    black, white = Recorder(), Recorder()
    play(black, white, seed=42)
    assert black.seeds[0] == 42 and white.seeds[0] != 42


def test_epsilon_zero_is_the_inner_player_and_one_is_random():
    greedy_game = play(GreedyPlayer(), SquareWeightsPlayer(), seed=3)
    assert play(EpsilonPlayer(GreedyPlayer(), 0.0), SquareWeightsPlayer(), seed=3) == greedy_game
    margins = {play(EpsilonPlayer(GreedyPlayer(), 1.0), SquareWeightsPlayer(), seed=s) for s in range(8)}
    assert len(margins) > 1
    with pytest.raises(ValueError):
        EpsilonPlayer(GreedyPlayer(), 1.5)


def test_an_illegal_choice_is_named():
    class Cheat(BasePlayer):
        name = "cheat"

        def choose(self, board: Board) -> int:
            return 0   # a1 is never legal at the start

    with pytest.raises(IllegalPlayerMoveError, match="cheat chose the illegal move a1"):
        play(Cheat(), GreedyPlayer())


def test_an_illegal_opening_is_refused():
    with pytest.raises(ValueError, match="opening move 1"):
        play(GreedyPlayer(), GreedyPlayer(), [0])


def test_weighted_squares_prefers_the_heavier_square_then_the_first():
    weights = [0] * 64
    weights[19] = 5          # d3 ... a legal first move
    player = WeightedSquaresPlayer(weights, "w")
    assert player.choose(Board()) == 19
    flat = WeightedSquaresPlayer([1] * 64, "flat")
    # all four first moves give 4 discs to 1: the first in a1..h8 order
    assert flat.choose(Board()) == min(Board().legal_moves())
    with pytest.raises(ValueError):
        WeightedSquaresPlayer([1] * 63, "short")


def test_a_chromosome_player_beats_random_most_of_the_time():
    me = ChromosomePlayer(BEST, 2)
    wins = sum(play(me, RandomPlayer(), random_opening(2, s), s) > 0 for s in range(10))
    assert wins >= 8
