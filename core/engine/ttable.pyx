"""The transposition table's owner: allocates the C array and clears it.

Clearing is a new "age", not a memset: games in an evolution run clear the
table thousands of times a second.

The array is mapped anonymously (zero pages, made resident only where the
search writes), aligned to 2 MiB and, on Linux, marked for transparent huge
pages: a probe lands anywhere in the table, and with 4 KiB pages nearly
every probe of a large table also missed the TLB (in a virtual machine, a
walk of two page tables).
"""

from libc.string cimport memset

cdef extern from *:
    """
    #include <stdint.h>
    #include <sys/mman.h>
    #define GT_HUGE_PAGE ((size_t)2 << 20)

    /* `bytes` of zeroed memory at a 2 MiB boundary; *base and *length
       receive the mapping to give back to gt_table_free. NULL on failure. */
    static void* gt_table_alloc(size_t bytes, void** base, size_t* length) {
        size_t len = bytes + GT_HUGE_PAGE;
        char* p = (char*)mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == (char*)MAP_FAILED)
            return NULL;
        char* start = (char*)(((uintptr_t)p + GT_HUGE_PAGE - 1) & ~(uintptr_t)(GT_HUGE_PAGE - 1));
    #ifdef MADV_HUGEPAGE
        madvise(start, bytes, MADV_HUGEPAGE);
    #endif
        *base = p;
        *length = len;
        return start;
    }

    static void gt_table_free(void* base, size_t length) {
        if (base != NULL)
            munmap(base, length);
    }
    """
    void* gt_table_alloc(size_t bytes, void** base, size_t* length) noexcept nogil
    void gt_table_free(void* base, size_t length) noexcept nogil


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
        self.table.entries = <TTEntry*> gt_table_alloc(
            2 * (self.table.mask + 1) * sizeof(TTEntry), &self.mapping, &self.mapping_length)
        if self.table.entries == NULL:
            raise MemoryError(f"cannot allocate a transposition table of 2**{bits} buckets")
        self.table.age = 1

    def __dealloc__(self):
        gt_table_free(self.mapping, self.mapping_length)

    cpdef void clear(self) noexcept:
        """Forget every entry."""
        if self.table.age == 255:
            memset(self.table.entries, 0, 2 * (self.table.mask + 1) * sizeof(TTEntry))
            self.table.age = 1
        else:
            self.table.age += 1

    def __reduce__(self):
        return (TranspositionTable, (self.bits,))
