# A move relative to the side to move, as in Edax's move.c: the square and the
# discs it turns travel together, so making a move is two bit operations and
# the move list keeps what ordering computed. The searches pass positions by
# value, so undoing a move is dropping the child: the parent's two bitboards
# are still in the caller's registers.

from libc.stdint cimport uint64_t
from genethello.core.engine.bitboard cimport flips, square_bit, gt_lowest_square

cdef enum:
    MAX_MOVES = 64             # room in a move list (a position has at most 33 legal moves)


cdef struct Move:
    int square                 # 0..63
    uint64_t flipped           # the opponent's discs the move turns


cdef struct Child:
    uint64_t player            # the side to move next: the opponent less its flipped discs
    uint64_t opponent          # the mover: its discs, the flipped ones and the new one


cdef inline Child make_move(uint64_t P, uint64_t O, int square, uint64_t flipped) noexcept nogil:
    """The position after P plays `square` turning `flipped`, seen from the
    side that moves next (the one place the child is spelled out)."""
    cdef Child child
    child.player = O ^ flipped
    child.opponent = P | flipped | square_bit(square)
    return child


cdef inline int list_moves(uint64_t P, uint64_t O, uint64_t moves, Move* out) noexcept nogil:
    """Fill `out` with the moves of the mask in board order (a1 first) and
    their flips; returns the count. The unordered baseline."""
    cdef int n = 0, sq
    while moves:
        sq = gt_lowest_square(moves)
        moves &= moves - 1
        out[n].square = sq
        out[n].flipped = flips(P, O, sq)
        n += 1
    return n


cdef inline int list_squares(uint64_t moves, Move* out) noexcept nogil:
    """Fill `out` with the moves of the mask in board order, their flips
    left at 0 for search_children to compute when it reaches them."""
    cdef int n = 0
    while moves:
        out[n].square = gt_lowest_square(moves)
        out[n].flipped = 0
        moves &= moves - 1
        n += 1
    return n
