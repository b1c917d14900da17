"""n-tuple networks as the optimizer sees them (real weights) and as games
play them (integers).

An optimizer such as CMA-ES works on a vector of float64 weights, one per
LUT entry of the architecture's base tuples (:mod:`genethello.core.ntuple_shapes`).
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
   (genethello.core.evaluation.EVAL_LIMIT, 4000), so none is ever clamped, and
   the whole range is used (for ``all-2``, 240 expanded tuples: SCALE 3879).
   All-zero weights quantize to all zeros.

Why this normalization and not max |w| = 1: the bound, not the largest
single weight, is what must fit the range, and normalizing it spends the
whole range on the weights actually used (a network whose edge tuples carry
most of the weight keeps its small interior weights at a finer step).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

import numpy as np

from genethello.core.evaluation import EVAL_LIMIT
from genethello.core.ntuple import NTupleEvaluator
from genethello.core.ntuple_shapes import Architecture

__all__ = ["MAX_WEIGHT", "MIN_BOUND", "Network", "bound_norm", "normalized", "quantize", "scale", "weights_digest"]

#: The largest |weight| a network holds. Only the weights' ratios matter (the
#: bound norm divides them out), and an optimizer's weights stay within a
#: few thousand; near the float range the bound norm's exact sum overflows.
MAX_WEIGHT = 1e150
#: The smallest non-zero bound norm quantized: below it SCALE / B is
#: infinite (subnormal weights) and every weight would become INT_MIN.
MIN_BOUND = 1e-150


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


def _as_weights(arch: Architecture, weights: object) -> np.ndarray:
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (arch.n_weights,):
        raise ValueError(f"architecture {arch.name!r} takes {arch.n_weights} weights, got shape {w.shape}")
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


def weights_digest(arch: Architecture, int_weights: np.ndarray) -> str:
    """12 hex digits identifying integer weights with their architecture
    and scale: BLAKE2b of the tuples text, the scale and the weights
    (little-endian int32)."""
    h = hashlib.blake2b(digest_size=6)
    h.update(arch.text().encode())
    h.update(f"scale={scale(arch)}\n".encode())
    h.update(np.ascontiguousarray(int_weights, dtype="<i4").tobytes())
    return h.hexdigest()


@dataclass(frozen=True, eq=False)
class Network:
    """An n-tuple network: an architecture and its real weights.

    Attributes:
        architecture: which squares each LUT reads.
        weights: float64 [architecture.n_weights], read-only.
    """

    architecture: Architecture
    weights: np.ndarray
    _quantized: list[np.ndarray] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        w = _as_weights(self.architecture, self.weights).copy()
        w.setflags(write=False)
        object.__setattr__(self, "weights", w)

    @classmethod
    def random(cls, arch: Architecture, rng: np.random.Generator, sigma: float = 1.0) -> Network:
        """Weights drawn N(0, sigma²) from ``rng`` (explicit, for reproducibility)."""
        return cls(arch, rng.normal(0.0, sigma, arch.n_weights))

    @property
    def int_weights(self) -> np.ndarray:
        """The quantized weights (computed once)."""
        if not self._quantized:
            q = quantize(self.architecture, self.weights)
            q.setflags(write=False)
            self._quantized.append(q)
        found: np.ndarray = self._quantized[0]
        return found

    def evaluator(self) -> NTupleEvaluator:
        """The typed evaluator on the quantized weights."""
        return NTupleEvaluator(self.architecture, self.int_weights)

    def digest(self) -> str:
        """The quantized network's identity (:func:`weights_digest`)."""
        return weights_digest(self.architecture, self.int_weights)
