"""A plain Python n-tuple network, written independently of ntuple_shapes'
symmetry code: the oracle the typed evaluator, the searches and the fast
game loop are tested against (tests/core/test_ntuple.py,
test_network_search.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from genethello.core.evaluation.ntuple_shapes import Architecture

Symmetry = Callable[[int, int], tuple[int, int]]

# The 8 symmetries written out on (row, column).
SYMMETRIES: tuple[Symmetry, ...] = (
    lambda r, c: (r, c), lambda r, c: (r, 7 - c), lambda r, c: (7 - r, c), lambda r, c: (7 - r, 7 - c),
    lambda r, c: (c, r), lambda r, c: (c, 7 - r), lambda r, c: (7 - c, r), lambda r, c: (7 - c, 7 - r),
)


def image(square: int, sym: Symmetry) -> int:
    """The square ``square`` maps to under ``sym``."""
    r, c = sym(square // 8, square % 8)
    return r * 8 + c


def transform_board(bits: int, sym: Symmetry) -> int:
    """A bitboard's image under ``sym``."""
    return sum(1 << image(s, sym) for s in range(64) if bits >> s & 1)


def reference_reads(arch: Architecture, mine: int, theirs: int) -> list[int]:
    """The LUT entry (into one stage's weights) that every base tuple's
    distinct ordered images read, digit 0 empty, 1 mine, 2 theirs, first
    square least significant."""
    reads, offset = [], 0
    for t in arch.tuples:
        images: list[tuple[int, ...]] = []
        for sym in SYMMETRIES:
            im = tuple(image(s, sym) for s in t)
            if im not in images:
                images.append(im)
        for im in images:
            reads.append(offset + sum((1 if mine >> s & 1 else 2 if theirs >> s & 1 else 0) * 3 ** k
                                      for k, s in enumerate(im)))
        offset += 3 ** len(t)
    return reads


def reference_value(arch: Architecture, weights: Sequence[int], mine: int, theirs: int) -> int:
    """The plain sum of the entries :func:`reference_reads` names (each as an int)."""
    return sum(int(weights[j]) for j in reference_reads(arch, mine, theirs))
