"""Type stub of the compiled module genethello.core.evaluation.network_evaluator (network_evaluator.pyx)."""

from genethello.core.engine.board import Board, Move
from genethello.core.evaluation.evaluation import BaseEvaluator
from genethello.core.evaluation.ntuple import NTupleEvaluator
from genethello.core.families.network_family import NetworkIndividual
from genethello.core.families.networks import Network

class NetworkEvaluator(BaseEvaluator):
    @property
    def network(self) -> Network: ...
    @property
    def individual(self) -> NetworkIndividual | None: ...
    @property
    def ntuple(self) -> NTupleEvaluator: ...
    @property
    def pattern_version(self) -> str: ...
    def __init__(self, network: Network, individual: NetworkIndividual | None = None,
                 ntuple: NTupleEvaluator | None = None) -> None: ...
    def evaluate_move(self, board: Board, move: Move) -> int: ...
