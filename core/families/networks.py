"""n-tuple networks as the optimizer sees them (real weights) and as games
play them (integers).

An optimizer such as CMA-ES works on a vector of float64 weights, one per
LUT entry of the architecture's base tuples (:mod:`genethello.core.evaluation.ntuple_shapes`).
Games play on int32 weights quantized from it, deterministically, so every
machine computes the same values (as for GeneThello's integer genes):

1. **Pin the scale.** A 1-ply player is unchanged when all its weights are
   multiplied by a positive number, so an optimizer's weights drift in size;
   left alone they could shrink until all quantize to 0. The weights are
   therefore normalized by their *bound norm*
   ``B(w) = Σ over expanded tuples of max |LUT entry|`` (equivalently
   ``Σ over base tuples u of m_u · max |w_u|``, ``m_u`` the number of
   distinct symmetric images of ``u``): the largest |value| any position can
   get. The normalized weights have ``B = 1`` — that is the weight bound:
   every weight is within ±1/m_u ⊆ [-1, 1] — whatever the optimizer's scale.
2. **Quantize.** ``q = round_half_even(w * (SCALE / B(w)))`` (numpy's
   ``rint``; B summed exactly with ``math.fsum``), with
   ``SCALE = EVAL_LIMIT - 1 - ceil(n_expanded / 2)`` per architecture
   (:func:`scale`). Rounding moves each tuple's largest entry by at most ½,
   so the integer network's bound is at most ``SCALE + n_expanded / 2 <
   EVAL_LIMIT``: no position's value can reach the search's evaluation limit
   (genethello.core.evaluation.evaluation.EVAL_LIMIT, 4000), so none is ever clamped, and
   the whole range is used (for ``all-2``, 240 expanded tuples: SCALE 3879).
   All-zero weights quantize to all zeros.

Why this normalization and not max |w| = 1: the bound, not the largest
single weight, is what must fit the range, and normalizing it spends the
whole range on the weights actually used (a network whose edge tuples carry
most of the weight keeps its small interior weights at a finer step).

**Staged networks** (``stages`` S > 1) are what a search plays: one set of
LUTs per game stage (stage of move number n = discs - 4:
``min(n * S // 60, S - 1)``, ``ntuple.stage_of_move``), valued **in discs
for the side to move**: the real weights are discs of predicted final
margin for the player about to move (digit 1 = the side to move), and a
position's value is the sum of its stage's LUT entries. No normalization:
the scale is fixed, ``q = rint(w * DISC_UNITS)`` (``DISC_UNITS = 64``, so
1/64 disc; the patterns-v2 table's entries, in 1/32 disc, convert
exactly, see ``pattern_network.py``). The searches value the position after
a move for the mover (evaluation.pxd), which is minus the side to move's
value: the typed evaluator holds the LUTs turned round (``mover_view``).
A search's evaluation is then 64 units a disc, clamped to ±EVAL_LIMIT
(±62.5 discs), below any decided game. A *whole-disc* network
(``whole_disc_weight`` k > 0) plays k times the mover's whole discs,
floored: GeneThello's pattern feature with weight k (the pattern-table
network's k is p_1_10's 10). S = 1 is the networks above, unchanged.

**Mobility** (``mobility``, staged networks without a whole-disc weight:
kinds ``ARCH-sS-m``): after the S stages' LUTs the weights hold, per
stage, :data:`MOBILITY_ENTRIES` more, discs for the side to move when it
has c legal moves (c = 0 .. 33, capped): one more "tuple" a position
reads, whose index is a move count instead of squares. It is what
``fdmxcp_52`` adds to the pattern table (its m gene), learned per stage
like any weight (td.pyx reads it as a position's last index).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

import numpy as np

from genethello.core.evaluation.evaluation import EVAL_LIMIT
from genethello.core.evaluation.ntuple import MAX_STAGES, MOBILITY_ENTRIES, NTupleEvaluator, swapped_lut_order
from genethello.core.evaluation.ntuple_shapes import Architecture

__all__ = ["DISC_UNITS", "MAX_WEIGHT", "MIN_BOUND", "MOBILITY_ENTRIES", "Network", "bound_norm", "mover_view",
           "normalized", "quantize", "quantize_discs", "scale", "weight_count", "weights_digest"]

#: The largest |weight| a network holds. Only the weights' ratios matter (the
#: bound norm divides them out), and an optimizer's weights stay within a
#: few thousand; near the float range the bound norm's exact sum overflows.
MAX_WEIGHT = 1e150
#: The smallest non-zero bound norm quantized: below it SCALE / B is
#: infinite (subnormal weights) and every weight would become INT_MIN.
MIN_BOUND = 1e-150

#: A staged network's integers per disc (ntuple.pxd DISC_UNITS): weights
#: and values in 1/64 disc.
DISC_UNITS = 64


def scale(arch: Architecture) -> int:
    """The quantization scale of ``arch``: EVAL_LIMIT - 1 - ceil(expanded tuples / 2).

    Raises:
        ValueError: for an architecture too large to fit the range.
    """
    n = len(arch.expanded)
    s: int = EVAL_LIMIT - 1 - (n + 1) // 2
    if s < 100:
        raise ValueError(f"architecture {arch.name!r} has {n} expanded tuples: too many for the "
                         f"evaluation range ±{EVAL_LIMIT}")
    return s


def weight_count(arch: Architecture, stages: int = 1, mobility: bool = False) -> int:
    """How many weights a network of ``arch`` has: every stage's LUTs, then
    every stage's mobility entries when it weighs mobility."""
    return stages * (arch.n_weights + (MOBILITY_ENTRIES if mobility else 0))


def _as_weights(arch: Architecture, weights: object, stages: int = 1, mobility: bool = False) -> np.ndarray:
    w = np.asarray(weights, dtype=np.float64)
    n = weight_count(arch, stages, mobility)
    if w.shape != (n,):
        raise ValueError(f"architecture {arch.name!r} with {stages} stage(s){' and mobility' if mobility else ''} "
                         f"takes {n} weights, got shape {w.shape}")
    if not np.all(np.isfinite(w)):
        raise ValueError("network weights must be finite numbers")
    if w.size and float(np.abs(w).max()) > MAX_WEIGHT:
        raise ValueError(f"network weights must lie within ±{MAX_WEIGHT:g}, got {float(np.abs(w).max()):g}")
    return w


def bound_norm(arch: Architecture, weights: object) -> float:
    """B(w): the sum over expanded tuples of the largest |weight| of the LUT
    each reads (exactly rounded, the same on every machine)."""
    w = _as_weights(arch, weights)
    terms = []
    start = 0
    for size, m in zip(arch.lut_sizes, arch.multiplicities):
        terms.append(m * float(np.abs(w[start:start + size]).max()))
        start += size
    return math.fsum(terms)


def normalized(arch: Architecture, weights: object) -> np.ndarray:
    """The weights divided by their bound norm (B = 1); zeros stay zeros."""
    w = _as_weights(arch, weights)
    b = bound_norm(arch, w)
    return w / b if b > 0 else w.copy()


def quantize(arch: Architecture, weights: object) -> np.ndarray:
    """The int32 weights games play on (module docstring)."""
    w = _as_weights(arch, weights)
    b = bound_norm(arch, w)
    if b == 0:
        return np.zeros(arch.n_weights, dtype=np.int32)
    if b < MIN_BOUND:
        raise ValueError(f"network weights too small to quantize: their bound norm is {b:g}, less than "
                         f"{MIN_BOUND:g} (all zeros is the zero network)")
    q = np.rint(w * (scale(arch) / b)).astype(np.int32)
    return q


def quantize_discs(arch: Architecture, weights: object, stages: int, mobility: bool = False) -> np.ndarray:
    """A staged network's int32 weights: ``rint(w * DISC_UNITS)`` (module docstring).

    Raises:
        ValueError: for a weight of 2**18 discs or more (far beyond any
            value a search can use; the LUT sums must fit an int).
    """
    w = _as_weights(arch, weights, stages, mobility)
    if w.size and float(np.abs(w).max()) * DISC_UNITS >= 2 ** 24:
        raise ValueError("a staged network's weights are discs: these are too large (|w| >= 2**18)")
    q: np.ndarray = np.rint(w * DISC_UNITS).astype(np.int32)
    return q


def mover_view(arch: Architecture, int_weights: np.ndarray, stages: int) -> np.ndarray:
    """A staged network's integer LUTs turned from the side to move's value
    to the mover's (what the searches read, evaluation.pxd): the mover's
    entry is minus the side to move's at the index with the digits 1 and 2
    exchanged (the mover's discs are the side to move's "other" discs).
    Mobility entries after the LUTs are negated in place (their index is
    the side to move's move count in both views)."""
    order = np.concatenate([start + swapped_lut_order(len(t))
                            for start, t in zip(np.cumsum((0,) + arch.lut_sizes)[:-1], arch.tuples)])
    all_q = np.asarray(int_weights, dtype=np.int32)
    q = all_q[:stages * arch.n_weights].reshape(stages, arch.n_weights)
    return np.ascontiguousarray(np.concatenate([-q[:, order].reshape(-1), -all_q[stages * arch.n_weights:]]))


def weights_digest(arch: Architecture, int_weights: np.ndarray, stages: int = 1, whole_disc_weight: int = 0,
                   mobility: bool = False) -> str:
    """12 hex digits identifying integer weights with their architecture
    and scale: BLAKE2b of the tuples text, the scale and the weights
    (little-endian int32); a staged network's also hashes its stages, its
    disc scale and its whole-disc weight, and a mobility network's says so."""
    h = hashlib.blake2b(digest_size=6)
    h.update(arch.text().encode())
    if stages == 1:
        h.update(f"scale={scale(arch)}\n".encode())
    else:
        h.update(f"stages={stages}\ndisc_units={DISC_UNITS}\nto_move\nwhole_disc_weight={whole_disc_weight}\n".encode())
        if mobility:
            h.update(f"mobility={MOBILITY_ENTRIES}\n".encode())
    h.update(np.ascontiguousarray(int_weights, dtype="<i4").tobytes())
    return h.hexdigest()


@dataclass(frozen=True, eq=False)
class Network:
    """An n-tuple network: an architecture and its real weights.

    Attributes:
        architecture: which squares each LUT reads.
        weights: float64 [stages * architecture.n_weights], read-only (stage
            0's LUTs first).
        stages: 1 (today's networks) or S > 1: a staged network valued in
            discs for the side to move (module docstring).
        whole_disc_weight: a staged network's whole-disc weight (0: none).
        mobility: whether its weights end with each stage's mobility
            entries (a staged network without a whole-disc weight).
    """

    architecture: Architecture
    weights: np.ndarray
    stages: int = 1
    whole_disc_weight: int = 0
    mobility: bool = False
    _quantized: list[np.ndarray] = field(default_factory=list, repr=False)
    _digest: list[str] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.stages, int) or not 1 <= self.stages <= MAX_STAGES:
            raise ValueError(f"a network has 1..{MAX_STAGES} stages, not {self.stages!r}")
        if not isinstance(self.whole_disc_weight, int) or self.whole_disc_weight < 0 or (
                self.whole_disc_weight and self.stages == 1):
            raise ValueError(f"whole_disc_weight {self.whole_disc_weight!r}: an int >= 0, and 0 unless staged")
        if self.mobility is not False and (self.mobility is not True or self.stages == 1 or self.whole_disc_weight):
            raise ValueError(f"mobility {self.mobility!r}: a bool, and True only for a staged network without a "
                             "whole-disc weight")
        w = _as_weights(self.architecture, self.weights, self.stages, self.mobility).copy()
        w.setflags(write=False)
        object.__setattr__(self, "weights", w)

    @classmethod
    def random(cls, arch: Architecture, rng: np.random.Generator, sigma: float = 1.0, stages: int = 1) -> Network:
        """Weights drawn N(0, sigma²) from ``rng`` (explicit, for reproducibility)."""
        return cls(arch, rng.normal(0.0, sigma, stages * arch.n_weights), stages)

    @property
    def staged(self) -> bool:
        """Whether this is a staged network, valued in discs (S > 1)."""
        return self.stages > 1

    def with_weights(self, weights: object) -> Network:
        """A network of this one's kind (architecture, stages, whole-disc
        weight, mobility) on other real ``weights``. Not
        ``dataclasses.replace``: that would carry this network's cached
        integers and digest over to the new weights."""
        return Network(self.architecture, np.asarray(weights, dtype=np.float64), self.stages,
                       self.whole_disc_weight, self.mobility)

    @property
    def int_weights(self) -> np.ndarray:
        """The quantized weights (computed once): today's by their bound,
        a staged network's in 1/DISC_UNITS disc for the side to move."""
        if not self._quantized:
            if self.staged:
                q = quantize_discs(self.architecture, self.weights, self.stages, self.mobility)
            else:
                q = quantize(self.architecture, self.weights)
            q.setflags(write=False)
            self._quantized.append(q)
        found: np.ndarray = self._quantized[0]
        return found

    def evaluator(self) -> NTupleEvaluator:
        """The typed evaluator on the quantized weights (a staged network's
        turned to the mover's view, :func:`mover_view`)."""
        if self.staged:
            return NTupleEvaluator(self.architecture, mover_view(self.architecture, self.int_weights, self.stages),
                                   self.stages, self.whole_disc_weight, self.mobility)
        return NTupleEvaluator(self.architecture, self.int_weights)

    def digest(self) -> str:
        """The quantized network's identity (:func:`weights_digest`),
        computed once: a learned member is named, stored and kept by it, and
        hashing ``patterns-v2-net``'s 5 million weights costs 0.03-0.05 s."""
        if not self._digest:
            self._digest.append(weights_digest(self.architecture, self.int_weights, self.stages,
                                               self.whole_disc_weight, self.mobility))
        return self._digest[0]


#: The pattern table the pattern-table network is made of, and the weight
#: p_1_10 gives its pattern feature (``p``: the table's whole discs, x 10).
PATTERN_NETWORK_TABLE = "patterns-v2"
PATTERN_NETWORK_WEIGHT = 10


def pattern_table_network(version: str = PATTERN_NETWORK_TABLE,
                          whole_disc_weight: int = PATTERN_NETWORK_WEIGHT) -> Network:
    """The patterns-v2 table as a staged network of the ``patterns-v2``
    architecture: 30 stages (the table's), valued in discs for the side to
    move, whole-disc weight ``whole_disc_weight`` (10: the value p_1_10
    gives every position, ``10 * floor(table sum / 32)``).

    How the table's entries become LUTs: the table holds, per stage, one
    LUT per shape in 1/32 disc for the mover (digit 1 = the player who just
    moved), read once per instance; the table's 46 instances are the
    architecture's 46 physical tuples. Where two symmetric images of a
    shape read the same squares in another order (edge+2X and its mirror,
    the 3x3 corner and its transpose, a line and its reverse) the network
    reads the base LUT twice on one physical tuple, and the table ties
    those entries (each equals its mirror's), so a base LUT of the table's
    entries gives each physical tuple twice the entry: 2T in 1/64 disc =
    T in 1/32 disc. The 2x5 corner's 8 images are 8 distinct square sets,
    read once each: its base LUT is 2T. Turned to the side to move (digits
    exchanged, negated) and divided by 64, those are the real weights:
    exact, since every one is a whole number of 1/64 discs. The conversion
    checks that every physical LUT entry equals twice the table's.

    Raises:
        ValueError: for a table whose tied entries are not equal (it would
            not be a network of this architecture).
    """
    from genethello.core.evaluation import ntuple
    from genethello.core.evaluation.ntuple_shapes import architecture, expand
    from genethello.core.evaluation.pattern_table import shared_table

    arch = architecture(version)
    table = shared_table(version).array.astype(np.int64)           # (stages, stage size), 1/32 disc
    stages = table.shape[0]
    if table.shape[1] != arch.n_weights:
        raise ValueError(f"pattern table {version} has {table.shape[1]} entries a stage, the architecture "
                         f"{arch.name} {arch.n_weights}")
    # the ordered images each physical tuple merges: 2, or 1 for the 2x5 corner
    reads = [len(expand(t)) // len({frozenset(image) for image in expand(t)}) for t in arch.tuples]
    mover = table * np.repeat(2 // np.array(reads), arch.lut_sizes)   # 1/64 disc, the mover's view
    gather = ntuple.merged_reads(arch)
    for stage in range(stages):
        padded = np.append(mover[stage], 0)
        if not np.array_equal(padded[gather].sum(axis=1), 2 * table[stage][gather[:, 0]]):
            raise ValueError(f"pattern table {version} stage {stage}: tied entries differ")
    order = np.concatenate([start + ntuple.swapped_lut_order(len(t))
                            for start, t in zip(np.cumsum((0,) + arch.lut_sizes)[:-1], arch.tuples)])
    to_move = -mover[:, order]
    return Network(arch, (to_move / DISC_UNITS).reshape(-1), stages, whole_disc_weight)
