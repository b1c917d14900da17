"""Python face of the stable-disc computation (stability.pxd), for tests and
analysis tools."""

from libc.stdint cimport uint64_t


def stable(own: int, other: int) -> int:
    """Bitboard of ``own``'s discs that no sequence of moves can flip.

    Raises:
        ValueError: if the two bitboards overlap.
    """
    if own & other:
        raise ValueError("stable(): the two bitboards overlap")
    cdef uint64_t o = own, t = other
    return stable_discs(o, t)
