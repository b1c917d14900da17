"""One player's rating against opponents whose ratings are fixed.

The strength panel (:mod:`genethello.cluster.measures.panel`) rates a
candidate on the panel's own scale: the panel's players were rated once, by
a Bradley–Terry fit of their round robin (the anchors, with their standard
errors), and the candidate's rating is then the one unknown of the same
model — the maximum-likelihood ``r`` of

    P(candidate beats j) = 1 / (1 + 10 ** ((r_j - r) / 400))

given its points against each anchored opponent ``j`` (a draw half a win,
as in :mod:`genethello.cluster.fitness.tournament_rating`). The likelihood
is concave in ``r`` and its slope ``points - expected points`` falls as
``r`` rises, so the maximum is found by bisection, and it is infinite when
the candidate won (or lost) every game.

The 95% interval is the likelihood-ratio one: every ``r`` whose
log-likelihood lies within ``z² / 2`` of the maximum. It stays sound at a
score of 0% or 100% (one end is then infinite) where the Fisher-information
interval would be a point. The anchors' own errors are added by the delta
method: ``r̂`` moves by ``I_j / I`` per point of ``r_j`` (``I_j`` the
information of the games against ``j``, ``I`` their sum), so each half-width
grows to ``√(h² + z² Σ (I_j σ_j / I)²)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from genethello.core.play.scoring import Z95

#: Elo points per natural-log unit of strength: 400 / ln 10.
ELO_PER_NAT = 400.0 / math.log(10.0)

#: Ratings searched for the maximum and the interval's ends: far beyond any
#: finite estimate from a few thousand games against anchors within it.
_SPAN = 4_000.0
_STEPS = 200


@dataclass(frozen=True)
class AnchoredResult:
    """The candidate's games against one opponent of fixed rating."""

    rating: float          # the opponent's anchored rating (Elo)
    games: int
    points: float          # 1 a win, ½ a draw
    stderr: float = 0.0    # of the opponent's anchored rating

    def __post_init__(self) -> None:
        if self.games < 0 or not 0 <= self.points <= self.games:
            raise ValueError(f"points {self.points} of {self.games} games: need 0 <= points <= games")
        if not math.isfinite(self.rating) or not (self.stderr >= 0 and math.isfinite(self.stderr)):
            raise ValueError(f"anchored rating {self.rating} ± {self.stderr}: need finite numbers, stderr >= 0")


@dataclass(frozen=True)
class AnchoredRating:
    """A rating with its interval (Elo; an end is ±inf when every game was
    won or lost, and the rating itself then too)."""

    rating: float
    low: float
    high: float
    games: int


def expected(rating: float, opponent: float) -> float:
    """Bradley–Terry's expected score of ``rating`` against ``opponent``."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


def log_likelihood(rating: float, results: Sequence[AnchoredResult]) -> float:
    """The log-likelihood of ``rating`` given the results (draws as half
    a win and half a loss)."""
    total = 0.0
    for r in results:
        if r.games == 0:
            continue
        # log p and log (1 - p) computed stably for large differences
        x = (rating - r.rating) / ELO_PER_NAT
        log_p = -math.log1p(math.exp(-x)) if x > -30 else x
        log_q = -math.log1p(math.exp(x)) if x < 30 else -x
        total += r.points * log_p + (r.games - r.points) * log_q
    return total


def _slope(rating: float, results: Sequence[AnchoredResult]) -> float:
    """Points minus expected points: the likelihood's derivative (in nats)."""
    return sum(r.points - r.games * expected(rating, r.rating) for r in results)


def _bisect(f: Callable[[float], float], low: float, high: float) -> float:
    """The root of a decreasing function on [low, high] (``f(low) > 0 > f(high)``)."""
    for _ in range(_STEPS):
        mid = (low + high) / 2
        if f(mid) > 0:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def _information(rating: float, results: Sequence[AnchoredResult]) -> list[float]:
    """Each opponent's Fisher information at ``rating`` (in nats⁻²)."""
    return [r.games * expected(rating, r.rating) * (1 - expected(rating, r.rating)) for r in results]


def anchored_rating(results: Sequence[AnchoredResult], z: float = Z95) -> AnchoredRating:
    """The maximum-likelihood rating of a player with ``results`` against
    anchored opponents, with its likelihood-ratio interval at ``z`` widened
    by the anchors' errors (see the module docstring).

    Raises:
        ValueError: no games at all.
    """
    played = [r for r in results if r.games > 0]
    games = sum(r.games for r in played)
    if not played:
        raise ValueError("no games: a rating needs at least one")
    points = sum(r.points for r in played)
    centre = min(r.rating for r in played), max(r.rating for r in played)
    low_end, high_end = centre[0] - _SPAN, centre[1] + _SPAN
    if points == games:
        rating = math.inf
    elif points == 0:
        rating = -math.inf
    else:
        rating = _bisect(lambda x: _slope(x, played), low_end, high_end)
    best = log_likelihood(rating, played) if math.isfinite(rating) else 0.0
    drop = z * z / 2

    def above(x: float) -> float:
        return log_likelihood(x, played) - (best - drop)

    low = -math.inf if points == 0 else _bisect(lambda x: -above(x), low_end,
                                                rating if math.isfinite(rating) else high_end)
    high = math.inf if points == games else _bisect(above, rating if math.isfinite(rating) else low_end,
                                                     high_end)
    at = rating if math.isfinite(rating) else (low if math.isfinite(low) else high)
    info = _information(at, played)
    spread = z * math.sqrt(sum((i * r.stderr) ** 2 for i, r in zip(info, played, strict=True))) / sum(info) \
        if sum(info) > 0 else 0.0
    if spread > 0 and math.isfinite(rating):
        low = rating - math.hypot(rating - low, spread) if math.isfinite(low) else low
        high = rating + math.hypot(high - rating, spread) if math.isfinite(high) else high
    elif spread > 0:
        low, high = low - spread, high + spread
    return AnchoredRating(rating, low, high, games)


def performance(opponent: float, games: int, points: float, opponent_stderr: float = 0.0,
                z: float = Z95) -> AnchoredRating:
    """The rating that ``points`` of ``games`` against one opponent of
    rating ``opponent`` shows: ``opponent + 400 log10(s / (1 - s))``, with
    its interval (:func:`anchored_rating` of that one result)."""
    return anchored_rating([AnchoredResult(opponent, games, points, opponent_stderr)], z)


def format_rating(value: AnchoredRating) -> str:
    """'+143 [+98, +190]', '>+610 [+610, inf]' for a clean sweep."""
    def signed(x: float) -> str:
        return "inf" if x == math.inf else "-inf" if x == -math.inf else f"{round(x):+d}"   # never -0

    if value.rating == math.inf:
        return f">{signed(value.low)}"
    if value.rating == -math.inf:
        return f"<{signed(value.high)}"
    return f"{signed(value.rating)} [{signed(value.low)}, {signed(value.high)}]"
