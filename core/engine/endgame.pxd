# The exact endgame solver (Edax's endgame.c): the final disc difference
# (empties to the winner) for the side to move, fail-soft.

from libc.stdint cimport uint64_t
from genethello.core.engine.context cimport SearchContext, RootResult

cdef enum:
    # From this many empties the solver orders a node's moves by the pattern
    # score of each child too (SearchContext.order_table, when set): near the
    # top of the tree a better first move saves far more than the score costs.
    # (FFO #40-#44: from 10, 11, 13, 14, 16 empties: more nodes or time.)
    EVAL_ORDER_EMPTIES = 12
    # The solver uses the transposition table from this many empties (below,
    # a probe mostly waited for memory).
    HASH_EMPTIES = 9

# Exact best move and final disc difference, fail-soft in the window (alpha, beta);
# among moves of equal score the first in square order (GeneThello's tie-break).
cdef RootResult endgame_root(SearchContext* c, uint64_t P, uint64_t O,
                             int alpha, int beta) noexcept nogil
# The same by windows of two around a guessed score (the table kept across windows).
cdef RootResult endgame_windows(SearchContext* c, uint64_t P, uint64_t O, int guess) noexcept nogil
