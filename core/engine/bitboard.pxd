# Bitboard primitives shared by every hot loop of the core.
#
# A position is two 64-bit boards relative to the side to move (`P`, the player
# about to move, and `O`, the opponent), as in Edax. Bit `row * 8 + col` is the
# square at column a..h (col 0..7) and row 1..8 (row 0..7): a1 = bit 0,
# h1 = bit 7, a8 = bit 56, h8 = bit 63. Everything here is `inline noexcept
# nogil` so that it compiles into the caller's loop: no call, no GIL.

from libc.stdint cimport uint64_t, int64_t

cdef extern from *:
    """
    /* popcount and bit scans: the builtin instructions when the compiler may
       use them (-mpopcnt / -march=native), a branch-free SWAR count otherwise,
       so that the default build runs on any x86-64 or ARM CPU. */
    static inline int gt_popcount(uint64_t x) {
    #if defined(__POPCNT__) || defined(__ARM_NEON) || defined(__aarch64__)
        return __builtin_popcountll(x);
    #else
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    #endif
    }
    /* index of the lowest set bit; x must not be 0 */
    static inline int gt_lowest_square(uint64_t x) { return __builtin_ctzll(x); }
    /* index of the highest set bit; x must not be 0 */
    static inline int gt_highest_square(uint64_t x) { return 63 - __builtin_clzll(x); }
    #define GT_FILE_A 0x0101010101010101ULL
    #define GT_FILE_H 0x8080808080808080ULL
    #define GT_NOT_FILE_A 0xFEFEFEFEFEFEFEFEULL
    #define GT_NOT_FILE_H 0x7F7F7F7F7F7F7F7FULL
    #define GT_INNER_FILES 0x7E7E7E7E7E7E7E7EULL
    #define GT_CORNERS 0x8100000000000081ULL
    #define GT_X_SQUARES 0x0042000000004200ULL
    #define GT_START_BLACK 0x0000000810000000ULL
    #define GT_START_WHITE 0x0000001008000000ULL
    """
    # Masks: columns a and h, columns b..g, the four corners, and the
    # X-squares b2, g2, b7, g7.
    const uint64_t FILE_A "GT_FILE_A"
    const uint64_t FILE_H "GT_FILE_H"
    const uint64_t NOT_FILE_A "GT_NOT_FILE_A"
    const uint64_t NOT_FILE_H "GT_NOT_FILE_H"
    const uint64_t INNER_FILES "GT_INNER_FILES"
    const uint64_t CORNERS "GT_CORNERS"
    const uint64_t X_SQUARES "GT_X_SQUARES"
    # The standard start, the one definition (board.START_BLACK/WHITE for
    # Python): Black (to move) on d5 e4, White on d4 e5.
    const uint64_t START_BLACK "GT_START_BLACK"
    const uint64_t START_WHITE "GT_START_WHITE"
    int gt_popcount(uint64_t x) noexcept nogil
    int gt_lowest_square(uint64_t x) noexcept nogil
    int gt_highest_square(uint64_t x) noexcept nogil

cdef enum:
    PASS = 64              # the pass "square" in move lists and search results
    NO_MOVE = 65           # no move known (empty transposition entry, root of a fresh search)


cdef inline int popcount(uint64_t x) noexcept nogil:
    return gt_popcount(x)


cdef inline uint64_t square_bit(int square) noexcept nogil:
    return (<uint64_t>1) << square


cdef inline uint64_t moves_in_direction(uint64_t P, uint64_t mask, int shift) noexcept nogil:
    """Empty-or-not squares reached from P over a contiguous run of `mask`
    discs, in both directions of one line: the parallel-prefix (doubling) fill,
    four steps cover the longest run of six."""
    cdef uint64_t flip_l, flip_r, mask_l, mask_r
    cdef int shift2 = shift + shift
    flip_l = mask & (P << shift)
    flip_r = mask & (P >> shift)
    flip_l |= mask & (flip_l << shift)
    flip_r |= mask & (flip_r >> shift)
    mask_l = mask & (mask << shift)
    mask_r = mask & (mask >> shift)
    flip_l |= mask_l & (flip_l << shift2)
    flip_r |= mask_r & (flip_r >> shift2)
    flip_l |= mask_l & (flip_l << shift2)
    flip_r |= mask_r & (flip_r >> shift2)
    return (flip_l << shift) | (flip_r >> shift)


cdef inline uint64_t legal_moves(uint64_t P, uint64_t O) noexcept nogil:
    """Squares where the player P may move against opponent O."""
    cdef uint64_t inner = O & INNER_FILES
    cdef uint64_t moves = (moves_in_direction(P, inner, 1)
                           | moves_in_direction(P, O, 8)
                           | moves_in_direction(P, inner, 7)
                           | moves_in_direction(P, inner, 9))
    return moves & ~(P | O)


cdef inline uint64_t _flips_up(uint64_t P, uint64_t O, uint64_t ray) noexcept nogil:
    """Flips along a ray that runs toward higher bits: the first square of the
    ray that is not an opponent disc must be the player's own."""
    cdef uint64_t outflank = ~O & ray
    outflank &= (<uint64_t>0) - outflank          # lowest such square
    return (outflank - 1) & ray & ((<uint64_t>0) - ((outflank & P) != 0))


cdef inline uint64_t _flips_down(uint64_t P, uint64_t O, uint64_t ray) noexcept nogil:
    """Flips along a ray that runs toward lower bits (highest non-opponent
    square must be the player's own). Bit 0 is a sentinel for an empty scan: it
    is never both in the ray and the player's when the ray is all opponent."""
    cdef uint64_t outflank = (<uint64_t>1) << gt_highest_square((~O & ray) | 1)
    return ray & ((<uint64_t>0) - (outflank << 1)) & ((<uint64_t>0) - ((outflank & P & ray) != 0))


cdef inline uint64_t flips(uint64_t P, uint64_t O, int square) noexcept nogil:
    """Opponent discs turned over when P moves on the empty `square`
    (0 when the move is illegal)."""
    cdef int col = square & 7
    cdef uint64_t row = (<uint64_t>0xFF) << (square & 56)
    cdef uint64_t right_cols = FILE_A * ((<uint64_t>0xFE << col) & 0xFF)
    cdef uint64_t left_cols = FILE_A * (((<uint64_t>1) << col) - 1)
    cdef int back = 63 - square
    cdef uint64_t f
    f = _flips_up(P, O, (<uint64_t>0xFE << square) & row)                               # east
    f |= _flips_up(P, O, <uint64_t>0x0101010101010100ULL << square)                     # south
    f |= _flips_up(P, O, (<uint64_t>0x8040201008040200ULL << square) & right_cols)      # south-east
    f |= _flips_up(P, O, (<uint64_t>0x0102040810204080ULL << square) & left_cols)       # south-west
    f |= _flips_down(P, O, (((<uint64_t>1) << square) - 1) & row)                       # west
    f |= _flips_down(P, O, <uint64_t>0x0080808080808080ULL >> back)                     # north
    f |= _flips_down(P, O, (<uint64_t>0x0040201008040201ULL >> back) & left_cols)       # north-west
    f |= _flips_down(P, O, (<uint64_t>0x0102040810204080ULL >> back) & right_cols)      # north-east
    return f
