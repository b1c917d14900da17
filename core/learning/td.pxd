# What other typed modules read of td.pyx: which weights updates touched
# (live.pyx patches a network's evaluator at those weights only).

from libc.stdint cimport uint8_t, int32_t


cdef class TouchedWeights:
    cdef uint8_t[::1] flags               # [weights]: 1 where flagged
    cdef int32_t[::1] items               # the flagged weights, first `count` entries, in order flagged
    cdef readonly int count
    cdef void mark(self, const int32_t* index, int n) except *
