# Edge and corner patterns: base-3 indices of disc configurations and the sum
# of their learned values, straight from the (mover, other) bitboards.
#
# Three pattern shapes, each read in a fixed square order from a transformed
# copy of the board (one of the 8 symmetries), so that symmetric instances
# share one table:
#
#   edge+2X    a1 b1 c1 d1 e1 f1 g1 h1 b2 g2     4 instances (the 4 edges)
#   corner3x3  a1 b1 c1 a2 b2 c2 a3 b3 c3        4 instances (the 4 corners)
#   corner2x5  a1 b1 c1 d1 e1 a2 b2 c2 d2 e2     8 instances (4 corners x 2 sides)
#
# Digit of a square: 0 empty, 1 mover (the player who just moved), 2 other;
# index = sum(digit_i * 3**i) over the shape's squares in the order above.
# The table of one stage is the three shapes' tables one after the other
# (EDGE_OFFSET, C33_OFFSET, C25_OFFSET; STAGE_SIZE entries), and the stages
# follow each other: stage s of move number n (discs on board - 4) is
# pattern_stage(n). The edge and 3x3 tables are symmetric under their shape's
# own mirror (learning ties those entries), so every one of a position's 8
# symmetric images scores the same.

from libc.stdint cimport uint64_t, uint16_t, int16_t
from genethello.core.engine.bitboard cimport popcount

cdef extern from *:
    """
    /* base-3 value of a 10-bit binary number with the same digits:
       B3(x) = sum over set bits i of 3**i, as a compile-time table. */
    #define GTP_B3(x) ((((x) >> 0) & 1) * 1 + (((x) >> 1) & 1) * 3 + (((x) >> 2) & 1) * 9 \\
        + (((x) >> 3) & 1) * 27 + (((x) >> 4) & 1) * 81 + (((x) >> 5) & 1) * 243 \\
        + (((x) >> 6) & 1) * 729 + (((x) >> 7) & 1) * 2187 + (((x) >> 8) & 1) * 6561 \\
        + (((x) >> 9) & 1) * 19683)
    #define GTP_R4(n) GTP_B3(n), GTP_B3((n) + 1), GTP_B3((n) + 2), GTP_B3((n) + 3)
    #define GTP_R16(n) GTP_R4(n), GTP_R4((n) + 4), GTP_R4((n) + 8), GTP_R4((n) + 12)
    #define GTP_R64(n) GTP_R16(n), GTP_R16((n) + 16), GTP_R16((n) + 32), GTP_R16((n) + 48)
    #define GTP_R256(n) GTP_R64(n), GTP_R64((n) + 64), GTP_R64((n) + 128), GTP_R64((n) + 192)
    static const uint16_t gtp_base3[1024] = {
        GTP_R256(0), GTP_R256(256), GTP_R256(512), GTP_R256(768)
    };

    /* the 8 board symmetries are compositions of these three */
    static inline uint64_t gtp_flip_v(uint64_t x) { return __builtin_bswap64(x); }
    static inline uint64_t gtp_mirror_h(uint64_t x) {
        x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
        x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
        return ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    }
    static inline uint64_t gtp_transpose(uint64_t x) {   /* (row, col) -> (col, row) */
        uint64_t t;
        t = 0x0F0F0F0F00000000ULL & (x ^ (x << 28)); x ^= t ^ (t >> 28);
        t = 0x3333000033330000ULL & (x ^ (x << 14)); x ^= t ^ (t >> 14);
        t = 0x5500550055005500ULL & (x ^ (x << 7));  x ^= t ^ (t >> 7);
        return x;
    }
    /* the shapes' squares, gathered from a (transformed) board into 10 bits */
    static inline unsigned gtp_edge_bits(uint64_t b) {      /* a1..h1, b2, g2 */
        return (unsigned)((b & 0xFFULL) | ((b >> 1) & 0x100ULL) | ((b >> 5) & 0x200ULL));
    }
    static inline unsigned gtp_c33_bits(uint64_t b) {       /* a1 b1 c1 / a2 b2 c2 / a3 b3 c3 */
        return (unsigned)((b & 7ULL) | ((b >> 5) & 0x38ULL) | ((b >> 10) & 0x1C0ULL));
    }
    static inline unsigned gtp_c25_bits(uint64_t b) {       /* a1..e1 / a2..e2 */
        return (unsigned)((b & 0x1FULL) | ((b >> 3) & 0x3E0ULL));
    }
    /* v2's lines: row k (a..h) is a shift; a diagonal's squares sit in
       distinct columns, so one multiply stacks them, in order, into the top
       byte (every partial product is a distinct bit: no carries). */
    static inline unsigned gtp_row_bits(uint64_t b, int row) { return (unsigned)((b >> (8 * row)) & 0xFFULL); }
    static inline unsigned gtp_diag_bits(uint64_t b, uint64_t mask, int shift) {
        return (unsigned)(((b & mask) * 0x0101010101010101ULL) >> shift);
    }
    """
    const uint16_t* gtp_base3
    uint64_t gtp_flip_v(uint64_t x) noexcept nogil
    uint64_t gtp_mirror_h(uint64_t x) noexcept nogil
    uint64_t gtp_transpose(uint64_t x) noexcept nogil
    unsigned gtp_edge_bits(uint64_t b) noexcept nogil
    unsigned gtp_c33_bits(uint64_t b) noexcept nogil
    unsigned gtp_c25_bits(uint64_t b) noexcept nogil
    unsigned gtp_row_bits(uint64_t b, int row) noexcept nogil
    unsigned gtp_diag_bits(uint64_t b, uint64_t mask, int shift) noexcept nogil

cdef enum:
    EDGE_SIZE = 59049          # 3**10
    C33_SIZE = 19683           # 3**9
    C25_SIZE = 59049           # 3**10
    EDGE_OFFSET = 0
    C33_OFFSET = 59049
    C25_OFFSET = 78732
    STAGE_SIZE = 137781        # entries of one stage's table
    N_INSTANCES = 16           # 4 edges + 4 corners 3x3 + 8 corners 2x5
    STAGE_WIDTH = 5            # moves per stage
    N_STAGES = 12              # moves 0..5 -> 0, 6..10 -> 1, ..., 56..60 -> 11
    # The table holds values in 1/TABLE_SCALE discs of predicted final margin;
    # the evaluation's pattern feature is the sum >> PATTERN_SHIFT (floor),
    # i.e. the predicted final disc difference for the mover in discs: the
    # unit of the disc feature (typical |value| 5-15 in the midgame, like
    # discs and mobility), so that weights 0..10 balance it against them.
    TABLE_SCALE = 32
    PATTERN_SHIFT = 5

# Geometry v2 (patterns-v2): v1's 16 instances, then the lines of Edax's set,
# each read in square order from a transformed board (instances 16..45):
#
#   row2  a2..h2             id v t tv     row3  a3..h3  id v t tv
#   row4  a4..h4             id v t tv     diag8 a1 b2 .. h8   id h
#   diag7 b1 c2 .. h7        id v h t      diag6 c1 .. h6      id v h t
#   diag5 d1 .. h5           id v h t      diag4 e1 .. h4      id v h t
#
# Every line's instances are its whole orbit under the 8 symmetries, and the
# learner ties a line's configuration to its reverse, so the 8 images of a
# position still score the same. 30 stages of 2 moves: stage(n) = min(n/2, 29).
cdef enum:
    GEOMETRY_V1 = 1
    GEOMETRY_V2 = 2
    LINE8_SIZE = 6561          # 3**8
    D7_SIZE = 2187
    D6_SIZE = 729
    D5_SIZE = 243
    D4_SIZE = 81
    ROW2_OFFSET = 137781
    ROW3_OFFSET = 144342
    ROW4_OFFSET = 150903
    D8_OFFSET = 157464
    D7_OFFSET = 164025
    D6_OFFSET = 166212
    D5_OFFSET = 166941
    D4_OFFSET = 167184
    V2_STAGE_SIZE = 167265
    V2_N_INSTANCES = 46
    V2_N_STAGES = 30
    V2_STAGE_WIDTH = 2
    MAX_INSTANCES = 46


cdef inline int pattern_stage(int move_number) noexcept nogil:
    """Stage of a move number (discs on the board - 4), 0..N_STAGES-1."""
    if move_number <= STAGE_WIDTH:
        return 0
    return (move_number - 1) // STAGE_WIDTH


cdef inline int _idx(unsigned m, unsigned o) noexcept nogil:
    return gtp_base3[m] + 2 * gtp_base3[o]


cdef struct Images:
    # The (mover, other) boards under the 8 symmetries (letters as in
    # pattern_indices_c), computed once for all the shapes that read them.
    uint64_t m, o, mv, ov, mh, oh, mhv, ohv, mt, ot, mtv, otv, mth, oth, mthv, othv


cdef inline void images_of(uint64_t mover, uint64_t other, Images* b) noexcept nogil:
    b.m = mover
    b.o = other
    b.mv = gtp_flip_v(mover)
    b.ov = gtp_flip_v(other)
    b.mh = gtp_mirror_h(mover)
    b.oh = gtp_mirror_h(other)
    b.mhv = gtp_flip_v(b.mh)
    b.ohv = gtp_flip_v(b.oh)
    b.mt = gtp_transpose(mover)
    b.ot = gtp_transpose(other)
    b.mtv = gtp_flip_v(b.mt)
    b.otv = gtp_flip_v(b.ot)
    b.mth = gtp_mirror_h(b.mt)
    b.oth = gtp_mirror_h(b.ot)
    b.mthv = gtp_flip_v(b.mth)
    b.othv = gtp_flip_v(b.oth)


cdef inline void _v1_indices(const Images* b, int* out) noexcept nogil:
    """v1's 16 instances from the images: edges (id, v, t, tv), 3x3 (id, v,
    h, hv), 2x5 (id, v, h, hv, t, tv, th, thv)."""
    out[0] = EDGE_OFFSET + _idx(gtp_edge_bits(b.m), gtp_edge_bits(b.o))
    out[1] = EDGE_OFFSET + _idx(gtp_edge_bits(b.mv), gtp_edge_bits(b.ov))
    out[2] = EDGE_OFFSET + _idx(gtp_edge_bits(b.mt), gtp_edge_bits(b.ot))
    out[3] = EDGE_OFFSET + _idx(gtp_edge_bits(b.mtv), gtp_edge_bits(b.otv))
    out[4] = C33_OFFSET + _idx(gtp_c33_bits(b.m), gtp_c33_bits(b.o))
    out[5] = C33_OFFSET + _idx(gtp_c33_bits(b.mv), gtp_c33_bits(b.ov))
    out[6] = C33_OFFSET + _idx(gtp_c33_bits(b.mh), gtp_c33_bits(b.oh))
    out[7] = C33_OFFSET + _idx(gtp_c33_bits(b.mhv), gtp_c33_bits(b.ohv))
    out[8] = C25_OFFSET + _idx(gtp_c25_bits(b.m), gtp_c25_bits(b.o))
    out[9] = C25_OFFSET + _idx(gtp_c25_bits(b.mv), gtp_c25_bits(b.ov))
    out[10] = C25_OFFSET + _idx(gtp_c25_bits(b.mh), gtp_c25_bits(b.oh))
    out[11] = C25_OFFSET + _idx(gtp_c25_bits(b.mhv), gtp_c25_bits(b.ohv))
    out[12] = C25_OFFSET + _idx(gtp_c25_bits(b.mt), gtp_c25_bits(b.ot))
    out[13] = C25_OFFSET + _idx(gtp_c25_bits(b.mtv), gtp_c25_bits(b.otv))
    out[14] = C25_OFFSET + _idx(gtp_c25_bits(b.mth), gtp_c25_bits(b.oth))
    out[15] = C25_OFFSET + _idx(gtp_c25_bits(b.mthv), gtp_c25_bits(b.othv))


cdef inline void pattern_indices_c(uint64_t mover, uint64_t other, int* out) noexcept nogil:
    """The 16 instances' indices into one stage's table (offsets included),
    in the order: edges (id, v, t, tv), 3x3 (id, v, h, hv), 2x5 (id, v, h,
    hv, t, tv, th, thv), where the letters name the transforms applied to
    the board before reading the shape at a1 (v: flip rows, h: mirror
    columns, t: transpose; applied in the order written: tv = t, then v)."""
    cdef Images b
    images_of(mover, other, &b)
    _v1_indices(&b, out)


cdef inline int v2_stage(int move_number) noexcept nogil:
    """Stage of a move number in geometry v2, 0..V2_N_STAGES-1."""
    if move_number >= 2 * V2_N_STAGES:
        return V2_N_STAGES - 1
    return move_number // V2_STAGE_WIDTH


cdef inline int _line8(unsigned m, unsigned o) noexcept nogil:
    return gtp_base3[m] + 2 * gtp_base3[o]


cdef inline void _diag4(const Images* b, uint64_t mask, int shift, int offset, int* out) noexcept nogil:
    """A short diagonal's 4 instances (id, v, h, t)."""
    out[0] = offset + _line8(gtp_diag_bits(b.m, mask, shift), gtp_diag_bits(b.o, mask, shift))
    out[1] = offset + _line8(gtp_diag_bits(b.mv, mask, shift), gtp_diag_bits(b.ov, mask, shift))
    out[2] = offset + _line8(gtp_diag_bits(b.mh, mask, shift), gtp_diag_bits(b.oh, mask, shift))
    out[3] = offset + _line8(gtp_diag_bits(b.mt, mask, shift), gtp_diag_bits(b.ot, mask, shift))


cdef inline void _line_indices(const Images* b, int* out) noexcept nogil:
    """The 30 line instances of geometry v2 (out[0..29] = instances 16..45)."""
    cdef int row, off, k = 0
    for row in range(1, 4):
        off = ROW2_OFFSET + (row - 1) * LINE8_SIZE
        out[k] = off + _line8(gtp_row_bits(b.m, row), gtp_row_bits(b.o, row))
        out[k + 1] = off + _line8(gtp_row_bits(b.mv, row), gtp_row_bits(b.ov, row))
        out[k + 2] = off + _line8(gtp_row_bits(b.mt, row), gtp_row_bits(b.ot, row))
        out[k + 3] = off + _line8(gtp_row_bits(b.mtv, row), gtp_row_bits(b.otv, row))
        k += 4
    out[12] = D8_OFFSET + _line8(gtp_diag_bits(b.m, 0x8040201008040201ULL, 56),
                                 gtp_diag_bits(b.o, 0x8040201008040201ULL, 56))
    out[13] = D8_OFFSET + _line8(gtp_diag_bits(b.mh, 0x8040201008040201ULL, 56),
                                 gtp_diag_bits(b.oh, 0x8040201008040201ULL, 56))
    _diag4(b, 0x0080402010080402ULL, 57, D7_OFFSET, out + 14)
    _diag4(b, 0x0000804020100804ULL, 58, D6_OFFSET, out + 18)
    _diag4(b, 0x0000008040201008ULL, 59, D5_OFFSET, out + 22)
    _diag4(b, 0x0000000080402010ULL, 60, D4_OFFSET, out + 26)


cdef inline void pattern_indices_v2_c(uint64_t mover, uint64_t other, int* out) noexcept nogil:
    """The 46 instances' indices into one v2 stage's table (v1's 16 first),
    every symmetric image computed once."""
    cdef Images b
    images_of(mover, other, &b)
    _v1_indices(&b, out)
    _line_indices(&b, out + N_INSTANCES)


cdef inline int pattern_score_v2(const int16_t* t, uint64_t mover, uint64_t other) noexcept nogil:
    """The sum of the 46 instances' values in one v2 stage's table ``t``."""
    cdef int idx[V2_N_INSTANCES]
    cdef int i, s = 0
    pattern_indices_v2_c(mover, other, idx)
    for i in range(V2_N_INSTANCES):
        s += t[idx[i]]
    return s


cdef inline int pattern_eval_at(const int16_t* table, int geometry, uint64_t mover, uint64_t other,
                                int move_number) noexcept nogil:
    """The pattern score of a position (table units, for the mover) in the
    stage of ``move_number`` (clamped to 0..60), under a table of either
    geometry."""
    if move_number < 0:
        move_number = 0
    elif move_number > 60:
        move_number = 60
    if geometry == GEOMETRY_V2:
        return pattern_score_v2(table + <Py_ssize_t>v2_stage(move_number) * V2_STAGE_SIZE, mover, other)
    return pattern_score(table, mover, other, pattern_stage(move_number))


cdef inline int pattern_eval(const int16_t* table, int geometry, uint64_t mover, uint64_t other) noexcept nogil:
    """The pattern score of a position in the stage of its own move number."""
    return pattern_eval_at(table, geometry, mover, other, popcount(mover | other) - 4)


cdef inline int pattern_score(const int16_t* table, uint64_t mover, uint64_t other,
                              int stage) noexcept nogil:
    """Sum of the 16 instances' values in `stage` (table units, 1/TABLE_SCALE
    disc), for the mover."""
    cdef int idx[N_INSTANCES]
    cdef int i, s = 0
    cdef const int16_t* t = table + <Py_ssize_t>stage * STAGE_SIZE
    pattern_indices_c(mover, other, idx)
    for i in range(N_INSTANCES):
        s += t[idx[i]]
    return s
