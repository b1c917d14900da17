"""genethello.core: one game and one engine.

The Othello rules on bitboards, the evaluation features and chromosomes, the
searches, game records and engine protocols. Everything here is about a
single game; many players and many games live in ``genethello.cluster``.
"""

from genethello.core.engine.board import BadPositionError, Board, IllegalMoveError
from genethello.core.engine.game import Engine, GameResult, play_game, random_opening
from genethello.core.engine.perft import perft
from genethello.core.engine.search import ALGORITHMS, Searcher, SearchResult
from genethello.core.engine.squares import (
    BLACK,
    PASS,
    WHITE,
    BadSquareError,
    Colour,
    join_move_list,
    opponent,
    parse_square,
    split_move_list,
    square_name,
)
from genethello.core.evaluation.evaluation import Evaluator
from genethello.core.families.chromosome import Chromosome, ChromosomeError, ChromosomeType

__all__ = [
    "BLACK", "WHITE", "Colour", "opponent",
    "PASS", "BadSquareError", "parse_square", "square_name", "split_move_list", "join_move_list",
    "Board", "IllegalMoveError", "BadPositionError", "perft",
    "Chromosome", "ChromosomeError", "ChromosomeType", "Evaluator",
    "ALGORITHMS", "SearchResult", "Searcher",
    "Engine", "GameResult", "play_game", "random_opening",
]
