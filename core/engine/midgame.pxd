# The midgame search (Edax's midgame.c): negamax alpha-beta or negascout to a
# fixed depth, fail-hard or fail-soft as the context says, in evaluation units
# (a decided game is EVAL_WIN per disc of its final margin).

from libc.stdint cimport uint64_t
from genethello.core.engine.bitboard cimport legal_moves
from genethello.core.evaluation.evaluation cimport evaluate_leaf, EVAL_WIN
from genethello.core.engine.context cimport SearchContext, RootResult, final_margin

cdef enum:
    PLAIN_ROOT_DEPTH = 4         # root searches this shallow are plain alpha-beta: no table probes,
                                 # evaluated ordering or null windows at or below the root (the root in
                                 # square order, the nodes below by memory of cut-offs, ordering.pxd)
                                 # (bench_games, depth 4: 1.16x the games/s; at depth 7 they pay: 0.74x without)


cdef inline int leaf_value(SearchContext* c, uint64_t P, uint64_t O, uint64_t last_flipped) noexcept nogil:
    """Value for the side to move P of the position after O's last move,
    which turned the discs `last_flipped`."""
    cdef uint64_t moves = legal_moves(P, O)
    c.nodes += 1
    if moves == 0 and legal_moves(O, P) == 0:
        return final_margin(P, O) * EVAL_WIN
    return -evaluate_leaf(&c.evaluator, O, P, last_flipped, moves)


# Value of P to move, `depth` (>= 0) plies deep, in the window (alpha, beta);
# `last_flipped`: the discs O's last move turned (0 after a pass).
cdef int midgame(SearchContext* c, uint64_t P, uint64_t O, int depth, int alpha, int beta,
                 uint64_t last_flipped) noexcept nogil
# Best move and value at `depth` (>= 1) in the window (alpha, beta); among moves
# of equal value the first in square order (GeneThello's tie-break).
cdef RootResult midgame_root(SearchContext* c, uint64_t P, uint64_t O, int depth,
                             int alpha, int beta) noexcept nogil
# Plain negamax without pruning, ordering or hashing: the reference.
cdef int minimax_value(SearchContext* c, uint64_t P, uint64_t O, int depth, uint64_t last_flipped) noexcept nogil
