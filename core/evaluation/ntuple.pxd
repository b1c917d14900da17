# n-tuple networks: the typed evaluation (ntuple.pyx builds the arrays;
# ntuple_shapes.py says which squares each tuple reads, networks.py where the
# integer weights come from).
#
# The network's expanded tuples (every base tuple's symmetric images) are
# laid out as *physical* tuples: images on the same squares (one set read in
# two orders) merged into one, whose LUT is the sum of theirs. Physical
# tuple t reads its lookup table (LUT) at
#   base_offset[t] + sum_k digit(squares[t][k]) * 3**k
# with digit 0 empty, 1 the side valued, 2 the other side. `weights` holds
# the LUTs for "1 = the side valued"; `weights_swapped` the same LUTs with the
# digits 1 and 2 exchanged, so that an index computed with fixed colours
# (1 = Black, 2 = White) reads White's value there (the game loop keeps such
# indices up to date move by move).

from libc.stdint cimport uint64_t, int32_t

cdef enum:
    NTUPLE_MAX_LENGTH = 10         # ntuple_shapes.MAX_TUPLE_LENGTH


cdef struct NTupleNet:
    int n_tuples                      # physical tuples
    const int32_t* base_offset        # [n_tuples] where the tuple's LUT starts in `weights`
    const int32_t* length             # [n_tuples] squares in the tuple
    const int32_t* squares            # [n_tuples * NTUPLE_MAX_LENGTH] its squares, first = lowest digit
    const int32_t* weights            # every physical LUT, digit 1 = the side valued
    const int32_t* weights_swapped    # the same, digits 1 and 2 exchanged
    const int32_t* incidence_begin    # [65] square s's incidences are [begin[s], begin[s + 1])
    const int32_t* incidence_tuple    # the expanded tuple of each incidence
    const int32_t* incidence_power    # 3**k for the square's place k in that tuple


cdef inline int tuple_index(const NTupleNet* net, int t, uint64_t mine, uint64_t theirs) noexcept nogil:
    """The LUT position (base offset included) expanded tuple `t` reads on
    the position with `mine` as digit 1 and `theirs` as digit 2."""
    cdef const int32_t* sq = net.squares + t * NTUPLE_MAX_LENGTH
    cdef int k = net.length[t] - 1
    cdef int idx = 0
    cdef int s
    while k >= 0:
        s = sq[k]
        idx = idx * 3 + <int>((mine >> s) & 1) + 2 * <int>((theirs >> s) & 1)
        k -= 1
    return net.base_offset[t] + idx


cdef inline int ntuple_value(const NTupleNet* net, uint64_t mine, uint64_t theirs) noexcept nogil:
    """The network's value of the position for the side owning `mine`: the
    sum of every tuple's LUT entry. Unclamped: networks.py picks the integer
    weights so that |value| < EVAL_LIMIT on every position. (The squares'
    digits are computed once, then each tuple reads them.)"""
    cdef int digit[64]
    cdef int s, t, k, idx, total = 0
    cdef const int32_t* sq
    for s in range(64):
        digit[s] = <int>((mine >> s) & 1) + 2 * <int>((theirs >> s) & 1)
    for t in range(net.n_tuples):
        sq = net.squares + t * NTUPLE_MAX_LENGTH
        k = net.length[t] - 1
        idx = 0
        while k >= 0:
            idx = idx * 3 + digit[sq[k]]
            k -= 1
        total += net.weights[net.base_offset[t] + idx]
    return total


cdef class NTupleEvaluator:
    cdef NTupleNet net
    cdef readonly object architecture     # the ntuple_shapes.Architecture
    cdef readonly object int_weights      # numpy int32 [n_weights]: the base LUTs, digit 1 = the side valued
    cdef object _arrays                   # the numpy arrays `net` points into (kept alive)
    cdef readonly int bound               # sum over expanded tuples of max |base LUT entry| (> any |value|)
