# Transposition table: a flat C array of two-entry buckets, keyed by the full
# position (both bitboards), so a hit is never a hash collision.
#
# An entry is used for a cutoff only at exactly the remaining depth it was
# searched to (endgame entries carry ENDGAME_DEPTH): this keeps every search
# equal to plain minimax at its depth, which the tests check. The best move is
# used for ordering whatever the depth.

from libc.stdint cimport uint64_t, int32_t, uint8_t, int8_t

cdef enum Bound:
    BOUND_NONE = 0
    BOUND_LOWER = 1
    BOUND_UPPER = 2
    BOUND_EXACT = 3

cdef enum:
    ENDGAME_DEPTH = 127   # depth tag of exact (disc-difference) endgame entries


cdef struct TTEntry:
    uint64_t player
    uint64_t opponent
    int32_t value
    int8_t depth
    uint8_t bound
    uint8_t move
    uint8_t age


cdef struct TTable:
    TTEntry* entries      # 2 * (mask + 1) entries: bucket i holds entries 2i, 2i+1
    uint64_t mask         # bucket count - 1
    uint8_t age           # entries of another age are treated as empty


cdef inline uint64_t tt_bucket(const TTable* t, uint64_t P, uint64_t O) noexcept nogil:
    cdef uint64_t h = (P * 0x9E3779B97F4A7C15ULL) ^ ((O + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL)
    return ((h ^ (h >> 29)) & t.mask) << 1


cdef extern from *:
    """
    static inline void gt_prefetch(const void* p) { __builtin_prefetch(p); }
    """
    void gt_prefetch(const void* p) noexcept nogil


cdef inline void tt_prefetch(const TTable* t, uint64_t P, uint64_t O) noexcept nogil:
    """Ask the memory for this position's bucket ahead of its probe: a
    probe of a table far larger than the cache mostly waits for memory, and
    a node knows its children's positions well before it searches them."""
    if t != NULL and t.entries != NULL:
        gt_prefetch(t.entries + tt_bucket(t, P, O))


cdef inline TTEntry* tt_probe(const TTable* t, uint64_t P, uint64_t O) noexcept nogil:
    """The entry of this position, or NULL."""
    if t == NULL or t.entries == NULL:
        return NULL
    cdef TTEntry* e = t.entries + tt_bucket(t, P, O)
    if e[0].age == t.age and e[0].player == P and e[0].opponent == O:
        return e
    if e[1].age == t.age and e[1].player == P and e[1].opponent == O:
        return e + 1
    return NULL


cdef inline void tt_store(TTable* t, uint64_t P, uint64_t O, int depth, int value,
                          int bound, int move) noexcept nogil:
    """Keep the deeper search in the first slot; the second always takes the
    newest result."""
    if t == NULL or t.entries == NULL:
        return
    cdef TTEntry* e = t.entries + tt_bucket(t, P, O)
    cdef TTEntry* slot
    if e[0].age == t.age and e[0].player == P and e[0].opponent == O:
        slot = e
    elif e[1].age == t.age and e[1].player == P and e[1].opponent == O:
        slot = e + 1
    elif e[0].age != t.age or e[0].depth <= depth:
        e[1] = e[0]
        slot = e
    else:
        slot = e + 1
    slot.player = P
    slot.opponent = O
    slot.value = value
    slot.depth = depth
    slot.bound = bound
    slot.move = move
    slot.age = t.age


cdef class TranspositionTable:
    cdef TTable table
    cdef readonly int bits
    cdef void* mapping         # the anonymous mapping holding the entries (see ttable.pyx)
    cdef size_t mapping_length
    cpdef void clear(self) noexcept
