# GeneThello's evaluation kind: seven features of the position right after a
# move, from the point of view of the player who made it (the mover), weighted
# per game phase, in integer arithmetic so every machine computes the same
# value. The searches never call this file: they call the leaf interface of
# evaluation.pxd, which calls it for evaluators of this kind.

from libc.stdint cimport uint64_t, int16_t
from genethello.core.engine.bitboard cimport popcount, CORNERS, NOT_FILE_A, NOT_FILE_H
from genethello.core.evaluation.patterns cimport pattern_eval_at, PATTERN_SHIFT

cdef enum:
    F_FLIPS = 0
    F_DISCS = 1
    F_MOBILITY = 2
    F_XSQUARES = 3
    F_CORNERS = 4
    F_PATTERN = 5
    F_PARITY = 6
    N_FEATURES = 7

cdef enum:
    N_PHASES = 3


cdef struct EvalWeights:
    int weight[N_PHASES][N_FEATURES]   # per phase, in FEATURES order "fdmxcpr"
    int phase_of_move[61]              # move number 0..60 -> phase 0..2
    bint use_pattern                   # any pattern weight non-zero
    const int16_t* pattern_table       # the shared pattern table (patterns.pxd); NULL = 0
    int pattern_geometry               # its geometry (patterns.pxd GEOMETRY_V1 / GEOMETRY_V2)


cdef inline uint64_t _grow8(uint64_t r) noexcept nogil:
    return (r | ((r << 1) & NOT_FILE_A) | ((r >> 1) & NOT_FILE_H) | (r << 8) | (r >> 8)
            | ((r << 9) & NOT_FILE_A) | ((r >> 9) & NOT_FILE_H)
            | ((r << 7) & NOT_FILE_H) | ((r >> 7) & NOT_FILE_A))


cdef inline int parity_feature(uint64_t empty) noexcept nogil:
    """Even empty regions minus odd ones (regions are 8-connected)."""
    cdef int balance = 0
    cdef uint64_t region, grown
    while empty:
        region = empty & ((<uint64_t>0) - empty)
        while True:
            grown = _grow8(region) & empty
            if grown == region:
                break
            region = grown
        balance += -1 if popcount(region) & 1 else 1
        empty ^= region
    return balance


cdef inline uint64_t exposed_x_squares(uint64_t empty) noexcept nogil:
    """X-squares (b2, g2, b7, g7) whose adjacent corner is empty."""
    cdef uint64_t ec = empty & CORNERS
    return (((ec & 0x1ULL) << 9) | ((ec & 0x80ULL) << 7)
            | ((ec & 0x0100000000000000ULL) >> 7) | ((ec & 0x8000000000000000ULL) >> 9))


cdef inline const int* phase_weights(const EvalWeights* w, int move_number) noexcept nogil:
    """The weights of the phase that `move_number` (discs - 4) falls in."""
    return w.weight[w.phase_of_move[move_number]]


cdef inline int score_without_mobility(const EvalWeights* w, const int* k, uint64_t mover, uint64_t other,
                                       int flipped, int move_number, int corner_balance) noexcept nogil:
    """The weighted sum of every feature but mobility (the opponent's legal
    moves, the one that needs a move generation), unclamped, with `k` the
    phase's weights, the position's move number (discs - 4), the discs the
    move turned and the mover's corners less the other side's given. The
    whole evaluation is this less k[F_MOBILITY] times the opponent's move
    count, clamped (evaluation.pxd)."""
    cdef uint64_t occupied = mover | other
    cdef uint64_t xs
    # Features with a zero weight in this phase are skipped: most chromosome
    # types use three or four of the seven, and popcounts dominate the cost.
    cdef int score = k[F_FLIPS] * flipped
    if k[F_DISCS]:
        score += k[F_DISCS] * (popcount(mover) - popcount(other))
    if k[F_CORNERS]:
        score += k[F_CORNERS] * corner_balance
    if k[F_XSQUARES]:
        xs = exposed_x_squares(~occupied)
        score -= k[F_XSQUARES] * (popcount(mover & xs) - popcount(other & xs))
    if k[F_PARITY]:
        score += k[F_PARITY] * parity_feature(~occupied)
    if k[F_PATTERN] and w.pattern_table != NULL:
        # the predicted final disc difference for the mover, in discs
        score += k[F_PATTERN] * (pattern_eval_at(w.pattern_table, w.pattern_geometry, mover, other, move_number)
                                 >> PATTERN_SHIFT)
    return score
