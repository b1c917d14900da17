"""The searches' evaluator of an n-tuple network.

:class:`NetworkEvaluator` is the network kind of
:class:`~genethello.core.evaluation.evaluation.BaseEvaluator`: it fills in the C-level
leaf evaluation (evaluation.pxd, ``NETWORK_KIND``) with the typed network
of an :class:`~genethello.core.evaluation.ntuple.NTupleEvaluator` built from the
network's quantized weights, so every search (fixed depth, negascout, exact
endgame, time control) values its leaves with the network as it does with
GeneThello's weighted features. A leaf's value is the network's value of
the position for the player who just moved, the fast 1-ply loop's rule
(ntuple_games.pyx), so a 1-ply search picks the move that loop picks.

Scale: a network's values stay within ±(EVAL_LIMIT - 1) by its quantization
(networks.py), below EVAL_WIN per disc of a decided game, so the search
ranks a won game above every evaluation as it does for chromosomes. A
staged network (networks.py) is valued in discs for the side to move, 64
units a disc (a whole-disc network: its weight a disc), clamped to
±EVAL_LIMIT like any evaluation.

In a Searcher the leaves read the searcher's incremental tuple indices
(ntuple.pxd's NTupleState, kept by an NTupleTracker the Searcher owns):
this object's own leaf evaluation has none, so ``evaluate_move`` and any
search without a tracker compute each value in full.
"""

from genethello.core.evaluation.evaluation cimport BaseEvaluator, NETWORK_KIND
from genethello.core.evaluation.ntuple cimport NTupleEvaluator, network_value, DISC_UNITS
from genethello.core.engine.board cimport Board


cdef class NetworkEvaluator(BaseEvaluator):
    """The evaluator the searches use to play an n-tuple network.

    Picklable (crosses into Ray workers): it pickles as its network.

    Args:
        network: a ``genethello.core.families.networks.Network`` (its quantized
            weights are what the search plays).
        individual: the ``NetworkIndividual`` it was built from, kept for
            reports (``repr`` names it), or None.
        ntuple: the typed network to play instead of ``network.evaluator()``
            (a learner's, patched in place as its weights move:
            genethello.core.learning.live; ``network`` then names where it
            started, and a pickled copy plays that).
    """

    cdef readonly object network        # the Network
    cdef readonly object individual     # the NetworkIndividual, or None
    cdef readonly NTupleEvaluator ntuple  # the typed network the leaf evaluation points into (kept alive)

    def __init__(self, network, individual=None, NTupleEvaluator ntuple=None):
        cdef NTupleEvaluator typed = network.evaluator() if ntuple is None else ntuple
        self.network = network
        self.individual = individual
        self.ntuple = typed
        self.leaf.kind = NETWORK_KIND
        self.leaf.network = &typed.net
        self.leaf.network_state = NULL        # a Searcher points its copy at its own NTupleTracker

    def __reduce__(self):
        return (NetworkEvaluator, (self.network, self.individual))

    @property
    def disc_units(self) -> int:
        """The value's units a disc: a staged network's 64 (DISC_UNITS), a
        whole-disc network's weight; 0 for a network of one stage (no disc
        scale). What hints and score estimates divide by."""
        if self.ntuple.n_stages == 1:
            return 0
        return self.ntuple.whole_disc_weight or DISC_UNITS

    @property
    def nbytes(self) -> int:
        """Its typed network's integers and LUTs and the real weights it was
        built from (patterns-v2-net: about 115 MB)."""
        return self.ntuple.nbytes + int(self.network.weights.nbytes)

    @property
    def pattern_version(self) -> str:
        """'': a network weighs no pattern table (GeneThello's Evaluator
        names the table version it weighs here)."""
        return ""

    def __repr__(self):
        if self.individual is not None:
            return f"NetworkEvaluator({str(self.individual)!r})"
        return f"NetworkEvaluator({self.network.architecture.name!r} network, digest {self.network.digest()})"

    def evaluate_move(self, Board board, move) -> int:
        """The value the search gives the position after the side to move
        plays ``move`` (a legal square), for that side: the network's value."""
        cdef int sq = int(move)
        if sq not in board.legal_moves():
            raise ValueError(f"{sq} is not a legal move here")
        board.play(sq)
        try:
            return network_value(&self.ntuple.net, board.pos.opponent, board.pos.player)
        finally:
            board.undo()
