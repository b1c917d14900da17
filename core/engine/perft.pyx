"""Perft: the exact number of positions a given number of plies ahead.

Convention (that of ``tests/data/perft.txt`` and Edax's ``perft``): a forced
pass is one ply with exactly one child, and a finished game has no children.
A plain single-threaded enumeration without hashing; the last ply is counted
in bulk (the number of legal moves), which is what makes perft a benchmark of
move generation and flipping.
"""

from libc.stdint cimport uint64_t
from genethello.core.engine.bitboard cimport legal_moves, flips, popcount, gt_lowest_square
from genethello.core.engine.board cimport Board
from genethello.core.engine.move cimport Child, make_move


cdef uint64_t _perft(uint64_t player, uint64_t opponent, int depth) noexcept nogil:
    cdef uint64_t moves = legal_moves(player, opponent)
    cdef uint64_t total = 0, f
    cdef int sq
    cdef Child child
    if depth == 1:
        if moves:
            return popcount(moves)
        return 1 if legal_moves(opponent, player) else 0
    if moves == 0:
        if legal_moves(opponent, player) == 0:
            return 0
        return _perft(opponent, player, depth - 1)
    while moves:
        sq = gt_lowest_square(moves)
        moves &= moves - 1
        f = flips(player, opponent, sq)
        child = make_move(player, opponent, sq, f)
        total += _perft(child.player, child.opponent, depth - 1)
    return total


def perft(Board board, int depth) -> int:
    """Positions exactly ``depth`` plies after ``board`` (depth 0 gives 1).

    Runs without the GIL. Raises ValueError for a negative depth.
    """
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, got {depth}")
    if depth == 0:
        return 1
    cdef uint64_t player = board.pos.player, opponent = board.pos.opponent, n
    with nogil:
        n = _perft(player, opponent, depth)
    return n
