"""Everything that picks moves, behind one protocol, and the one loop that
plays a game between any two of them.

A :class:`Player` is told each new game, hears every move played (its own
included, passes included), and is asked for a move only when the side to
move has a legal one. The built-in players here are the gauntlet's fixed
opponents (random, greedy, square weights), an evolved chromosome searching
to a fixed depth, an external GTP engine, and a wrapper that makes any of
them play a random move with some probability (the Othello League's
protocol). Games between two chromosomes in a tournament keep their typed
nogil loop (:func:`genethello.core.engine.game.play_game`); this module is the
Python face used by the yardstick, the League measure and the tools.

Randomness is always seeded per game (:meth:`Player.new_game` takes the
game's seed), so a game is a pure function of its players, opening and seed,
whichever process plays it and in whatever order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from genethello.core.engine.board import Board
from genethello.core.engine.search import Searcher
from genethello.core.engine.squares import BLACK, PASS, SQUARE_WEIGHTS, square_name
from genethello.core.families.registry import Individual, evaluator_of
from genethello.core.frontend.errors import UserError


class IllegalPlayerMoveError(RuntimeError):
    """A player chose a move that is not legal on the board."""


@runtime_checkable
class Player(Protocol):
    """Picks moves for whichever side it is seated on."""

    name: str

    def new_game(self, seed: int) -> None:
        """A new game starts; ``seed`` seeds any randomness of this game."""

    def observe(self, board: Board, move: int) -> None:
        """``move`` (or PASS) is about to be played on ``board``."""

    def choose(self, board: Board) -> int:
        """A legal move for the side to move (which has one)."""

    def close(self) -> None:
        """Release what the player holds (a subprocess, a table)."""


class BasePlayer:
    """Do-nothing defaults for the optional parts of :class:`Player`."""

    name = "player"

    def new_game(self, seed: int) -> None:
        pass

    def observe(self, board: Board, move: int) -> None:
        pass

    def choose(self, board: Board) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def close(self) -> None:
        pass


class RandomPlayer(BasePlayer):
    """A uniformly random legal move, from the game's seed."""

    name = "random"

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def new_game(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, board: Board) -> int:
        moves = board.legal_moves()
        return moves[self.rng.randrange(len(moves))]


class GreedyPlayer(BasePlayer):
    """Most discs flipped now (ties: the first square in a1..h8 order)."""

    name = "greedy"

    def choose(self, board: Board) -> int:
        return max(board.legal_moves(), key=lambda m: (bin(board.flips(m)).count("1"), -m))


def weighted_piece_value(weights: Sequence[float], mine: int, theirs: int) -> float:
    """Σ weights over my discs − Σ over the opponent's (squares a1..h8)."""
    return (sum(w for i, w in enumerate(weights) if mine >> i & 1)
            - sum(w for i, w in enumerate(weights) if theirs >> i & 1))


class WeightedSquaresPlayer(BasePlayer):
    """One ply on a weighted piece counter: the move after which the mover's
    discs minus the opponent's, each weighted by its square, are largest
    (ties: the first square in a1..h8 order)."""

    def __init__(self, weights: Sequence[float], name: str) -> None:
        if len(weights) != 64:
            raise UserError(f"{name}: {len(weights)} square weights, expected 64")
        self.weights = tuple(weights)
        self.name = name

    def choose(self, board: Board) -> int:
        def value(move: int) -> float:
            board.play(move)
            mine, theirs = board.opponent, board.player
            board.undo()
            return weighted_piece_value(self.weights, mine, theirs)
        return max(board.legal_moves(), key=lambda m: (value(m), -m))


class SquareWeightsPlayer(WeightedSquaresPlayer):
    """The classic positional player (corners good, X- and C-squares bad)."""

    def __init__(self) -> None:
        super().__init__(SQUARE_WEIGHTS, "square-weights")


class ChromosomePlayer(BasePlayer):
    """An evolved individual of any family (a chromosome, a network)
    searching to a fixed depth (exact at ``exact_empties`` empties or fewer)."""

    def __init__(self, chromosome: Individual, depth: int, exact_empties: int = 8, name: str | None = None,
                 tt_bits: int = 14, patterns: str | None = None) -> None:
        """``patterns``: the pattern table version (None: the newest)."""
        self.name = name or str(chromosome)
        self.depth = depth
        self.exact = exact_empties
        self.searcher = Searcher(evaluator_of(chromosome, patterns), tt_bits=tt_bits)

    def new_game(self, seed: int) -> None:
        self.searcher.clear()

    def choose(self, board: Board) -> int:
        move = self.searcher.search(board, depth=self.depth, exact_empties=self.exact).move
        assert move is not None, "choose() is only asked while the game goes on"
        return move


class EpsilonPlayer(BasePlayer):
    """``inner``, except that with probability ``epsilon`` a move is a
    uniformly random legal one (the Othello League's forced randomisation,
    which makes deterministic players meet many positions)."""

    def __init__(self, inner: Player, epsilon: float) -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise UserError(f"epsilon {epsilon} is outside 0..1")
        self.inner = inner
        self.epsilon = epsilon
        self.name = f"{inner.name} (ε={epsilon:g})"
        self.rng = random.Random(0)

    def new_game(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.inner.new_game(self.rng.getrandbits(63))

    def observe(self, board: Board, move: int) -> None:
        self.inner.observe(board, move)

    def choose(self, board: Board) -> int:
        if self.rng.random() < self.epsilon:
            moves = board.legal_moves()
            return moves[self.rng.randrange(len(moves))]
        return self.inner.choose(board)

    def close(self) -> None:
        self.inner.close()


def play(black: Player, white: Player, opening: Sequence[int] = (), seed: int = 0,
         board: Board | None = None) -> int:
    """One game from the start: the opening's moves, then the players'.
    Returns Black's final margin (WOF). Every player hears every move.

    Args:
        board: a new Board to play on, for a caller that wants the moves
            even when the game ends early (the referee); None: a fresh one.
    Raises:
        IllegalPlayerMoveError: naming the player and the move.
        ValueError: an illegal opening move.
        Whatever a player raises (the referee's engine faults) ends the
        game there, with ``board`` holding the moves played so far.
    """
    board = Board() if board is None else board
    black.new_game(seed)
    white.new_game(seed ^ 0x5DEECE66D)
    moves = list(opening)
    i = 0
    while not board.is_game_over():
        if board.must_pass():
            move = PASS
        elif i < len(moves):
            move = moves[i]
            if move == PASS or not board.is_legal(move):
                raise UserError(f"opening move {i + 1} ({square_name(move)}) is illegal")
        else:
            mover = black if board.side_to_move == BLACK else white
            move = mover.choose(board)
            if move == PASS or not board.is_legal(move):
                raise IllegalPlayerMoveError(f"{mover.name} chose the illegal move {square_name(move)} "
                                             f"after {board.move_list()!r}")
        for p in (black, white):
            p.observe(board, move)
        board.play(move)
        i += 1
    return board.final_score()
