"""Smoothing a staged network's weights across its stages.

A staged network holds one set of LUTs (and, with ``-m``, mobility entries)
per game stage: 30 stages of two moves for ``patterns-v2-s30``. Each stage
learns only from its own positions, so neighbouring stages that should
value a configuration almost alike differ by noise: a pattern seen a few
times at move 24 and never at move 26 has a learned value at one and its
start at the other. Buro fitted Logistello's stages on overlapping move
ranges for the same reason. :func:`smoothed_stages` replaces every stage's
weights by a Gaussian-weighted mean over the stages around it:

    w'_s = Σ_t k(s - t) w_clamp(t) / Σ_t k(s - t),
    k(d) = exp(-d² / (2 σ²)),  |d| <= ceil(3 σ),

where ``clamp(t)`` is the nearest stage (the first and last stage stand for
the stages beyond the ends, so a trend at the ends is kept, not pulled
toward the middle). σ is in stages. Weights that are equal across the
stages, and weights linear in the stage away from the ends, come out as
they went in; everything else is averaged with its neighbours.

Measured (docs/networks.md, "A fourth stage"): ``table-player-3``'s
weights smoothed with σ = 3 stages gain about +60 on the strength panel's
scale, the pattern table's own (``patterns-v2-net``) about +20.
"""

from __future__ import annotations

import math

import numpy as np

from genethello.core.families.network_family import NetworkKind
from genethello.core.families.networks import MOBILITY_ENTRIES, Network

__all__ = ["MAX_SIGMA", "smoothed_change", "smoothed_stages", "stage_kernel"]

#: The widest smoothing accepted, in stages: wider is every stage's mean.
MAX_SIGMA = 100.0


def stage_kernel(sigma: float) -> np.ndarray:
    """The Gaussian kernel k(d) for d = -r .. r, r = ceil(3 σ), unnormalized."""
    if not isinstance(sigma, (int, float)) or not 0.0 < sigma <= MAX_SIGMA or math.isnan(sigma):
        raise ValueError(f"sigma {sigma!r}: a number of stages above 0 and at most {MAX_SIGMA:g}")
    radius = math.ceil(3 * sigma)
    d = np.arange(-radius, radius + 1, dtype=np.float64)
    return np.asarray(np.exp(-d * d / (2.0 * sigma * sigma)))


def smoothed_stages(network: Network, sigma: float) -> Network:
    """``network`` with every stage's weights (LUTs and mobility entries)
    replaced by the Gaussian-weighted mean of its neighbours' (module
    docstring). A new network of the same kind: architecture, stages,
    whole-disc weight and mobility are kept.

    Raises:
        ValueError: a single-stage network (nothing to smooth) or a bad σ.
    """
    if not network.staged:
        raise ValueError(f"a network of {network.stages} stage has no stages to smooth")
    kernel = stage_kernel(sigma)
    kernel /= kernel.sum()
    radius = kernel.size // 2
    stages = network.stages
    per_stage = network.architecture.n_weights
    parts = [network.weights[:stages * per_stage].reshape(stages, per_stage)]
    if network.mobility:
        parts.append(network.weights[stages * per_stage:].reshape(stages, MOBILITY_ENTRIES))
    smoothed = []
    for part in parts:
        # The first and last stage repeated `radius` times stand for the stages beyond the ends.
        padded = np.pad(part, ((radius, radius), (0, 0)), mode="edge")
        out = np.zeros_like(part)
        for j, k in enumerate(kernel):
            out += k * padded[j:j + stages]
        smoothed.append(out.ravel())
    return network.with_weights(np.concatenate(smoothed))


def smoothed_change(start: Network, learned: Network, sigma: float) -> Network:
    """``start`` plus the change learning made to it, smoothed across the
    stages: ``start + smoothed_stages(learned - start, sigma)``. Each
    stage's step is shared with its neighbours, as if every position had
    taught the stages around its own too (Buro's overlapping stages),
    while the start's own differences between stages are kept: smoothing
    a learning run's weights every slice would flatten them further each
    time.

    Raises:
        ValueError: networks of different kinds, a single-stage network or a bad σ.
    """
    if NetworkKind.of(start) != NetworkKind.of(learned):
        raise ValueError("the start and the learned network are of different kinds")
    change = start.with_weights(learned.weights - start.weights)
    return start.with_weights(start.weights + smoothed_stages(change, sigma).weights)
