# Stable discs: discs that no sequence of moves can ever flip. Used by the
# exact solver to cut off positions whose score cannot reach the window: the
# opponent keeps its stable discs, so the side to move scores at most
# 64 - 2 * (the opponent's stable discs).

from libc.stdint cimport uint64_t
from genethello.core.engine.bitboard cimport NOT_FILE_A, NOT_FILE_H, FILE_A, FILE_H

cdef extern from *:
    """
    #define GT_RANK_1 0x00000000000000FFULL
    #define GT_RANK_8 0xFF00000000000000ULL
    #define GT_BORDER 0xFF818181818181FFULL
    """
    const uint64_t RANK_1 "GT_RANK_1"
    const uint64_t RANK_8 "GT_RANK_8"
    const uint64_t BORDER "GT_BORDER"


cdef inline uint64_t _full_along(uint64_t occupied, int shift, uint64_t up_mask, uint64_t down_mask) noexcept nogil:
    """Occupied squares whose whole line along one axis is occupied: spread the
    empty squares along the axis both ways (7 steps reach across the board)
    and keep what they never reach. up_mask/down_mask drop squares that a
    shift wrapped to the other side of the board."""
    cdef uint64_t reach = ~occupied
    cdef int _step
    for _step in range(7):
        reach |= ((reach << shift) & up_mask) | ((reach >> shift) & down_mask)
    return occupied & ~reach


cdef inline uint64_t stable_discs(uint64_t own, uint64_t other) noexcept nogil:
    """A subset of `own`'s discs that can never be flipped.

    A disc cannot be flipped along an axis (row, column, either diagonal)
    when that line is full (no move can land on it), when it lies on the
    board's border across that axis (nothing can bracket it from outside), or
    when a neighbour along the axis is an own stable disc (a flip would have
    to flip that one too). A disc safe on all four axes is stable; the set
    grows from the corners until nothing changes."""
    cdef uint64_t occupied = own | other
    cdef uint64_t full_h = _full_along(occupied, 1, NOT_FILE_A, NOT_FILE_H)
    cdef uint64_t full_v = _full_along(occupied, 8, <uint64_t>0xFFFFFFFFFFFFFFFFULL, <uint64_t>0xFFFFFFFFFFFFFFFFULL)
    cdef uint64_t full_d9 = _full_along(occupied, 9, NOT_FILE_A, NOT_FILE_H)
    cdef uint64_t full_d7 = _full_along(occupied, 7, NOT_FILE_H, NOT_FILE_A)
    cdef uint64_t stable = 0, grown
    cdef uint64_t safe_h, safe_v, safe_d9, safe_d7
    while True:
        safe_h = full_h | FILE_A | FILE_H | ((stable << 1) & NOT_FILE_A) | ((stable >> 1) & NOT_FILE_H)
        safe_v = full_v | RANK_1 | RANK_8 | (stable << 8) | (stable >> 8)
        safe_d9 = full_d9 | BORDER | ((stable << 9) & NOT_FILE_A) | ((stable >> 9) & NOT_FILE_H)
        safe_d7 = full_d7 | BORDER | ((stable << 7) & NOT_FILE_H) | ((stable >> 7) & NOT_FILE_A)
        grown = own & safe_h & safe_v & safe_d9 & safe_d7
        if grown == stable:
            return stable
        stable = grown
