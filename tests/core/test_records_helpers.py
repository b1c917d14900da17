"""Helpers for the game-record tests: random legal games, seeded."""

from __future__ import annotations

import random

from genethello.core import PASS, Board
from genethello.core.records import GameRecord

STANDARD = "standard"


def random_position(rng: random.Random) -> tuple:
    """Random (black, white, side): discs scattered at random densities."""
    density = rng.choice([0.0, 0.1, 0.3, 0.6, 0.9])
    black = white = 0
    for sq in range(64):
        if rng.random() < density:
            if rng.random() < 0.5:
                black |= 1 << sq
            else:
                white |= 1 << sq
    return black, white, rng.choice(["black", "white"])


def random_game(rng: random.Random, start: str = STANDARD, max_moves: int = 70) -> GameRecord:
    """A legal game from ``start`` ('standard', 'random' or 'midgame')
    with random moves, stopped after a random number of moves (or at the
    end), normalized (explicit passes)."""
    if start == STANDARD:
        board = Board()
    elif start == "midgame":
        board = Board()
        for _ in range(rng.randint(1, 30)):
            if board.is_game_over():
                break
            board.play(PASS if board.must_pass() else rng.choice(board.legal_moves()))
        board = Board.from_bitboards(board.black, board.white, board.side_to_move)
    else:
        board = Board.from_bitboards(*random_position(rng))
    record = GameRecord(black=board.black, white=board.white, side_to_move=board.side_to_move)
    length = rng.randint(0, max_moves)
    while len(record.moves) < length and not board.is_game_over():
        move = PASS if board.must_pass() else rng.choice(board.legal_moves())
        board.play(move)
        record.moves.append(move)
    return record.normalized()


def games_with_passes(count: int, seed: int = 7) -> list:
    """``count`` complete random games from the standard start, each with a pass."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        game = random_game(rng, max_moves=200)
        if PASS in game.moves and game.replay().is_game_over():
            found.append(game)
    return found
