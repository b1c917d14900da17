# The evaluation every search calls: one C interface over the kinds of
# evaluator (the leaf evaluation), and the Python evaluator objects that fill
# it in. A search holds a LeafEval (a kind and that kind's data) and values
# positions only through the functions below, which switch on the kind: the
# kind is the same at every leaf of a search, so the branch is predicted and
# no leaf pays a call through a pointer. The kinds: GeneThello's weighted
# features (features.pxd) and n-tuple networks (ntuple.pxd, filled in by
# network_evaluator.pyx). A further kind adds its tag, its field in LeafEval,
# a case in leaf_frame and leaf_partial, and a BaseEvaluator subclass that
# fills in its LeafEval.
#
# Values are from the point of view of the player who just moved (the
# mover), within +-EVAL_LIMIT; the search negates as negamax requires.

from libc.stdint cimport uint64_t, int32_t
from genethello.core.engine.bitboard cimport popcount, CORNERS
from genethello.core.evaluation.features cimport EvalWeights, F_MOBILITY, phase_weights, score_without_mobility
from genethello.core.evaluation.ntuple cimport (
    NTupleNet, NTupleState, ntuple_value, ntuple_value_tracked, ntuple_anchor, ntuple_child_value,
    ntuple_child_corrected, corrected_leaves, mobility_row, mobility_entry,
)

# The value scale, exported to Python (genethello.core.evaluation.evaluation.EVAL_LIMIT,
# EVAL_WIN) so the engine protocols read it from here instead of copying it.
cpdef enum:
    # |evaluation| stays below this, so a decided game (EVAL_WIN per disc of
    # the final margin) always outranks any evaluation.
    EVAL_LIMIT = 4000
    EVAL_WIN = 4096

cdef enum EvaluatorKind:
    NO_KIND = 0                        # a LeafEval not filled in (a fresh BaseEvaluator): never searched
    FEATURES_KIND = 1                  # GeneThello's weighted features (features.pxd)
    NETWORK_KIND = 2                   # an n-tuple network (ntuple.pxd), with mobility entries or without


cdef struct LeafEval:
    int kind                           # an EvaluatorKind: which field below is set
    const EvalWeights* features        # FEATURES_KIND: the weights (inside the Evaluator object)
    const NTupleNet* network           # NETWORK_KIND: the network (inside the NetworkEvaluator's NTupleEvaluator)
    NTupleState* network_state         # NETWORK_KIND: the search's incremental indices (its Searcher's
                                       # NTupleTracker), or NULL: every leaf computed in full


cdef struct LeafFrame:
    # What leaves of one move number share, worked out once for all of them
    # (the children of one node, or a lone leaf): leaf_frame, then for each
    # leaf leaf_partial and leaf_complete.
    int move_number                    # the leaves' discs - 4
    int mobility_weight                # the value is partial less this times the other side's move count
    const int32_t* mobility_row        # NETWORK_KIND with mobility entries: the value is partial plus the
                                       # row's entry for the other side's move count (else NULL)
    int partial_slack                  # partial + this bounds the value from above when mobility_weight >= 0
    const int* k                       # FEATURES_KIND: the phase's weights
    int corner_balance                 # FEATURES_KIND: the mover's corners less the other's, before the move
    int network_digit                  # NETWORK_KIND: 0, or the leaves' mover's digit in the search's
                                       # indices, anchored at the leaves' parent (children_frame)
    int network_sum                    # NETWORK_KIND, corrected leaves: the parent's sum in the leaves' stage


cdef inline int clamp_evaluation(int score) noexcept nogil:
    """A raw value brought within +-EVAL_LIMIT (so a decided game always
    outranks it). Monotone: a bound on the raw value bounds the result."""
    if score > EVAL_LIMIT:
        return EVAL_LIMIT
    if score < -EVAL_LIMIT:
        return -EVAL_LIMIT
    return score


cdef inline LeafFrame leaf_frame(const LeafEval* e, int move_number, int corner_balance) noexcept nogil:
    """The frame of leaves at `move_number`, the mover's corners less the
    other's being `corner_balance` before the move that made the leaf."""
    cdef LeafFrame f
    f.move_number = move_number
    f.mobility_weight = 0              # NETWORK_KIND: the partial value and the mobility row's entry
    f.mobility_row = NULL
    f.partial_slack = 0
    f.network_digit = 0
    if e.kind == NETWORK_KIND and e.network.mobility != NULL:
        f.mobility_row = mobility_row(e.network, move_number)
        f.partial_slack = e.network.mobility_max[e.network.stage_of_move[move_number]]
    if e.kind == FEATURES_KIND:
        f.k = phase_weights(e.features, move_number)
        f.mobility_weight = f.k[F_MOBILITY]
        f.corner_balance = corner_balance
    return f


cdef inline LeafFrame children_frame(const LeafEval* e, uint64_t P, uint64_t O) noexcept nogil:
    """The frame of the leaves one move below a node where P is to move
    (a network's search indices are moved to the node: each leaf then
    starts from them, ntuple.pxd's ntuple_child_value)."""
    cdef LeafFrame f = leaf_frame(e, popcount(P | O) - 3, popcount(P & CORNERS) - popcount(O & CORNERS))
    if e.kind == NETWORK_KIND and e.network_state != NULL:
        f.network_digit = ntuple_anchor(e.network, e.network_state, P, O, &f.network_sum)
    return f


cdef inline int leaf_partial(const LeafEval* e, const LeafFrame* f, uint64_t mover, uint64_t other,
                             uint64_t flipped, uint64_t placed) noexcept nogil:
    """The one place a leaf is valued: the position right after `mover`
    placed the disc `placed` (a bit; 0 when the frame already counts it)
    and turned `flipped`, less its mobility term, unclamped. The leaf's
    value is leaf_complete of this. With f.mobility_weight >= 0 this plus
    f.partial_slack bounds the value from above (a search may skip
    generating the other side's moves when the bound is no better than
    what it has)."""
    if e.kind == FEATURES_KIND:
        return score_without_mobility(e.features, f.k, mover, other, popcount(flipped), f.move_number,
                                      f.corner_balance + (1 if placed & CORNERS else 0))
    if e.kind == NETWORK_KIND:
        # The network's value for the mover (its discs are digit 1), which
        # already holds the placed disc; |value| < EVAL_LIMIT by the
        # quantization (networks.py), so clamping never changes it (a
        # staged network's, in discs, is clamped like any evaluation). In a
        # search the indices are kept incrementally (ntuple.pxd).
        if f.network_digit and placed:
            if corrected_leaves(e.network):
                return ntuple_child_corrected(e.network, e.network_state, f.network_digit, f.network_sum,
                                              mover, other, placed, flipped)
            return ntuple_child_value(e.network, e.network_state, f.network_digit, mover, other, placed, flipped)
        if e.network_state != NULL:
            return ntuple_value_tracked(e.network, e.network_state, mover, other)
        return ntuple_value(e.network, mover, other)
    return 0


cdef inline int leaf_complete(const LeafFrame* f, int partial, uint64_t other_moves) noexcept nogil:
    """A leaf's value from its partial value and the legal moves of the side
    to move next (the mover's opponent)."""
    if f.mobility_row != NULL:
        return clamp_evaluation(partial + mobility_entry(f.mobility_row, other_moves))
    return clamp_evaluation(partial - f.mobility_weight * popcount(other_moves))


cdef inline int evaluate_leaf(const LeafEval* e, uint64_t mover, uint64_t other, uint64_t flipped,
                              uint64_t other_moves) noexcept nogil:
    """The value of the position right after `mover` played a move that
    turned `flipped`; `other_moves` are the legal moves of the side to move
    next (the mover's opponent). Positive is good for the mover."""
    cdef LeafFrame f = leaf_frame(e, popcount(mover | other) - 4,
                                  popcount(mover & CORNERS) - popcount(other & CORNERS))
    return leaf_complete(&f, leaf_partial(e, &f, mover, other, flipped, 0), other_moves)


cdef class BaseEvaluator:
    # What a Searcher searches with: any evaluator object fills in its
    # LeafEval and keeps alive what that points to.
    cdef LeafEval leaf


cdef class Evaluator(BaseEvaluator):
    cdef EvalWeights w
    cdef readonly object chromosome   # the Chromosome it was built from, or None
    cdef readonly tuple phase_bounds  # (o, e)
    cdef readonly tuple weights       # 3 tuples of 7 ints, "fdmxcpr" order
    cdef readonly object pattern_array  # the shared pattern table (numpy int16) when used, else None
    cdef readonly str pattern_version   # its version ('patterns-v1+SHA12'), '' when unused
    cdef readonly object pattern_request  # the version asked for (None: the newest)
