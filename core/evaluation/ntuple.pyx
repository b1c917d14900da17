"""n-tuple networks evaluated in typed code: :class:`NTupleEvaluator` holds
a network's integer weights and the arrays that say which squares each
expanded tuple reads (:mod:`genethello.core.evaluation.ntuple_shapes`), laid out for
the ``nogil`` helpers of ``ntuple.pxd`` (a full evaluation here; the
batch game loop of ``ntuple_games.pyx`` updates the tuple indices move by
move instead).
"""

import functools

import numpy as np

from libc.stdint cimport uint64_t, int32_t


def pow_three(n) -> int:
    """3**n as a Python integer (Cython's ** on C ints gives a double)."""
    return int(3) ** int(n)


def lut_digits(length):
    """The ternary digits of every LUT index of a ``length``-square tuple
    (numpy int64 [3**length, length], digit k = square k)."""
    idx = np.arange(pow_three(length), dtype=np.int64)
    return np.stack([(idx // pow_three(k)) % 3 for k in range(length)], axis=1).reshape(-1, length)


def swapped_lut_order(length):
    """For a LUT of a ``length``-square tuple, the index each entry takes
    when the digits 1 and 2 are exchanged (numpy int64, 3**length long)."""
    idx = np.arange(pow_three(length), dtype=np.int64)
    out = np.zeros_like(idx)
    power = 1
    for _ in range(length):
        digit = (idx // power) % 3
        out += np.where(digit == 0, 0, 3 - digit) * power
        power *= 3
    return out


class _Layout:
    """What every network of one architecture shares: its physical tuples'
    squares, offsets and incidences, and how their LUTs gather the base
    weights. Expanded tuples on the same squares (one read in two orders)
    are merged into one physical tuple whose LUT is the sum of theirs, read
    in the order of the first: fewer lookups, the same values."""

    def __init__(self, architecture):
        lut_starts = np.cumsum((0,) + architecture.lut_sizes)[:-1]
        physical = {}
        for base, sq in architecture.expanded:
            physical.setdefault(tuple(sorted(sq)), [sq, []])[1].append((base, sq))
        n = len(physical)
        widest = max(len(members) for _, members in physical.values())
        base_offset = np.zeros(n, dtype=np.int32)
        length = np.zeros(n, dtype=np.int32)
        squares = np.zeros((n, NTUPLE_MAX_LENGTH), dtype=np.int32)
        gathers, swaps = [], []
        incidences = [[] for _ in range(64)]
        offset = 0
        for t, (order, members) in enumerate(physical.values()):
            size = pow_three(len(order))
            digits = lut_digits(len(order))
            gather = np.full((size, widest), architecture.n_weights, dtype=np.int64)
            for j, (base, sq) in enumerate(members):
                member_index = sum(digits[:, order.index(s)] * pow_three(k) for k, s in enumerate(sq))
                gather[:, j] = lut_starts[base] + member_index
            gathers.append(gather)
            swaps.append(offset + swapped_lut_order(len(order)))
            base_offset[t] = offset
            offset += size
            length[t] = len(order)
            squares[t, :len(order)] = order
            for k, s in enumerate(order):
                incidences[s].append((t, pow_three(k)))
        begin = np.zeros(65, dtype=np.int32)
        begin[1:] = np.cumsum([len(x) for x in incidences])
        images = np.zeros(len(architecture.tuples), dtype=np.int64)
        for base, _ in architecture.expanded:
            images[base] += 1
        self.n_tuples = n
        self.lut_starts = lut_starts.astype(np.int64)
        self.images = images                      # expanded tuples of each base tuple
        self.gather = np.concatenate(gathers)
        self.swap = np.concatenate(swaps)
        self.base_offset = base_offset
        self.length = length
        self.squares = squares
        self.begin = begin
        self.inc_tuple = np.array([t for x in incidences for t, _ in x], dtype=np.int32)
        self.inc_power = np.array([p for x in incidences for _, p in x], dtype=np.int32)
        for a in (self.gather, self.swap, base_offset, length, squares, begin, self.inc_tuple, self.inc_power):
            a.setflags(write=False)


@functools.lru_cache(maxsize=64)
def _layout(architecture):
    """The architecture's :class:`_Layout`, built once per process (an
    evaluator then costs a gather and a sum, not a walk over the tuples:
    fitness builds thousands); a run uses a few architectures, so 64 kept
    bound a process that is sent many. A layout is read-only: which ones
    are kept changes no value."""
    return _Layout(architecture)


cdef class NTupleEvaluator:
    """A network with integer weights, ready for typed evaluation.

    Args:
        architecture: an ``ntuple_shapes.Architecture``.
        int_weights: ``architecture.n_weights`` integers (the base tuples'
            LUTs in order, digit 1 = the side valued), already quantized
            (``networks.quantize``).
    Raises:
        ValueError: for a wrong number of weights.
    """

    def __init__(self, architecture, int_weights):
        w = np.ascontiguousarray(int_weights, dtype=np.int32)
        if w.ndim != 1 or w.shape[0] != architecture.n_weights:
            raise ValueError(f"architecture {architecture.name!r} takes {architecture.n_weights} weights, "
                             f"got {w.size}")
        layout = _layout(architecture)
        # Each physical LUT entry is the sum of the base entries it merges
        # (index n_weights: a zero that pads entries merging fewer).
        padded = np.zeros(w.shape[0] + 1, dtype=np.int64)
        padded[:-1] = w
        merged = padded[layout.gather].sum(axis=1)
        table = merged.astype(np.int32)
        swapped = merged[layout.swap].astype(np.int32)
        maxima = np.maximum.reduceat(np.abs(padded[:-1]), layout.lut_starts)
        w.setflags(write=False)
        self.architecture = architecture
        self.int_weights = w
        self.bound = int(maxima @ layout.images)
        self._arrays = (table, swapped, layout)
        base_offset, length, squares, begin, inc_tuple, inc_power = (
            layout.base_offset, layout.length, layout.squares, layout.begin, layout.inc_tuple, layout.inc_power)
        n = layout.n_tuples
        cdef const int32_t[::1] v
        self.net.n_tuples = n
        v = base_offset
        self.net.base_offset = &v[0]
        v = length
        self.net.length = &v[0]
        v = squares.reshape(-1)
        self.net.squares = &v[0]
        v = table
        self.net.weights = &v[0]
        v = swapped
        self.net.weights_swapped = &v[0]
        v = begin
        self.net.incidence_begin = &v[0]
        v = inc_tuple
        self.net.incidence_tuple = &v[0]
        v = inc_power
        self.net.incidence_power = &v[0]

    def __reduce__(self):
        return (NTupleEvaluator, (self.architecture, self.int_weights))

    @property
    def n_tuples(self) -> int:
        """Physical tuples: the expanded tuples (every base tuple's distinct
        symmetric images), those on the same squares merged into one."""
        return self.net.n_tuples

    def value(self, uint64_t mine, uint64_t theirs) -> int:
        """The network's value of the position (bitboards, bit
        ``row * 8 + column``) for the side owning ``mine``."""
        if mine & theirs:
            raise ValueError("a square is both mine and theirs")
        return ntuple_value(&self.net, mine, theirs)
