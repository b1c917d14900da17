# The root of the searches and the engine object (see search.pyx); the
# context they share is in context.pxd.

from libc.stdint cimport uint64_t
from genethello.core.evaluation.evaluation cimport BaseEvaluator
from genethello.core.engine.ttable cimport TranspositionTable
from genethello.core.engine.context cimport SearchContext, RootResult

cdef enum Algorithm:
    ALPHABETA_HARD = 0
    ALPHABETA_SOFT = 1
    NEGASCOUT_HARD = 2
    NEGASCOUT_SOFT = 3


cdef class Searcher:
    cdef SearchContext ctx
    cdef readonly BaseEvaluator evaluator
    cdef readonly TranspositionTable table
    cdef readonly str algorithm
    cdef readonly bint hashing
    cdef readonly bint ordering
    cdef readonly object network_tracker  # a network's incremental tuple indices (ntuple.pyx), else None
    cdef object _guesser           # a pattern-only searcher for the exact solver's first guess (made on first use)
    cdef RootResult c_best_move(self, uint64_t P, uint64_t O, int depth, int exact_empties,
                                uint64_t node_limit, double seconds, int* reached) noexcept nogil
    cdef int _track_network(self) except -1
    cdef void _begin(self, uint64_t node_limit, double seconds) noexcept nogil
    cdef tuple _pv(self, uint64_t P, uint64_t O, object first)
    cdef Searcher _pattern_searcher(self)
    cdef int _order_by_patterns(self) except -1
