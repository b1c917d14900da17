"""Type stub of the Python face of evaluation.pyx (the compiled Evaluator)."""

from collections.abc import Sequence
from typing import Any

from genethello.core.engine.board import Board, Move
from genethello.core.families.chromosome import Chromosome

FEATURES: str
FEATURE_NAMES: tuple[str, ...]
EVAL_LIMIT: int

class BaseEvaluator:
    """What every evaluator kind derives from; the searches take any of them."""
    # Not an attribute of the base class itself: every kind defines it
    # (Evaluator's table, NetworkEvaluator's ''), and only kinds are built.
    @property
    def pattern_version(self) -> str: ...
    @property
    def nbytes(self) -> int: ...

class Evaluator(BaseEvaluator):
    @property
    def chromosome(self) -> Chromosome | None: ...
    @property
    def phase_bounds(self) -> tuple[int, int]: ...
    @property
    def weights(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def pattern_array(self) -> Any: ...
    @property
    def pattern_version(self) -> str: ...
    @property
    def pattern_request(self) -> str | None: ...
    def __init__(self, phase_bounds: Sequence[int] = (60, 60),
                 weights: Sequence[Sequence[int]] = ((0, 1, 0, 0, 0, 0, 0),) * 3,
                 chromosome: Chromosome | None = None, patterns: str | None = None) -> None: ...
    @classmethod
    def from_chromosome(cls, chromosome: Chromosome, patterns: str | None = None) -> Evaluator: ...
    def features(self, board: Board, move: Move) -> dict[str, int]: ...
    def evaluate_move(self, board: Board, move: Move) -> int: ...
