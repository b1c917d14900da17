"""Type stub of the Python face of patterns.pyx (the batch pattern functions)."""

from typing import Any

import numpy as np
import numpy.typing as npt

#: (name, squares, transforms, offset into a stage's table, configurations)
Shape = tuple[str, tuple[int, ...], tuple[str, ...], int, int]

SHAPES: tuple[Shape, ...]
SHAPE_MIRRORS: tuple[tuple[int, ...] | None, ...]
LINE_SHAPES: tuple[Shape, ...]
SHAPES_V2: tuple[Shape, ...]
SHAPE_MIRRORS_V2: tuple[tuple[int, ...] | None, ...]
V1: int
V2: int
GEOMETRIES: dict[int, dict[str, Any]]
STAGE_SIZE_: int
N_STAGES_: int
N_INSTANCES_: int
STAGE_WIDTH_: int
TABLE_SCALE_: int
PATTERN_SHIFT_: int
REPLAY_ILLEGAL: int
REPLAY_UNFINISHED: int
REPLAY_AFTER_END: int

def stage_of_move(move_number: int, geometry: int = ...) -> int: ...
def stage_moves(stage: int, geometry: int = ...) -> tuple[int, int]: ...
def indices(movers: npt.ArrayLike, others: npt.ArrayLike, geometry: int = ...) -> npt.NDArray[np.int32]: ...
def move_numbers(movers: npt.ArrayLike, others: npt.ArrayLike) -> npt.NDArray[np.int64]: ...
def geometry_of_table(table: npt.ArrayLike) -> int: ...
def scores(table: npt.ArrayLike, movers: npt.ArrayLike, others: npt.ArrayLike,
           move_numbers: npt.ArrayLike | None = None) -> npt.NDArray[np.int32]: ...
def simple_predictors(movers: npt.ArrayLike, others: npt.ArrayLike) -> tuple[npt.NDArray[np.int32],
                                                                            npt.NDArray[np.int32],
                                                                            npt.NDArray[np.int32]]: ...
def replay_games(games: list[list[int]]) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64],
                                                  npt.NDArray[np.uint8], npt.NDArray[np.int8],
                                                  npt.NDArray[np.int32], list[tuple[int, int, int]]]: ...
