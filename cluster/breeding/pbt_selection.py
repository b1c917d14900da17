"""Selection that keeps learning: pbt-td's ready criterion, hyperparameter
bounds and resampling, and a best so far that never goes down (issue 36).

The 48-minute ``pbt-td`` run showed three ways population-based training
stalls: a member copied from on one lucky ranking spreads noise, explore's
repeated ``/ perturb_factor`` anneals α to 0.0003 and λ to 0.03 (the
population stops learning), and the best so far is whoever tops a noisy
ranking. As pure functions (no Ray, no database; every draw from the
Generator handed in, and none when a feature is off, so a run with the
defaults is bit for bit today's):

* :func:`ready` — Jaderberg et al.'s (2017) "ready" criterion: a member is
  copied from only once its weights have been its own for ``min_slices``
  slices, and only when it is ahead of the member it would replace by more
  than ``z`` standard errors of the two scores that rank them;
* :func:`bounded` and :func:`resampled` — floors under α, λ and ε after
  explore, and with probability ``p`` each hyperparameter drawn afresh from
  its prior instead of perturbed (α log-uniform, λ and ε uniform, the
  depth uniform), so annealing cannot freeze the population;
* :func:`gate_best` — a new best replaces the best so far only when an SPRT
  at the measure's depth accepts that it is stronger (:mod:`genethello.core.play.sprt`,
  game pairs, logistic Elo); undecided or rejected, the old one stays.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from genethello.core.play.scoring import Z95, MatchScore, wilson_interval
from genethello.core.play.sprt import Pentanomial, Sprt


def score_stderr(points: float, games: int) -> float:
    """The standard error of a score (points / games), with the score taken
    as (points + 1) / (games + 2) so that a clean sweep is not certain."""
    if games <= 0 or not 0 <= points <= games:
        raise ValueError(f"{points} points of {games} games: need games > 0 and 0 <= points <= games")
    p = (points + 1) / (games + 2)
    return math.sqrt(p * (1 - p) / games)


def ahead_beyond_noise(donor_points: float, receiver_points: float, games: int, z: float) -> bool:
    """Whether the donor's score beats the receiver's by more than ``z``
    standard errors of the difference (each ranked by ``games`` games;
    ``z = 0``: any lead)."""
    difference = (donor_points - receiver_points) / games
    noise = math.hypot(score_stderr(donor_points, games), score_stderr(receiver_points, games))
    return difference > z * noise


def ready(since_copy: int, min_slices: int, donor_points: float, receiver_points: float, games: int,
          z: float) -> bool:
    """PBT's ready criterion: the donor has learned ``min_slices`` slices
    or more since it was last copied into (``since_copy``), and leads the
    receiver beyond the noise of its ranking (:func:`ahead_beyond_noise`;
    ``z = 0`` or ``games = 0``: no noise test)."""
    if since_copy < min_slices:
        return False
    return z <= 0 or games <= 0 or ahead_beyond_noise(donor_points, receiver_points, games, z)


def since_copy_after(since_copy: Sequence[int], copied: Sequence[bool]) -> list[int]:
    """Each slot's slices since its last copy after one more slice: 1 for a
    slot copied into this generation (it learns its first slice of its
    own), else one more than before."""
    return [1 if c else s + 1 for s, c in zip(since_copy, copied, strict=True)]


@dataclass(frozen=True)
class HyperPrior:
    """Where α, λ, ε and the self-play depth are drawn from when resampled,
    and the floors they are kept above (0: no floor)."""

    alpha: tuple[float, float]         # log-uniform, 0 < low <= high <= 1
    lam: tuple[float, float]           # uniform in [0, 1]
    epsilon: tuple[float, float]       # uniform in [0, 1]
    max_depth: int                     # depth uniform in 1..max_depth
    alpha_floor: float = 0.0
    lambda_floor: float = 0.0
    epsilon_floor: float = 0.0

    def __post_init__(self) -> None:
        a, lam, e = self.alpha, self.lam, self.epsilon
        if not (0 < a[0] <= a[1] <= 1 and 0 <= lam[0] <= lam[1] <= 1 and 0 <= e[0] <= e[1] <= 1
                and self.max_depth >= 1):
            raise ValueError(f"a hyperparameter prior out of range: {self}")


Values = tuple[float, float, float, int]
"""α, λ, ε, depth."""


def bounded(values: Values, prior: HyperPrior) -> Values:
    """``values`` with α, λ and ε raised to their floors (unchanged where
    the floor is 0 or below them)."""
    alpha, lam, epsilon, depth = values
    return (max(alpha, prior.alpha_floor), max(lam, prior.lambda_floor), max(epsilon, prior.epsilon_floor), depth)


def resampled(values: Values, prior: HyperPrior, probability: float, rng: np.random.Generator
              ) -> tuple[Values, str]:
    """With ``probability`` each, α, λ, ε and the depth drawn afresh from
    ``prior`` (four coins, then one draw for each that came up); with a line
    naming those drawn ('' for none). ``probability = 0`` draws nothing
    from ``rng``."""
    if probability <= 0:
        return values, ""
    coins = rng.random(4) < probability
    alpha, lam, epsilon, depth = values
    said = []
    if coins[0]:
        low, high = prior.alpha
        alpha = float(math.exp(rng.uniform(math.log(low), math.log(high))))
        said.append(f"alpha ~{alpha:.4g}")
    if coins[1]:
        lam = float(rng.uniform(*prior.lam))
        said.append(f"lambda ~{lam:.4g}")
    if coins[2]:
        epsilon = float(rng.uniform(*prior.epsilon))
        said.append(f"epsilon ~{epsilon:.4g}")
    if coins[3]:
        depth = int(rng.integers(1, prior.max_depth + 1))
        said.append(f"depth ~{depth}")
    return (alpha, lam, epsilon, depth), " ".join(said)


Gate = Literal["replace", "keep", "play on"]


def gate_best(pair_points: Sequence[float], sprt: Sprt, max_pairs: int) -> Gate:
    """Whether a challenger replaces the best so far, from its game pairs
    against it at the measure's depth (each pair one opening with both
    colours; the challenger's points, 0 .. 2): 'replace' once the SPRT
    accepts H1 (stronger by ``sprt.elo1``), 'keep' once it accepts H0 or
    ``max_pairs`` pairs leave it undecided, else 'play on'. The best so far
    therefore never goes down by more than the test's error rates allow."""
    counts = Pentanomial()
    for points in pair_points[:max_pairs]:
        counts = counts.add(points)
        decision = sprt.decision(sprt.llr(counts))     # the test stops at the first pair that decides it
        if decision is not None:
            return "replace" if decision == "H1" else "keep"
    return "keep" if counts.pairs >= max_pairs else "play on"


def interval_gate(score: MatchScore, z: float = Z95) -> bool:
    """The fixed-sample gate: replace when the challenger's score against
    the best so far has its whole interval above ½."""
    return score.games > 0 and wilson_interval(score.points, score.games, z)[0] > 0.5
