"""Type stub of the compiled module genethello.core.network_evaluator (network_evaluator.pyx)."""

from genethello.core.board import Board, Move
from genethello.core.evaluation import BaseEvaluator
from genethello.core.network_family import NetworkIndividual
from genethello.core.networks import Network
from genethello.core.ntuple import NTupleEvaluator

class NetworkEvaluator(BaseEvaluator):
    @property
    def network(self) -> Network: ...
    @property
    def individual(self) -> NetworkIndividual | None: ...
    @property
    def ntuple(self) -> NTupleEvaluator: ...
    def __init__(self, network: Network, individual: NetworkIndividual | None = None) -> None: ...
    def evaluate_move(self, board: Board, move: Move) -> int: ...
