"""The transposition table's owner: allocates the C array and clears it.

Clearing is a new "age", not a memset: games in an evolution run clear the
table thousands of times a second.
"""

from libc.stdlib cimport calloc, free
from libc.string cimport memset


cdef class TranspositionTable:
    """2 * 2**bits entries of 24 bytes (bits=16: 3 MiB).

    Raises:
        ValueError: if bits is outside 0..28.
        MemoryError: if the table cannot be allocated.
    """

    def __cinit__(self, int bits=16):
        if not 0 <= bits <= 28:
            raise ValueError(f"transposition table bits must be in 0..28, got {bits}")
        self.bits = bits
        self.table.mask = (1 << bits) - 1
        self.table.entries = <TTEntry*> calloc(2 * (self.table.mask + 1), sizeof(TTEntry))
        if self.table.entries == NULL:
            raise MemoryError(f"cannot allocate a transposition table of 2**{bits} buckets")
        self.table.age = 1

    def __dealloc__(self):
        free(self.table.entries)

    cpdef void clear(self) noexcept:
        """Forget every entry."""
        if self.table.age == 255:
            memset(self.table.entries, 0, 2 * (self.table.mask + 1) * sizeof(TTEntry))
            self.table.age = 1
        else:
            self.table.age += 1

    def __reduce__(self):
        return (TranspositionTable, (self.bits,))
