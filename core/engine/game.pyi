"""Type stub of the Python face of game.pyx (Engine, play_game)."""

from collections.abc import Sequence
from dataclasses import dataclass

from genethello.core.engine.board import Move
from genethello.core.engine.search import Searcher
from genethello.core.engine.squares import Colour
from genethello.core.evaluation.evaluation import BaseEvaluator

class Engine:
    @property
    def searcher(self) -> Searcher: ...
    @property
    def depth(self) -> int: ...
    @property
    def exact_empties(self) -> int: ...
    @property
    def time(self) -> float: ...
    @property
    def epsilon(self) -> float: ...
    def __init__(self, evaluator: BaseEvaluator, depth: int | None = None, time: float | None = None,
                 exact_empties: int = 0, algorithm: str = "negascout-soft", tt_bits: int = 16,
                 hashing: bool = True, ordering: bool = True, epsilon: float = 0.0) -> None: ...
    @property
    def evaluator(self) -> BaseEvaluator: ...
    def use_evaluator(self, evaluator: BaseEvaluator) -> None: ...

@dataclass(frozen=True)
class GameResult:
    moves: tuple[int, ...]
    black_discs: int
    white_discs: int
    score: int
    opening_plies: int
    black_seconds: float
    white_seconds: float
    time_loss: Colour | None
    nodes: int
    @property
    def winner(self) -> Colour | None: ...
    @property
    def black_points(self) -> float: ...
    def move_list(self) -> str: ...

def random_opening(plies: int, seed: int | str | None) -> list[int]: ...
def play_game(black: Engine, white: Engine, opening: Sequence[Move] = (), clear_tables: bool = True,
              epsilon: float = 0.0, seed: int = 0) -> GameResult: ...
