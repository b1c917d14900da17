"""Type stub of the compiled module genethello.core.learning.live (live.pyx)."""

import numpy as np
import numpy.typing as npt

from genethello.core.evaluation.ntuple import NTupleEvaluator
from genethello.core.evaluation.ntuple_shapes import Architecture
from genethello.core.families.networks import Network
from genethello.core.learning.td import TouchedWeights

class LiveNetwork:
    weights: npt.NDArray[np.float64]
    evaluator: NTupleEvaluator
    pending: TouchedWeights
    architecture: Architecture
    stages: int
    whole_disc_weight: int
    mobility: bool
    limit: float
    grid: float
    int16: bool
    def __init__(self, network: Network, limit: float, grid: float) -> None: ...
    def settle(self, touched: TouchedWeights, round_to_grid: bool = False) -> int: ...
    def luts(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.int16] | None,
                            npt.NDArray[np.int16] | None]: ...
    def network(self) -> Network: ...
