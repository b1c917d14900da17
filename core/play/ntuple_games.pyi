"""Type stub of the compiled module genethello.core.play.ntuple_games (ntuple_games.pyx)."""

from collections.abc import Sequence
from typing import Literal, overload

import numpy as np
import numpy.typing as npt

from genethello.core.evaluation.ntuple import NTupleEvaluator

def mix64(x: int) -> int: ...
@overload
def play_games(contestants: Sequence[NTupleEvaluator | str], black: npt.ArrayLike, white: npt.ArrayLike,
               game_ids: npt.ArrayLike, seed: int, epsilon: float = ..., openings: Sequence[Sequence[int]] | None = ...,
               opening_index: npt.ArrayLike | None = ..., incremental: bool = ...,
               record: Literal[False] = ...) -> npt.NDArray[np.int32]: ...
@overload
def play_games(contestants: Sequence[NTupleEvaluator | str], black: npt.ArrayLike, white: npt.ArrayLike,
               game_ids: npt.ArrayLike, seed: int, epsilon: float = ..., openings: Sequence[Sequence[int]] | None = ...,
               opening_index: npt.ArrayLike | None = ..., incremental: bool = ...,
               *, record: Literal[True]) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int8]]: ...
def points_from_margins(margins: npt.ArrayLike) -> npt.NDArray[np.float64]: ...
def member_points(n_members: int, black: npt.ArrayLike, white: npt.ArrayLike,
                  margins: npt.ArrayLike) -> npt.NDArray[np.float64]: ...
