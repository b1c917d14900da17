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
#
# Staged networks (networks.py, S > 1 stages): one set of LUTs per game
# stage, the stage of a position its move number's (discs - 4) through
# `stage_of_move`; stage s's LUTs are `weights + s * stage_size`. Their
# integers are in 1/DISC_UNITS disc. S = 1 is today's network (stage 0
# always, `stage_size` unused).
#
# A network may also weigh the side to move's mobility (networks.py,
# kinds ARCH-sS-m): `mobility` holds, per stage, MOBILITY_ENTRIES integers
# (the mover's view: the value the mover gets when the side to move next
# has c legal moves, c capped at MOBILITY_ENTRIES - 1), added to the LUT
# sum. It is no tuple (a move generation, not squares), so the tuple sums
# below leave it out; the leaf interface (evaluation.pxd) adds it where
# the searches already count the other side's moves, and `network_value`
# is the whole value.
#
# Inside a search the tuple indices are kept incrementally (NTupleState):
# a leaf moves only the tuples through the squares that changed since the
# last position valued, then reads one LUT entry per tuple. The leaves of a
# depth-1 node (where a search spends most of its time) start from the
# node's indices instead: children_frame moves the state to the node
# (ntuple_anchor), and each leaf copies them and moves the tuples through
# its own placed and flipped squares (ntuple_child_value), with nothing to
# restore; for networks of many tuples (CORRECTED_TUPLES) each leaf is
# instead the node's sum plus, per tuple through its changed squares, the
# entry after less the entry before (ntuple_child_corrected), the indices
# moved and moved back in place. bench_network_search, depth 4, nodes/s as
# a ratio of fdmxcp_52's in the same run: leaves computed in full, all-2
# 0.18-0.22x, patterns-v2-net 0.20x; incremental from the last leaf, all-2
# 0.80-0.85x, patterns-v2-net 0.46-0.49x; leaves on a copy of the node's
# indices, all-2 0.79-0.88x, all-4+2x2 0.60-0.70x, patterns-v2-net
# 0.53-0.55x; all-2 and all-4+2x2 corrected, 0.94-0.99x and 0.66-0.70x
# (patterns-v2-net, 46 tuples on int16 LUTs, keeps the copy: 0.56-0.62x).

from libc.stdint cimport uint64_t, int16_t, int32_t
from libc.string cimport memcpy
from genethello.core.engine.bitboard cimport popcount, gt_lowest_square, legal_moves

cdef enum:
    NTUPLE_MAX_LENGTH = 10         # ntuple_shapes.MAX_TUPLE_LENGTH
    CORRECTED_TUPLES = 64          # networks of more tuples (and int32 LUTs) value a node's leaves as
                                   # the node's sum plus corrections (ntuple_child_corrected)
    DISC_UNITS = 64                # a staged network's integers per disc (networks.DISC_UNITS)
    DISC_SHIFT = 6                 # log2(DISC_UNITS)


# exported to Python (genethello.core.evaluation.ntuple.MOBILITY_ENTRIES)
cpdef enum:
    MOBILITY_ENTRIES = 34          # a mobility network's entries a stage: 0..33 legal moves


cdef struct NTupleNet:
    int n_tuples                      # physical tuples
    int n_stages                      # 1: one set of LUTs (today's networks); S: one set per stage
    int stage_size                    # LUT entries of one stage (every physical LUT)
    int whole_disc_weight             # 0: the value is the sum; k > 0: k * floor(sum / DISC_UNITS)
    const int32_t* stage_of_move      # [61] move number (discs - 4) -> stage (all 0 when n_stages == 1)
    const int32_t* base_offset        # [n_tuples] where the tuple's LUT starts in `weights`
    const int32_t* length             # [n_tuples] squares in the tuple
    const int32_t* squares            # [n_tuples * NTUPLE_MAX_LENGTH] its squares, first = lowest digit
    const int32_t* weights            # every physical LUT, digit 1 = the side valued
    const int32_t* weights_swapped    # the same, digits 1 and 2 exchanged
    const int16_t* weights16          # `weights` as int16 for large LUTs whose entries fit (else NULL),
    const int16_t* weights16_swapped  # and `weights_swapped`: what the incremental leaves read (half the cache)
    const int32_t* incidence_begin    # [65] square s's incidences are [begin[s], begin[s + 1])
    const int32_t* incidence_tuple    # the expanded tuple of each incidence
    const int32_t* incidence_power    # 3**k for the square's place k in that tuple
    const int32_t* mobility           # NULL, or [n_stages * MOBILITY_ENTRIES]: the mover's value by the
                                      # side to move's legal moves, in the mover's view (above)
    const int32_t* mobility_max       # NULL, or [n_stages]: each stage's largest mobility entry (a bound)


cdef struct NTupleState:
    # The incremental indices a search keeps (one per Searcher, never
    # shared between threads): `index[t]` is physical tuple t's LUT position
    # (base offset included) on the position (`first` as digit 1, `second`
    # as digit 2). Any position is a valid start (the empty board: every
    # index its base offset); each valuation moves it to the position
    # valued, so the work is the squares that differ, whatever the path.
    uint64_t first
    uint64_t second
    int32_t* index                    # [n_tuples]
    int32_t* scratch                  # [n_tuples]: a child's indices, made from a parent's (ntuple_child_value)
    bint check                        # also compute every value in full and count disagreements
    uint64_t checked                  # values computed both ways (check mode)
    uint64_t mismatches               # of those, values that differed (a bug if ever > 0)


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


cdef inline int stage_offset_at(const NTupleNet* net, int discs) noexcept nogil:
    """Where the LUTs of the stage of positions of `discs` discs start in
    `weights` (0 for a network of one stage)."""
    cdef int n
    if net.n_stages == 1:
        return 0
    n = discs - 4
    n = 0 if n < 0 else (60 if n > 60 else n)
    return net.stage_of_move[n] * net.stage_size


cdef inline int stage_offset(const NTupleNet* net, uint64_t mine, uint64_t theirs) noexcept nogil:
    """Where the LUTs of the position's stage start in `weights` (0 for a
    network of one stage)."""
    if net.n_stages == 1:
        return 0
    return stage_offset_at(net, popcount(mine | theirs))


cdef inline int finish_value(const NTupleNet* net, int total) noexcept nogil:
    """The network's value from its LUT sum: the sum itself, or for a
    whole-disc network (the pattern table's p gene) its whole discs
    (floored) times the weight."""
    if net.whole_disc_weight:
        return net.whole_disc_weight * (total >> DISC_SHIFT)
    return total


cdef inline const int32_t* mobility_row(const NTupleNet* net, int move_number) noexcept nogil:
    """The mobility entries of the stage of positions at `move_number`
    (discs - 4), or NULL for a network without them."""
    if net.mobility == NULL:
        return NULL
    return net.mobility + net.stage_of_move[0 if move_number < 0 else (60 if move_number > 60 else move_number)] \
        * MOBILITY_ENTRIES


cdef inline int mobility_entry(const int32_t* row, uint64_t moves) noexcept nogil:
    """The entry of a mobility row for the legal moves `moves`."""
    cdef int c = popcount(moves)
    return row[c if c < MOBILITY_ENTRIES else MOBILITY_ENTRIES - 1]


cdef inline int ntuple_value(const NTupleNet* net, uint64_t mine, uint64_t theirs) noexcept nogil:
    """The network's value of the position for the side owning `mine`: the
    sum of every tuple's LUT entry in the position's stage. Unclamped:
    networks.py picks today's integer weights so that |value| < EVAL_LIMIT
    on every position (a staged network's, in discs, are clamped by the
    search). (The squares' digits are computed once, then each tuple reads
    them.) The full computation: the reference of `ntuple_value_tracked`."""
    cdef int digit[64]
    cdef int s, t, k, idx, total = 0
    cdef const int32_t* sq
    cdef const int32_t* lut = net.weights + stage_offset(net, mine, theirs)
    for s in range(64):
        digit[s] = <int>((mine >> s) & 1) + 2 * <int>((theirs >> s) & 1)
    for t in range(net.n_tuples):
        sq = net.squares + t * NTUPLE_MAX_LENGTH
        k = net.length[t] - 1
        idx = 0
        while k >= 0:
            idx = idx * 3 + digit[sq[k]]
            k -= 1
        total += lut[net.base_offset[t] + idx]
    return finish_value(net, total)


cdef inline int network_value(const NTupleNet* net, uint64_t mine, uint64_t theirs) noexcept nogil:
    """The network's whole value for the side owning `mine` (which just
    moved): the tuple sum (ntuple_value) plus, for a mobility network, the
    entry for the other side's legal moves."""
    cdef int value = ntuple_value(net, mine, theirs)
    cdef const int32_t* row = mobility_row(net, popcount(mine | theirs) - 4)
    if row != NULL:
        value += mobility_entry(row, legal_moves(theirs, mine))
    return value


cdef inline void track_position(const NTupleNet* net, NTupleState* st, uint64_t first, uint64_t second,
                                uint64_t changed) noexcept nogil:
    """Move the state's indices to the position (`first` digit 1, `second`
    digit 2), `changed` being the squares whose digit differs from the
    state's position: each changed square moves the tuples through it
    (Edax's eval_update / eval_restore, for any distance between the two
    positions: a move made, a move unmade, a pass, or several at once).
    Everything read in the loop is held in locals first: the build does
    not assume strict aliasing, so each write to `index` would otherwise
    reload the network's pointers."""
    cdef int s, k, end, delta
    cdef int32_t* index = st.index
    cdef const int32_t* begin = net.incidence_begin
    cdef const int32_t* tuples = net.incidence_tuple
    cdef const int32_t* powers = net.incidence_power
    cdef uint64_t old_first = st.first, old_second = st.second
    while changed:
        s = gt_lowest_square(changed)
        changed &= changed - 1
        delta = (<int>((first >> s) & 1) + 2 * <int>((second >> s) & 1)
                 - <int>((old_first >> s) & 1) - 2 * <int>((old_second >> s) & 1))
        k = begin[s]
        end = begin[s + 1]
        while k < end:
            index[tuples[k]] += powers[k] * delta
            k += 1
    st.first = first
    st.second = second


cdef inline bint corrected_leaves(const NTupleNet* net) noexcept nogil:
    """Whether a node's leaves are valued as the node's sum plus
    corrections (many tuples, int32 LUTs) rather than on a copy of its
    indices."""
    return net.n_tuples > CORRECTED_TUPLES and net.weights16 == NULL


cdef inline int ntuple_anchor(const NTupleNet* net, NTupleState* st, uint64_t P, uint64_t O,
                              int* node_sum) noexcept nogil:
    """Move the state to a node whose children are about to be valued (P
    to move there, the children's mover), in the colouring closer to its
    own; returns P's digit (1 or 2) in it, for ntuple_child_value. For a
    network of corrected leaves, `node_sum` gets the node's LUT sum read
    in the leaves' stage for P (what ntuple_child_corrected corrects)."""
    cdef uint64_t same = (st.first ^ P) | (st.second ^ O)
    cdef uint64_t swap = (st.first ^ O) | (st.second ^ P)
    cdef int digit = 1, t, n = net.n_tuples, total = 0
    cdef const int32_t* lut
    cdef const int32_t* idx = st.index
    if popcount(swap) < popcount(same):
        track_position(net, st, O, P, swap)
        digit = 2
    else:
        track_position(net, st, P, O, same)
    if corrected_leaves(net):
        lut = (net.weights if digit == 1 else net.weights_swapped) + stage_offset_at(net, popcount(P | O) + 1)
        for t in range(n):
            total += lut[idx[t]]
        node_sum[0] = total
    return digit


cdef inline int lookup_sum(const NTupleNet* net, const int32_t* idx, bint swapped, int offset) noexcept nogil:
    """The sum of every tuple's LUT entry at the indices ``idx`` (in the
    stage at ``offset``; ``swapped``: the LUTs of the colours swapped), from
    the int16 copies where the network has them."""
    cdef int t, n = net.n_tuples, total = 0
    cdef const int32_t* lut
    cdef const int16_t* lut16
    if net.weights16 != NULL:
        lut16 = (net.weights16_swapped if swapped else net.weights16) + offset
        for t in range(n):
            total += lut16[idx[t]]
    else:
        lut = (net.weights_swapped if swapped else net.weights) + offset
        for t in range(n):
            total += lut[idx[t]]
    return total


cdef inline int checked_value(const NTupleNet* net, NTupleState* st, int value, uint64_t mine,
                              uint64_t theirs) noexcept nogil:
    """``value``, the incremental leaf value of the position (``mine`` to
    have moved); in check mode the full value is computed too and a
    disagreement counted."""
    if st.check:
        st.checked += 1
        if value != ntuple_value(net, mine, theirs):
            st.mismatches += 1
    return value


cdef inline int ntuple_child_corrected(const NTupleNet* net, NTupleState* st, int digit, int node_sum,
                                       uint64_t mover, uint64_t other, uint64_t placed,
                                       uint64_t flipped) noexcept nogil:
    """ntuple_child_value for networks of many tuples: the node's sum (in
    the leaves' stage) plus, for each tuple through a changed square, its
    entry after the change less its entry before, square by square (a
    tuple through several changed squares telescopes); the indices are
    moved in place and moved back. A leaf then costs two lookups per
    incidence of its changed squares instead of one per tuple."""
    cdef int s, k, end, total = node_sum, i, j, step
    cdef int32_t* idx = st.index
    cdef const int32_t* begin = net.incidence_begin
    cdef const int32_t* tuples = net.incidence_tuple
    cdef const int32_t* powers = net.incidence_power
    cdef const int32_t* lut = (net.weights if digit == 1 else net.weights_swapped) + stage_offset(net, mover, other)
    cdef uint64_t changed = placed | flipped
    cdef uint64_t rest = changed
    while rest:
        s = gt_lowest_square(rest)
        rest &= rest - 1
        step = digit if (placed >> s) & 1 else 2 * digit - 3   # empty -> mover; other -> mover
        k = begin[s]
        end = begin[s + 1]
        while k < end:
            i = idx[tuples[k]]
            j = i + powers[k] * step
            total += lut[j] - lut[i]
            idx[tuples[k]] = j
            k += 1
    rest = changed
    while rest:                                                # and back to the node
        s = gt_lowest_square(rest)
        rest &= rest - 1
        step = digit if (placed >> s) & 1 else 2 * digit - 3
        k = begin[s]
        end = begin[s + 1]
        while k < end:
            idx[tuples[k]] -= powers[k] * step
            k += 1
    return checked_value(net, st, finish_value(net, total), mover, other)


cdef inline int ntuple_child_value(const NTupleNet* net, NTupleState* st, int digit, uint64_t mover,
                                   uint64_t other, uint64_t placed, uint64_t flipped) noexcept nogil:
    """The value for the mover of a child of the node the state is anchored
    at (ntuple_anchor; `digit` the mover's there): the node's indices
    copied, the placed square and the flipped ones moved in the copy, one
    lookup a tuple; the state itself is untouched, so the next child
    starts from the node again (no restore). (`mover`, `other`: the child,
    for its stage and check mode.)"""
    cdef int n = net.n_tuples, s, k, end
    cdef int32_t* idx = st.scratch
    cdef const int32_t* begin = net.incidence_begin
    cdef const int32_t* tuples = net.incidence_tuple
    cdef const int32_t* powers = net.incidence_power
    cdef int offset = stage_offset(net, mover, other)
    memcpy(idx, st.index, n * sizeof(int32_t))
    s = gt_lowest_square(placed)
    k = begin[s]
    end = begin[s + 1]
    while k < end:                                   # empty -> the mover's digit
        idx[tuples[k]] += powers[k] * digit
        k += 1
    while flipped:                                   # the other's digit -> the mover's: +-1
        s = gt_lowest_square(flipped)
        flipped &= flipped - 1
        k = begin[s]
        end = begin[s + 1]
        while k < end:
            idx[tuples[k]] += powers[k] * (2 * digit - 3)
            k += 1
    return checked_value(net, st, finish_value(net, lookup_sum(net, idx, digit != 1, offset)), mover, other)


cdef inline int ntuple_value_tracked(const NTupleNet* net, NTupleState* st, uint64_t mine,
                                     uint64_t theirs) noexcept nogil:
    """ntuple_value through the search's incremental indices: the state is
    moved to the position (in the colouring closer to its own: `mine` as
    digit 1, or as digit 2, read through `weights_swapped`), then each tuple
    costs one lookup (checked_value: the check mode)."""
    cdef uint64_t same = (st.first ^ mine) | (st.second ^ theirs)
    cdef uint64_t swap = (st.first ^ theirs) | (st.second ^ mine)
    cdef const int32_t* idx = st.index
    cdef bint swapped = popcount(swap) < popcount(same)
    cdef int offset = stage_offset(net, mine, theirs)
    if swapped:
        track_position(net, st, theirs, mine, swap)
    else:
        track_position(net, st, mine, theirs, same)
    return checked_value(net, st, finish_value(net, lookup_sum(net, idx, swapped, offset)), mine, theirs)


cdef class NTupleEvaluator:
    cdef NTupleNet net
    cdef readonly object architecture     # the ntuple_shapes.Architecture
    cdef readonly object int_weights      # numpy int32 [n_weights]: the base LUTs, digit 1 = the side valued
    cdef object _arrays                   # the numpy arrays `net` points into (kept alive)
    cdef readonly int bound               # sum over expanded tuples of max |base LUT entry| (> any |value|)
    cdef readonly int n_stages            # sets of LUTs (1: today's networks)
    cdef readonly int whole_disc_weight   # 0, or k: the value is k times the sum's whole discs
    cdef readonly bint mobility           # whether it weighs the side to move's mobility (net.mobility)
    cdef object _mobility                 # None, or (the mobility entries (mover's view), each stage's max), int32
    cdef void set_mobility_entry(self, int i, int value) noexcept


cdef class NTupleTracker:
    # A search's incremental indices (NTupleState) for networks of one
    # layout; what the state's `index` points into is kept alive here.
    cdef NTupleState state
    cdef object _index                    # numpy int32 [n_tuples]
    cdef object _scratch                  # numpy int32 [n_tuples]
    cdef object _layout                   # the layout whose base offsets start the indices
    cdef void reset(self) except *
