"""Ratings of a whole tournament at once: a Bradley–Terry fit with error bars.

Unlike incremental Elo, the fit does not depend on the order of the games.
The model: player i has strength ``gamma_i = exp(theta_i)`` and scores
against j with probability ``gamma_i / (gamma_i + gamma_j)``; a draw counts
as half a win and half a loss. Colour is ignored (no first-move term): in a
round robin every pair meets once with each colour, so it cancels.

Fitting uses Hunter's (2004) MM (minorization–maximization) algorithm, a
fixed-point iteration that increases the likelihood at every step. MM
converges only linearly, and very slowly for a player who won or lost
nearly everything, so each iteration also tries a Newton step and keeps
whichever of the two reaches the higher log-posterior: MM's guaranteed
ascent far from the optimum, Newton's quadratic convergence near it. It
runs for at most a fixed number of iterations or until the largest change
in any ``theta`` falls below a tolerance; no randomness is involved, so the
result is deterministic.

A weak prior keeps every rating finite: each player is given
``prior_games`` virtual games, scored as draws, against a virtual average
player of fixed strength 1 (theta 0). Without it a player who won (or lost)
every game would run off to +infinity (-infinity), and players whose games
do not connect them would have no common scale.

Ratings are reported on the Elo scale, ``400 * log10(gamma)``, centred so
that the mean over ``players`` is 0; standard errors are those of the
centred ratings (see :func:`fit_bradley_terry`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from genethello.cluster.fitness.elo import Contestant, check_score

#: Factor from natural-log strength to Elo points: 400 / ln(10).
ELO_PER_NAT = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class RatingEstimate:
    """One player's fitted rating.

    Attributes:
        rating: Elo-scale rating, centred so the field's mean is 0.
        stderr: standard error of ``rating``, in Elo points.
        games: real games played (the prior's virtual games not counted).
        score: points scored in those games: 1 per win, 0.5 per draw.
    """

    rating: float
    stderr: float
    games: int
    score: float


def _tally(
    players: Sequence[Contestant], games: Iterable[tuple[Contestant, Contestant, float]]
) -> tuple[np.ndarray, np.ndarray]:
    """Game counts per pair (symmetric matrix) and points per player."""
    index = {player: i for i, player in enumerate(players)}
    if len(index) != len(players):
        raise ValueError("players contains duplicates; each player must appear once")
    n = len(players)
    counts = np.zeros((n, n))
    points = np.zeros(n)
    for position, (black, white, score_black) in enumerate(games):
        try:
            score = check_score(score_black)
        except ValueError as error:
            raise ValueError(f"game {position}: {error}") from None
        for player in (black, white):
            if player not in index:
                raise ValueError(f"game {position}: player {player!r} is not among the players")
        if black == white:
            raise ValueError(f"game {position}: player {black!r} cannot play itself")
        b, w = index[black], index[white]
        counts[b, w] += 1
        counts[w, b] += 1
        points[b] += score
        points[w] += 1.0 - score
    return counts, points



def _win_probabilities(theta: np.ndarray) -> np.ndarray:
    """p[i, j]: probability that i scores against j, 1 / (1 + exp(theta_j - theta_i))."""
    return np.asarray(1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None])))


def _log_posterior(theta: np.ndarray, counts: np.ndarray, wins: np.ndarray, prior_games: float) -> float:
    """Log-likelihood of the games plus the prior's virtual draws, up to a constant.

    ``wins`` already includes the prior's half points.
    """
    pair_log_norm = np.logaddexp(theta[:, None], theta[None, :])
    return float(
        wins @ theta - 0.5 * np.sum(counts * pair_log_norm) - prior_games * np.sum(np.logaddexp(theta, 0.0))
    )


def _gradient(theta: np.ndarray, counts: np.ndarray, wins: np.ndarray, prior_games: float) -> np.ndarray:
    """Derivative of the log-posterior in theta: points minus expected points."""
    p = _win_probabilities(theta)
    prior_p = 1.0 / (1.0 + np.exp(-theta))
    return np.asarray(wins - (counts * p).sum(axis=1) - prior_games * prior_p)


def _information(theta: np.ndarray, counts: np.ndarray, prior_games: float) -> np.ndarray:
    """Observed Fisher information in theta: minus the log-posterior's Hessian.

    For the logistic model it does not depend on the results themselves:
    each game between i and j contributes ``p_ij * p_ji`` (the variance of
    its score) to both diagonal entries and subtracts it off the diagonal;
    the prior adds ``prior_games * p_i0 * p_0i`` to the diagonal, which
    makes the matrix positive definite.
    """
    p = _win_probabilities(theta)
    pair_variance = counts * p * p.T
    prior_p = 1.0 / (1.0 + np.exp(-theta))
    information = -pair_variance
    information[np.diag_indices(len(theta))] = pair_variance.sum(axis=1) + prior_games * prior_p * (1.0 - prior_p)
    return np.asarray(information)


def _mm_step(theta: np.ndarray, counts: np.ndarray, wins: np.ndarray, prior_games: float) -> np.ndarray:
    """One MM update (Hunter 2004, eq. 3) in theta = log(gamma), the virtual
    average player fixed at gamma 1."""
    gamma = np.exp(theta)
    denominator = (counts / (gamma[:, None] + gamma[None, :])).sum(axis=1) + prior_games / (gamma + 1.0)
    return np.asarray(np.log(wins) - np.log(denominator))


def fit_bradley_terry(
    players: Sequence[Contestant],
    games: Iterable[tuple[Contestant, Contestant, float]],
    *,
    iterations: int = 1_000,
    tolerance: float = 1e-10,
    prior_games: float = 1.0,
    anchor: Contestant | None = None,
) -> dict[Contestant, RatingEstimate]:
    """Bradley–Terry ratings and standard errors for a set of games.

    The MM update (Hunter 2004, eq. 3, with the prior's virtual games) is
    ``gamma_i <- W_i / (sum_j n_ij / (gamma_i + gamma_j) + m / (gamma_i + 1))``
    where ``W_i`` is i's points plus ``m / 2`` and ``m = prior_games``; each
    iteration keeps the Newton step instead when it reaches a log-posterior
    at least as high (see the module docstring).

    Standard errors come from the inverse of the observed Fisher
    information, the negative Hessian of the log-posterior in ``theta``
    (prior included), evaluated at the fit. The prior makes that matrix
    positive definite, so it is inverted directly, with no player fixed.
    The covariance of the reported, centred ratings is then
    ``C Σ C`` with ``C = I - 11ᵀ/n`` the centring matrix, so each error bar
    measures the player's rating relative to the field average.

    Args:
        players: the players to rate, each once; the result keeps this order.
        games: ``(black, white, score_black)``, score_black 1, 0.5 or 0.
        iterations: most iterations (MM or Newton steps) to run.
        tolerance: stop once no ``theta`` (natural-log strength) moves by
            more than this in an iteration.
        prior_games: virtual drawn games per player against the virtual
            average player; must be positive.
        anchor: report every rating relative to this player (whose rating
            is then 0 with error 0), each error being that of the difference
            to the anchor; None: relative to the field's mean.

    Returns:
        A RatingEstimate per player, keyed by player, in ``players`` order;
        empty if there are no players.

    Raises:
        ValueError: for duplicate players, unknown players or bad scores in
            games, self-play, or a non-positive iterations/tolerance/prior.
    """
    if iterations < 1:
        raise ValueError(f"iterations={iterations!r} must be >= 1")
    if not tolerance > 0:
        raise ValueError(f"tolerance={tolerance!r} must be positive")
    if not prior_games > 0:
        raise ValueError(f"prior_games={prior_games!r} must be positive (it keeps ratings finite)")
    players = list(players)
    counts, points = _tally(players, games)
    n = len(players)
    if n == 0:
        return {}

    wins = points + prior_games / 2.0
    theta = np.zeros(n)
    objective = _log_posterior(theta, counts, wins, prior_games)
    for _ in range(iterations):
        candidate = _mm_step(theta, counts, wins, prior_games)
        candidate_objective = _log_posterior(candidate, counts, wins, prior_games)
        # MM alone converges only linearly, very slowly for a player who won
        # or lost (nearly) everything; a Newton step is kept when it does
        # better, which makes the tail quadratic without giving up MM's
        # guaranteed ascent.
        try:
            newton = theta + np.linalg.solve(
                _information(theta, counts, prior_games), _gradient(theta, counts, wins, prior_games)
            )
        except np.linalg.LinAlgError:
            newton = None
        if newton is not None and np.all(np.isfinite(newton)):
            newton_objective = _log_posterior(newton, counts, wins, prior_games)
            if newton_objective >= candidate_objective:
                candidate, candidate_objective = newton, newton_objective
        step = float(np.max(np.abs(candidate - theta)))
        if candidate_objective < objective:
            break  # only rounding noise is left to gain
        theta, objective = candidate, candidate_objective
        if step < tolerance:
            break

    covariance = np.linalg.inv(_information(theta, counts, prior_games))
    if anchor is None:
        centring = np.eye(n) - 1.0 / n
        variance = np.diag(centring @ covariance @ centring)
        ratings = ELO_PER_NAT * (theta - theta.mean())
    else:
        if anchor not in players:
            raise ValueError(f"anchor {anchor!r} is not among the players")
        a = players.index(anchor)
        # Var(θi − θa) = Σii + Σaa − 2Σia
        variance = np.diag(covariance) + covariance[a, a] - 2.0 * covariance[:, a]
        ratings = ELO_PER_NAT * (theta - theta[a])
    stderrs = ELO_PER_NAT * np.sqrt(np.clip(variance, 0.0, None))
    games_played = counts.sum(axis=1)
    return {
        player: RatingEstimate(
            rating=float(ratings[i]),
            stderr=float(stderrs[i]),
            games=int(games_played[i]),
            score=float(points[i]),
        )
        for i, player in enumerate(players)
    }
