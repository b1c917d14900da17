"""A staged network's real weights and its typed evaluator, kept in step in
place while it learns.

Learning used to rebuild the evaluator from every weight after each batch
of games and copy and round every weight at a slice's end: for
``patterns-v2-net`` (30 stages of 167,265 weights, 27 million LUT
entries) 1.5-2 s a slice whatever its games. :class:`LiveNetwork` holds
the weights (float64, the side to move's view), their quantized integers
and one :class:`~genethello.core.evaluation.ntuple.NTupleEvaluator`, and
after an update :meth:`LiveNetwork.settle` visits only the weights the
update touched (:class:`~genethello.core.learning.td.TouchedWeights`):
each is clipped to ±``limit`` (and rounded to the ``grid`` when asked),
requantized (``rint(w * DISC_UNITS)``, ``networks.quantize_discs``), and
where its integer moved, the evaluator's LUT entries that sum it are
moved by the same amount (the merged physical entries, their
colour-swapped twins and the int16 copies; a mobility entry, the
evaluator's entry and its stage's bound). Clipping and rounding are
elementwise, so doing them on the touched weights gives what doing them
on every weight gives whenever the untouched ones are already within the
limit and on the grid; the constructor flags those that are not, so the
first settle brings them there as well.

The evaluator's LUTs then equal, entry for entry, those of
``Network(arch, weights, stages, k).evaluator()`` (tested), so a search
plays the same moves; its ``int_weights`` and ``bound`` stay those it was
built with (nothing the searches read).
"""

from libc.math cimport rint
from libc.stdint cimport int16_t, int32_t

import functools

import numpy as np

from genethello.core.evaluation.ntuple cimport NTupleEvaluator
from genethello.core.evaluation.ntuple import merged_reads, swapped_lut_order
from genethello.core.learning.td cimport TouchedWeights
from genethello.core.families.networks import DISC_UNITS, mover_view, quantize_discs

cdef int INT16_LIMIT = 32767


@functools.lru_cache(maxsize=8)
def _entries_of(architecture):
    """For each weight of one stage (side to move's view), the physical LUT
    entries (one stage, with multiplicity) that sum it, and their
    colour-swapped twins: (begin [n_weights + 1], entries, twins), int32."""
    from genethello.core.evaluation.ntuple import _layout

    layout = _layout(architecture)
    gather = merged_reads(architecture)
    n_weights = architecture.n_weights
    order = np.concatenate([start + swapped_lut_order(len(t)) for start, t in
                            zip(np.cumsum((0,) + architecture.lut_sizes)[:-1], architecture.tuples)])
    # mover entry m reads the side to move's weight order[m] (an involution):
    # weight j is mover entry order[j], which physical entry p sums once per column
    rows = np.repeat(np.arange(gather.shape[0], dtype=np.int64), gather.shape[1])
    mover = gather.reshape(-1)
    keep = mover < n_weights
    rows, weight = rows[keep], order[mover[keep]]
    sort = np.argsort(weight, kind="stable")
    entries = rows[sort].astype(np.int32)
    begin = np.zeros(n_weights + 1, dtype=np.int32)
    begin[1:] = np.cumsum(np.bincount(weight, minlength=n_weights))
    twins = np.asarray(layout.swap, dtype=np.int64)[entries].astype(np.int32)
    for a in (begin, entries, twins):
        a.setflags(write=False)
    return begin, entries, twins


cdef class LiveNetwork:
    """A staged network learning in place (module docstring).

    Args:
        network: the staged ``Network`` it starts from (copied).
        limit: the largest |weight| settle leaves (discs).
        grid: settle(round_to_grid=True) puts weights on multiples of 1/grid.
    """

    cdef readonly object weights          # numpy float64, the real weights (learning writes them)
    cdef readonly NTupleEvaluator evaluator
    cdef readonly TouchedWeights pending  # weights the next settle must visit though no update touched them
    cdef readonly object architecture
    cdef readonly int stages
    cdef readonly int whole_disc_weight
    cdef readonly bint mobility
    cdef readonly double limit
    cdef readonly double grid
    cdef readonly bint int16                # whether the evaluator's int16 copies are still kept
    cdef int32_t[::1] q                   # the quantized weights, side to move's view
    cdef const int32_t[::1] begin, entries, twins
    cdef int n_weights, stage_size
    cdef object table, swapped, table16, swapped16

    def __init__(self, network, double limit, double grid):
        if not network.staged:
            raise ValueError("a live network is a staged network")
        arch = network.architecture
        self.architecture = arch
        self.stages = network.stages
        self.whole_disc_weight = network.whole_disc_weight
        self.mobility = network.mobility
        self.limit = limit
        self.grid = grid
        self.weights = np.array(network.weights, dtype=np.float64)
        q = quantize_discs(arch, self.weights, self.stages, self.mobility)
        self.q = q
        self.evaluator = NTupleEvaluator(arch, mover_view(arch, q, self.stages), self.stages,
                                         self.whole_disc_weight, self.mobility)
        table, swapped, layout, _, table16, swapped16 = self.evaluator._arrays
        self.table, self.swapped, self.table16, self.swapped16 = table, swapped, table16, swapped16
        self.int16 = table16 is not None
        self.begin, self.entries, self.twins = _entries_of(arch)
        self.n_weights = arch.n_weights
        self.stage_size = layout.gather.shape[0]
        w = self.weights
        self.pending = TouchedWeights(w.size)
        self.pending.add(np.flatnonzero((np.abs(w) > limit) | (np.rint(w * grid) / grid != w)).astype(np.int32))

    def settle(self, TouchedWeights touched, bint round_to_grid=False) -> int:
        """Clip (and with ``round_to_grid``, round) the weights ``touched``
        flags and those still pending, requantize them and patch the
        evaluator where an integer moved. Returns how many integers moved.
        ``touched`` is left as it was (the caller clears it)."""
        if touched.flags.shape[0] != self.weights.size:
            raise ValueError("touched weights of another network")
        # in order of the weights: neighbours share cache lines and pages
        np.asarray(touched.items)[:touched.count].sort()
        np.asarray(self.pending.items)[:self.pending.count].sort()
        cdef int moved = self._settle(touched, round_to_grid)
        moved += self._settle(self.pending, round_to_grid)
        if round_to_grid:
            self.pending.clear()
        return moved

    cdef int _settle(self, TouchedWeights touched, bint round_to_grid) except -1:
        cdef double[::1] w = self.weights
        cdef int32_t[::1] table = self.table
        cdef int32_t[::1] swapped = self.swapped
        cdef int16_t[::1] table16
        cdef int16_t[::1] swapped16
        cdef int i, J, j, stage, base, k, new, d, moved = 0, value
        cdef double x, limit = self.limit, grid = self.grid, to_grid = 1.0 / self.grid
        if self.int16:
            table16 = self.table16
            swapped16 = self.swapped16
        for i in range(touched.count):
            J = touched.items[i]
            x = w[J]
            if x > limit:
                x = limit
            elif x < -limit:
                x = -limit
            if round_to_grid:
                x = rint(x * grid) * to_grid
            w[J] = x
            new = <int>rint(x * DISC_UNITS)
            d = new - self.q[J]
            if d == 0:
                continue
            moved += 1
            self.q[J] = new
            if J >= self.stages * self.n_weights:    # a mobility entry: the mover's is minus the side to move's
                self.evaluator.set_mobility_entry(J - self.stages * self.n_weights, -new)
                continue
            stage = J // self.n_weights
            j = J - stage * self.n_weights
            base = stage * self.stage_size
            for k in range(self.begin[j], self.begin[j + 1]):   # the mover's entries: minus the side to move's
                table[base + self.entries[k]] -= d
                swapped[base + self.twins[k]] -= d
                if self.int16:
                    value = table[base + self.entries[k]]
                    if value > INT16_LIMIT or value < -INT16_LIMIT or \
                            swapped[base + self.twins[k]] > INT16_LIMIT or \
                            swapped[base + self.twins[k]] < -INT16_LIMIT:     # as the build's |entry| < 2**15
                        self._drop_int16()
                    else:
                        table16[base + self.entries[k]] = <int16_t>value
                        swapped16[base + self.twins[k]] = <int16_t>swapped[base + self.twins[k]]
        return moved

    cdef void _drop_int16(self) noexcept:
        """An entry outgrew int16: the leaves read the int32 LUTs from now on
        (the same values; corrected leaves where the network has many tuples)."""
        self.int16 = False
        self.evaluator.net.weights16 = NULL
        self.evaluator.net.weights16_swapped = NULL

    def luts(self) -> tuple:
        """The evaluator's LUTs as the searches read them (for tests): the
        merged ones, their colour-swapped twins and, while kept, the int16
        copies of both (else None)."""
        if self.int16:
            return self.table, self.swapped, self.table16, self.swapped16
        return self.table, self.swapped, None, None

    def network(self):
        """The network as it stands (its weights copied)."""
        from genethello.core.families.networks import Network

        return Network(self.architecture, self.weights, self.stages, self.whole_disc_weight, self.mobility)
