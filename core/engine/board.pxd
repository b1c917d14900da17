# The position type shared by the Cython modules: two bitboards relative to the
# side to move, plus whose turn it is (so that colours can be reported).

from libc.stdint cimport uint64_t

cdef enum:
    BLACK = 0
    WHITE = 1


cdef struct Position:
    uint64_t player      # discs of the side to move
    uint64_t opponent    # discs of the other side
    int side             # BLACK or WHITE: the colour of `player`


cdef class Board:
    cdef Position pos
    cdef list _undo          # earlier Positions (as tuples), newest last
    cdef list _moves         # squares played (PASS for a pass), parallel to _undo
    cdef Position c_position(self) noexcept
    cdef bint _is_legal(self, int sq)
