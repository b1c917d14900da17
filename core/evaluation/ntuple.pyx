"""n-tuple networks evaluated in typed code: :class:`NTupleEvaluator` holds
a network's integer weights and the arrays that say which squares each
expanded tuple reads (:mod:`genethello.core.evaluation.ntuple_shapes`), laid out for
the ``nogil`` helpers of ``ntuple.pxd`` (a full evaluation here; the
batch game loop of ``ntuple_games.pyx`` updates the tuple indices move by
move instead).
"""

import functools

import numpy as np

from libc.stdint cimport uint64_t, int16_t, int32_t

#: The most stages a staged network has: one per move number 0..60.
MAX_STAGES = 61
#: A stage's LUT entries above which the incremental leaves read int16
#: copies (see NTupleEvaluator): 16K int32 entries fill a 64 KiB L1.
INT16_LUT_ENTRIES = 16384


def stage_of_move(n_stages) -> np.ndarray:
    """The stage of each move number 0..60 (discs on the board - 4) in a
    network of ``n_stages`` stages: ``min(n * S // 60, S - 1)``, S equal
    spans of the game (S = 30: two moves a stage, the patterns-v2 table's
    stages exactly; S = 1: stage 0 always). numpy int32 [61]."""
    s = int(n_stages)
    if not 1 <= s <= MAX_STAGES:
        raise ValueError(f"a network has 1..{MAX_STAGES} stages, not {n_stages!r}")
    return np.minimum(np.arange(61, dtype=np.int64) * s // 60, s - 1).astype(np.int32)


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
    in the order of the first: fewer lookups, the same values.

    Physical tuples whose LUTs sum the same base entries, entry for entry
    (the symmetric images of one base tuple, each read in the image of the
    base's order: the four edges of ``patterns-v2``, the eight 2x5
    corners), share one LUT: their ``base_offset`` is the same. Every
    network of the architecture gives them equal entries whatever its
    weights, so the values are those of one LUT a tuple, and a stage holds
    a base tuple's LUT about once instead of once an image
    (``patterns-v2-net``: 167,265 entries a stage instead of 892,134, the
    size of ``p_1_10``'s table): the searches' leaves read a fifth of the
    memory, an evaluator is built and learned in place over a fifth of the
    entries."""

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
        shared = {}                               # a LUT's reads (each entry's sorted) -> its offset
        incidences = [[] for _ in range(64)]
        offset = 0
        for t, (order, members) in enumerate(physical.values()):
            size = pow_three(len(order))
            digits = lut_digits(len(order))
            gather = np.full((size, widest), architecture.n_weights, dtype=np.int64)
            for j, (base, sq) in enumerate(members):
                member_index = sum(digits[:, order.index(s)] * pow_three(k) for k, s in enumerate(sq))
                gather[:, j] = lut_starts[base] + member_index
            reads = np.sort(gather, axis=1).tobytes()
            if reads in shared:
                base_offset[t] = shared[reads]
            else:
                shared[reads] = base_offset[t] = offset
                gathers.append(gather)
                swaps.append(offset + swapped_lut_order(len(order)))
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
        self.gather = np.concatenate(gathers)     # each distinct LUT's entries' reads, one stage
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


def merged_reads(architecture):
    """Which base weights each LUT entry of a stage sums (numpy int64
    [entries of one stage, most images merged]; ``n_weights`` pads; a LUT
    that physical tuples share is there once): an entry is the sum of
    those base entries, the first column read in the order of the first
    physical tuple that reads it. For conversions that must land on given
    physical LUTs (the pattern table's)."""
    return _layout(architecture).gather


cdef class NTupleEvaluator:
    """A network with integer weights, ready for typed evaluation.

    Args:
        architecture: an ``ntuple_shapes.Architecture``.
        int_weights: ``stages * architecture.n_weights`` integers (each
            stage's base tuples' LUTs in order, digit 1 = the side valued),
            already quantized (``networks.quantize``).
        stages: sets of LUTs, one per game stage (:func:`stage_of_move`);
            1 is today's network.
        whole_disc_weight: 0 (the value is the LUT sum), or k > 0: the
            value is k times the sum's whole discs, floored (the sum being
            in 1/DISC_UNITS disc): GeneThello's pattern feature with weight
            k, which the pattern-table network reproduces.
        mobility: ``int_weights`` end with ``stages * MOBILITY_ENTRIES``
            more integers, each stage's mobility entries (ntuple.pxd: the
            value the side valued gets by its opponent's legal moves).
            Staged networks without a whole-disc weight only.
    Raises:
        ValueError: for a wrong number of weights or stages.
    """

    def __init__(self, architecture, int_weights, int stages=1, int whole_disc_weight=0, bint mobility=False):
        stage_map = stage_of_move(stages)
        if whole_disc_weight < 0:
            raise ValueError(f"whole_disc_weight must be >= 0, got {whole_disc_weight}")
        if mobility and (stages == 1 or whole_disc_weight):
            raise ValueError("mobility entries belong to a staged network without a whole-disc weight")
        full = np.ascontiguousarray(int_weights, dtype=np.int32)
        tail = stages * MOBILITY_ENTRIES if mobility else 0
        if full.ndim != 1 or full.shape[0] != stages * architecture.n_weights + tail:
            raise ValueError(f"architecture {architecture.name!r} with {stages} stage(s) "
                             f"{'and mobility ' if mobility else ''}takes {stages * architecture.n_weights + tail} "
                             f"weights, got {full.size}")
        w = full[:stages * architecture.n_weights]
        layout = _layout(architecture)
        # Each physical LUT entry is the sum of the base entries it merges
        # (index n_weights: a zero that pads entries merging fewer), every
        # stage at once: one gather a merged image, in int32 when no sum
        # can overflow it (patterns-v2-net's 30 stages of 892,134 entries:
        # 0.3 s, where a stage at a time in int64 took 2.6 s).
        n_weights = architecture.n_weights
        widest = layout.gather.shape[1]
        wide = np.int64 if w.size and int(np.abs(w.astype(np.int64)).max()) * widest >= 2 ** 31 else np.int32
        padded = np.zeros((stages, n_weights + 1), dtype=wide)
        padded[:, :-1] = w.reshape(stages, n_weights)
        merged = padded[:, layout.gather[:, 0]]
        for j in range(1, widest):
            merged += padded[:, layout.gather[:, j]]
        merged32 = merged.astype(np.int32, copy=False)
        table = np.ascontiguousarray(merged32).reshape(-1)
        swapped = np.ascontiguousarray(merged32[:, layout.swap]).reshape(-1)
        maxima = np.maximum.reduceat(np.abs(padded[:, :-1].astype(np.int64)), layout.lut_starts, axis=1)
        bound = int((maxima @ layout.images).max())
        stage_size = layout.gather.shape[0]
        # The incremental leaves read int16 copies of LUTs larger than a
        # core's L1 when the entries fit (bench_network_search, depth 4, 40
        # games: patterns-v2-net, 167,265 entries a stage, 3.97e6 nodes/s
        # with int32 LUTs, 4.28-4.38e6 with int16; all-2, 1,890 entries,
        # went from 0.80x to 0.57x of fdmxcp_52 with int16: small LUTs stay int32).
        fits16 = (stage_size > INT16_LUT_ENTRIES and table.size > 0
                  and int(np.abs(table).max()) < 2 ** 15)
        table16 = table.astype(np.int16) if fits16 else None
        swapped16 = swapped.astype(np.int16) if fits16 else None
        full.setflags(write=False)
        self.architecture = architecture
        self.int_weights = full
        self.mobility = mobility
        self.bound = bound
        self.n_stages = stages
        self.whole_disc_weight = whole_disc_weight
        self._arrays = (table, swapped, layout, stage_map, table16, swapped16)
        base_offset, length, squares, begin, inc_tuple, inc_power = (
            layout.base_offset, layout.length, layout.squares, layout.begin, layout.inc_tuple, layout.inc_power)
        n = layout.n_tuples
        cdef const int32_t[::1] v
        cdef const int16_t[::1] v16
        self.net.weights16 = NULL
        self.net.weights16_swapped = NULL
        if fits16:
            v16 = table16
            self.net.weights16 = &v16[0]
            v16 = swapped16
            self.net.weights16_swapped = &v16[0]
        self.net.n_tuples = n
        self.net.n_stages = stages
        self.net.stage_size = stage_size
        self.net.whole_disc_weight = whole_disc_weight
        v = stage_map
        self.net.stage_of_move = &v[0]
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
        self.net.mobility = NULL
        self.net.mobility_max = NULL
        cdef int32_t[::1] m
        if mobility:
            entries = np.array(full[stages * architecture.n_weights:], dtype=np.int32)
            self._mobility = (entries, entries.reshape(stages, MOBILITY_ENTRIES).max(axis=1).astype(np.int32))
            m = self._mobility[0]
            self.net.mobility = &m[0]
            m = self._mobility[1]
            self.net.mobility_max = &m[0]

    cdef void set_mobility_entry(self, int i, int value) noexcept:
        """Mobility entry ``i`` (stage * MOBILITY_ENTRIES + moves) becomes
        ``value`` (the mover's view), its stage's bound kept (live.pyx)."""
        entries, maxima = self._mobility
        entries[i] = value
        stage = i // MOBILITY_ENTRIES
        maxima[stage] = entries[stage * MOBILITY_ENTRIES:(stage + 1) * MOBILITY_ENTRIES].max()

    def __reduce__(self):
        return (NTupleEvaluator, (self.architecture, self.int_weights, self.n_stages, self.whole_disc_weight,
                                  self.mobility))

    @property
    def nbytes(self) -> int:
        """The bytes this evaluator holds of its own: the integer weights
        and the merged LUTs with their colour-swapped twins and int16
        copies (the layout, shared by every network of the architecture,
        is not counted). What a cache of evaluators weighs them by."""
        table, swapped, _layout, stage_map, table16, swapped16 = self._arrays
        return int(self.int_weights.nbytes + table.nbytes + swapped.nbytes + stage_map.nbytes
                   + sum(a.nbytes for a in (table16, swapped16) + (self._mobility or ()) if a is not None))

    @property
    def n_tuples(self) -> int:
        """Physical tuples: the expanded tuples (every base tuple's distinct
        symmetric images), those on the same squares merged into one."""
        return self.net.n_tuples

    def value(self, uint64_t mine, uint64_t theirs) -> int:
        """The network's value of the position (bitboards, bit
        ``row * 8 + column``) for the side owning ``mine`` (which just
        moved: a mobility network counts the other side's moves)."""
        if mine & theirs:
            raise ValueError("a square is both mine and theirs")
        return network_value(&self.net, mine, theirs)


cdef class NTupleTracker:
    """A search's incremental tuple indices (ntuple.pxd's NTupleState) for
    networks of one architecture: the searcher that owns it points its leaf
    evaluation here, so a leaf moves only the tuples through the squares
    that changed since the last position valued. Not shared between
    threads (each Searcher has its own).

    Args:
        evaluator: an :class:`NTupleEvaluator` of the architecture tracked.
    """

    def __init__(self, NTupleEvaluator evaluator):
        self._layout = evaluator._arrays[2]
        self._index = np.zeros(self._layout.n_tuples, dtype=np.int32)
        self._scratch = np.zeros(self._layout.n_tuples, dtype=np.int32)
        cdef int32_t[::1] v = self._index
        self.state.index = &v[0]
        v = self._scratch
        self.state.scratch = &v[0]
        self.state.check = False
        self.reset()

    cdef void reset(self) except *:
        """Start from the empty board: every index its tuple's base offset."""
        self._index[:] = self._layout.base_offset
        self.state.first = 0
        self.state.second = 0
        self.state.checked = 0
        self.state.mismatches = 0

    def tracks(self, NTupleEvaluator evaluator) -> bool:
        """Whether this tracker's indices fit ``evaluator`` (the same
        architecture's layout)."""
        return evaluator._arrays[2] is self._layout

    @property
    def checking(self) -> bool:
        """Check mode: every value is also computed in full, and the
        disagreements counted (``checked``, ``mismatches``). For tests."""
        return self.state.check

    @checking.setter
    def checking(self, bint on) -> None:
        self.state.check = on

    @property
    def checked(self) -> int:
        """Values computed both ways since the tracker was made or reset."""
        return self.state.checked

    @property
    def mismatches(self) -> int:
        """Of those, the values whose incremental and full computations
        differed (0 unless the incremental update is wrong)."""
        return self.state.mismatches

    def indices(self) -> tuple[int, int, list[int]]:
        """The position the indices describe (digit-1 bitboard, digit-2
        bitboard) and the indices, base offsets included (for tests)."""
        return self.state.first, self.state.second, [int(x) for x in self._index]

    def value(self, NTupleEvaluator evaluator, uint64_t mine, uint64_t theirs) -> int:
        """``evaluator``'s value of the position for ``mine`` through the
        incremental indices (moved to the position), as a search reads it."""
        if not self.tracks(evaluator):
            raise ValueError("this tracker follows another architecture's tuples")
        if mine & theirs:
            raise ValueError("a square is both mine and theirs")
        return ntuple_value_tracked(&evaluator.net, &self.state, mine, theirs)

    def clear_counts(self) -> None:
        """Set ``checked`` and ``mismatches`` to 0."""
        self.state.checked = 0
        self.state.mismatches = 0
