"""Fitting the pattern tables: to game results, or to labelled positions.

What is fitted: for every stage (``patterns.stage_moves``), one value per
configuration of each pattern shape, such that the sum of the 16 instances'
values in a position predicts the game's final disc difference (empties to
the winner) for the player who just moved — the point of view of every
evaluation feature. All shapes of a stage are fitted jointly, by ridge-
regularised least squares:

    minimise  sum_positions (sum_k w[idx_k] - margin)^2 + RIDGE * sum_j w_j^2

Why least squares on the disc difference rather than logistic regression on
the win: the fitted values are then in discs, the unit of the disc feature,
so the pattern feature combines with the other weights on a known scale; the
margin carries more information per game than win/loss (a 40-24 win and a
33-31 win are different positions), and the normal equations are a linear
system that a fixed number of conjugate-gradient steps solves exactly
reproducibly. Winner prediction by sign is measured, not assumed
(``sign_accuracy``).

Shrinkage: the ridge term acts like RIDGE pseudo-positions that say 0 for
every configuration, so a configuration seen a handful of times stays near 0
while one seen thousands of times keeps its fitted value; configurations
seen fewer than MIN_COUNT times are not fitted at all (value 0). Each stage
also learns from the OVERLAP moves on either side of it, which smooths the
tables from one stage to the next.

Determinism: everything is numpy float64 in one thread: sparse products by
gather / ``np.bincount`` (sequential sums), dot products by numpy's pairwise
sum (not BLAS), a fixed number of preconditioned CG iterations, then
rounding to int16 (units of 1/TABLE_SCALE disc). The same games give the
same bytes on the same machine.

Validation: pass the training slice (``GameSet.slice('training')``);
``sign_accuracy`` on the validation slice is the honest measure.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from genethello.core.evaluation import patterns as pt
from genethello.core.pattern_learning.games import GameSet

RIDGE = 4.0           # pseudo-positions pulling each value toward 0
MIN_COUNT = 2         # configurations seen fewer times in a stage's data stay 0
ITERATIONS = 60       # preconditioned CG steps per stage
OVERLAP = 2           # a stage also learns from this many moves on each side

#: ``progress(stage, configurations fitted, training RMSE)`` after each stage.
StageProgress = Callable[[int, int, float], None]


# --------------------------------------------------------------- symmetry
def canonical_map(geometry: int = pt.V1) -> np.ndarray:
    """For each index of a stage's table, the index its value is tied to
    (the smaller of a configuration and its mirror image, per shape)."""
    g = pt.GEOMETRIES[geometry]
    out = np.arange(g["stage_size"], dtype=np.int64)
    for (_, squares, _, offset, size), mirror in zip(g["shapes"], g["mirrors"]):
        if mirror is None:
            continue
        n = len(squares)
        idx = np.arange(size, dtype=np.int64)
        digits = np.stack([(idx // 3 ** i) % 3 for i in range(n)], axis=1)
        # mirrored configuration: digit at position i moves to mirror[i]
        mirrored = np.zeros(size, dtype=np.int64)
        for i in range(n):
            mirrored += digits[:, i] * 3 ** mirror[i]
        out[offset:offset + size] = offset + np.minimum(idx, mirrored)
    return out


# --------------------------------------------------------------- learning
def pairwise_dot(a: np.ndarray, b: np.ndarray) -> float:
    """The dot product by numpy's pairwise sum: one thread, a fixed order."""
    return float(np.add.reduce(a * b))


def _fit_stage(cols: np.ndarray, y: np.ndarray, ridge: float | np.ndarray, min_count: int,
               iterations: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Ridge least squares for one stage.

    Args:
        cols: (n, instances) canonical indices; y: (n,) float64 targets.
        ridge: one ridge for every value, or one per table index.
    Returns:
        (canonical indices fitted, their values in discs, how many fitted).
    """
    n, k = cols.shape
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0), 0
    uniq, inverse = np.unique(cols.ravel(), return_inverse=True)
    inverse = inverse.reshape(n, k)
    counts = np.bincount(inverse.ravel(), minlength=uniq.size)
    rare = counts < min_count
    m = int(uniq.size)
    # rare columns go to a sentinel column m that is held at 0
    remap = np.arange(m + 1, dtype=np.int64)
    remap[:m][rare] = m
    J = remap[inverse]
    flat = J.ravel()
    # diagonal of A^T A (+ ridge) as Jacobi preconditioner; counts include
    # repeats of one column in a row only approximately (fine for a preconditioner)
    if np.ndim(ridge):
        ridge = np.append(np.asarray(ridge, dtype=np.float64)[uniq], 0.0)
    diag = np.bincount(flat, minlength=m + 1).astype(np.float64) + ridge
    inv_diag = 1.0 / diag
    inv_diag[m] = 0.0

    def apply(w: np.ndarray) -> np.ndarray:          # (A^T A + ridge I) w
        r = w[J].sum(axis=1)
        out = np.asarray(np.bincount(flat, weights=np.repeat(r, k), minlength=m + 1), dtype=np.float64)
        out += ridge * w
        out[m] = 0.0
        return out

    b = np.asarray(np.bincount(flat, weights=np.repeat(y, k), minlength=m + 1), dtype=np.float64)
    b[m] = 0.0
    w = np.zeros(m + 1)
    r = b.copy()
    z = r * inv_diag
    p = z.copy()
    rz = pairwise_dot(r, z)
    for _ in range(iterations):
        if rz == 0.0:
            break
        q = apply(p)
        pq = pairwise_dot(p, q)
        if pq == 0.0:
            break
        alpha = rz / pq
        w += alpha * p
        r -= alpha * q
        z = r * inv_diag
        rz_new = pairwise_dot(r, z)
        p = z + (rz_new / rz) * p
        rz = rz_new
    keep = ~rare
    return uniq[keep], w[:m][keep], int(keep.sum())


def ridge_least_squares(cols: np.ndarray, y: np.ndarray, ridge: float,
                        iterations: int = ITERATIONS) -> tuple[np.ndarray, np.ndarray]:
    """Minimise ``sum_i (sum_k w[cols[i, k]] - y[i])^2 + ridge * |w|^2`` over
    the indices ``cols`` names (a row may name one index several times: it
    counts that often), by the deterministic preconditioned CG that fits
    every stage here. A fit toward a start ``w0`` passes the residuals
    ``y - (sum of w0 at each row)`` and adds the result to ``w0``.

    Returns:
        (the indices seen, their fitted values).
    """
    indices, values, _ = _fit_stage(np.asarray(cols), np.asarray(y, dtype=np.float64), ridge, 1, iterations)
    return indices, values


@dataclass
class LearnReport:
    positions: int
    games: int
    fitted: list[int] = field(default_factory=list)      # configurations fitted per stage
    rmse: list[float] = field(default_factory=list)      # training RMSE (discs) per stage


def learn(games: GameSet, ridge: float = RIDGE, min_count: int = MIN_COUNT,
          iterations: int = ITERATIONS, overlap: int = OVERLAP, progress: StageProgress | None = None,
          geometry: int = pt.V1) -> tuple[np.ndarray, LearnReport]:
    """Fit a table of ``geometry`` on every position of ``games`` (pass the
    training slice) to the games' final results.

    Returns:
        (int16 table of the geometry's shape, report).
    """
    table, report = learn_labels(games.movers, games.others, games.targets, geometry, None, ridge=ridge,
                                 min_count=min_count, iterations=iterations, overlap=overlap, progress=progress)
    report.games = games.games
    return table, report


# ------------------------------------------------- learning from labels
LABEL_RIDGE = 8.0        # pseudo-positions pulling each value toward the prior's
LARGE_SHAPE = 19683      # shapes with at least this many configurations take ``large_ridge``
LABEL_OVERLAP = 2        # moves on each side of a v2 stage (2 moves wide) also learnt from


def prior_values(prior: np.ndarray | None, geometry: int) -> np.ndarray:
    """A starting table (float64 discs) of ``geometry`` from ``prior`` (a
    table of any geometry, or None: zeros): each stage takes the prior's
    values of its first move's stage for the shapes they share (v1's shapes
    open every geometry's layout); shapes the prior lacks start at 0."""
    g = pt.GEOMETRIES[geometry]
    out = np.zeros((g["n_stages"], g["stage_size"]), dtype=np.float64)
    if prior is None:
        return out
    prior = np.asarray(prior)
    pg = pt.GEOMETRIES[pt.geometry_of_table(prior)]
    shared = min(pg["stage_size"], g["stage_size"])
    for stage in range(g["n_stages"]):
        first, _ = pt.stage_moves(stage, geometry)
        source = pt.stage_of_move(first, pt.geometry_of_table(prior))
        out[stage, :shared] = prior[source, :shared].astype(np.float64) / pt.TABLE_SCALE_
    return out


def learn_labels(movers: np.ndarray, others: np.ndarray, values: np.ndarray, geometry: int = pt.V2,
                 prior: np.ndarray | None = None, ridge: float = LABEL_RIDGE, min_count: int = MIN_COUNT,
                 iterations: int = ITERATIONS, overlap: int = LABEL_OVERLAP,
                 progress: StageProgress | None = None,
                 large_ridge: float | None = None) -> tuple[np.ndarray, LearnReport]:
    """Fit a table of ``geometry`` to labelled positions (``patterns label``).

    Each stage is the prior's (``prior_values``) plus a ridge least-squares
    correction fitted to the labels' residuals against it: a configuration
    the labels never show keeps the prior's value, one they show thousands
    of times takes theirs. The same deterministic CG as ``learn``.

    Args:
        movers, others: the positions (uint64); values: their labels (discs
            for the mover).
        large_ridge: the ridge of the shapes with LARGE_SHAPE or more
            configurations (the corners and edges, whose values the prior
            knows from far more games than the labels hold); None: ``ridge``.
    Returns:
        (int16 table, report with per-stage configurations fitted and RMSE).
    """
    g = pt.GEOMETRIES[geometry]
    canon = canonical_map(geometry)
    idx = canon[pt.indices(movers, others, geometry)]
    moves = pt.move_numbers(movers, others)
    y_all = np.asarray(values, dtype=np.float64)
    start = prior_values(prior, geometry)
    penalty: float | np.ndarray = ridge
    if large_ridge is not None:
        penalty = np.full(g["stage_size"], float(ridge))
        for _, _, _, offset, size in g["shapes"]:
            if size >= LARGE_SHAPE:
                penalty[offset:offset + size] = large_ridge
    table = np.zeros((g["n_stages"], g["stage_size"]), dtype=np.int16)
    report = LearnReport(positions=int(moves.size), games=0)
    for stage in range(g["n_stages"]):
        first, last = pt.stage_moves(stage, geometry)
        rows = (moves >= first - overlap) & (moves <= last + overlap)
        base = start[stage]
        residual = y_all[rows] - base[idx[rows]].sum(axis=1)
        cols, delta, fitted = _fit_stage(idx[rows], residual, penalty, min_count, iterations)
        full = base.copy()
        full[cols] += delta
        full = full[canon]
        q = np.clip(np.rint(full * pt.TABLE_SCALE_), -32767, 32767).astype(np.int16)
        table[stage] = q
        in_stage = (moves >= first) & (moves <= last)
        pred = q.astype(np.int64)[idx[in_stage]].sum(axis=1) / pt.TABLE_SCALE_
        err = pred - y_all[in_stage]
        report.fitted.append(fitted)
        report.rmse.append(float(np.sqrt(pairwise_dot(err, err) / max(1, err.size))))
        if progress is not None:
            progress(stage, fitted, report.rmse[-1])
    return table, report
