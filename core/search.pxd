# The searches' shared state and entry points.

from libc.stdint cimport uint64_t
from genethello.core.evaluation cimport EvalWeights, Evaluator
from genethello.core.ttable cimport TTable, TranspositionTable

cdef enum Algorithm:
    ALPHABETA_HARD = 0
    ALPHABETA_SOFT = 1
    NEGASCOUT_HARD = 2
    NEGASCOUT_SOFT = 3


cdef struct SearchContext:
    const EvalWeights* w
    TTable* tt
    uint64_t nodes
    uint64_t node_limit        # 0 = none
    uint64_t next_check        # node count at which limits are looked at next
    double deadline            # CLOCK_MONOTONIC seconds; 0 = none
    int stop                   # set by another thread to end the search early
    bint aborted               # a limit or stop ended the search; results are partial
    bint soft                  # fail-soft (else fail-hard)
    bint scout                 # negascout / PVS (else plain alpha-beta)
    bint ordering              # order moves by static evaluation (else board order)


cdef struct RootResult:
    int move                   # best move (PASS when the side must pass)
    int value                  # evaluation units (midgame) or discs (endgame)
    bint complete              # the iteration finished within its limits


cdef double monotonic_seconds() noexcept nogil
cdef RootResult midgame_root(SearchContext* c, uint64_t P, uint64_t O, int depth,
                             int alpha, int beta) noexcept nogil
cdef RootResult endgame_root(SearchContext* c, uint64_t P, uint64_t O,
                             int alpha, int beta) noexcept nogil


cdef class Searcher:
    cdef SearchContext ctx
    cdef readonly Evaluator evaluator
    cdef readonly TranspositionTable table
    cdef readonly str algorithm
    cdef readonly bint hashing
    cdef readonly bint ordering
    cdef RootResult c_best_move(self, uint64_t P, uint64_t O, int depth, int exact_empties,
                                uint64_t node_limit, double seconds, int* reached) noexcept nogil
    cdef void _begin(self, uint64_t node_limit, double seconds) noexcept nogil
    cdef tuple _pv(self, uint64_t P, uint64_t O, object first)
