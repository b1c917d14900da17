"""Type stub of the compiled module genethello.core.learning.td (td.pyx)."""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from genethello.core.evaluation.ntuple_shapes import Architecture

class TupleReader:
    n_expanded: int
    n_weights: int
    n_stages: int
    n_read: int
    mobility: bool
    def __init__(self, architecture: Architecture, stages: int, mobility: bool = False) -> None: ...

class TouchedWeights:
    count: int
    def __init__(self, size: int) -> None: ...
    def add(self, indices: npt.NDArray[np.int32]) -> None: ...
    def indices(self) -> npt.NDArray[np.int32]: ...
    def clear(self) -> None: ...

def position_value(reader: TupleReader, weights: npt.NDArray[np.float64], player: int, opponent: int) -> float: ...
def position_indices(reader: TupleReader, players: npt.NDArray[np.uint64],
                     opponents: npt.NDArray[np.uint64]) -> npt.NDArray[np.int32]: ...
def game_positions(moves: Sequence[int]) -> tuple[list[tuple[int, int, int]], int]: ...
def td_lambda_game(reader: TupleReader, weights: npt.NDArray[np.float64], moves: Sequence[int], alpha: float,
                   lam: float, touched: TouchedWeights | None = None,
                   bootstrap: npt.ArrayLike | None = None, exact: npt.ArrayLike | None = None) -> tuple[int, float]: ...
