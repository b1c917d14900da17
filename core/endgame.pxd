# The exact endgame solver (Edax's endgame.c): the final disc difference
# (empties to the winner) for the side to move, fail-soft.

from libc.stdint cimport uint64_t
from genethello.core.context cimport SearchContext, RootResult

# Exact best move and final disc difference, fail-soft in the window (alpha, beta);
# among moves of equal score the first in square order (GeneThello's tie-break).
cdef RootResult endgame_root(SearchContext* c, uint64_t P, uint64_t O,
                             int alpha, int beta) noexcept nogil
# The same by windows of two around a guessed score (the table kept across windows).
cdef RootResult endgame_windows(SearchContext* c, uint64_t P, uint64_t O, int guess) noexcept nogil
