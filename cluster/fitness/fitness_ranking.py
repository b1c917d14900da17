"""How a generation kept as points orders its members for selection
(``fitness.ranking``): a table of rankings, each a pure function of the
members' total points and their score against each opponent.

- ``points`` (the default): total points, then the slot. An opponent that
  spreads the members' scores widely (an easy one, an exploitable one)
  decides most of the order.
- ``opponent-ranks``: each opponent ranks the members by their score
  against it (ties share the mean rank); a member's place is its mean rank
  over the opponents it played, then its total points, then its slot. Every
  opponent weighs the same whatever the spread of its scores: a single
  opponent cannot dominate the order (Rosin & Belew's point about fitness
  against a hall of fame, made on ranks).
- ``worst-opponent``: a member's lowest score over the opponents it
  played, then its total points, then its slot (maximin: a member is as
  good as its worst matchup).

The score against each opponent comes from each game's points
(:func:`scores_by_opponent`), which a generation keeps only when its
ranking asks for them (:attr:`FitnessRanking.needs_games`): a run ranked by
points stores exactly what it stored before this table existed. Only
selection reads the ranking: a member's rating (its performance in its
generation) stays its total points.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from genethello.cluster.config import table_entry

__all__ = ["FITNESS_RANKINGS", "FitnessRanking", "fitness_ranking", "scores_by_opponent"]


def scores_by_opponent(black: np.ndarray, white: np.ndarray, black_points: np.ndarray, members: int,
                       contestants: int) -> tuple[np.ndarray, np.ndarray]:
    """Points and games of each member slot against each contestant:
    float64 [members, contestants] each, from every game's Black and White
    (indices: the members first, then the others) and Black's points.
    A member's games against itself never happen; a contestant it never
    met has 0 games."""
    black = np.asarray(black, dtype=np.int64)
    white = np.asarray(white, dtype=np.int64)
    pts = np.asarray(black_points, dtype=np.float64)
    points = np.zeros((members, contestants), dtype=np.float64)
    games = np.zeros((members, contestants), dtype=np.float64)
    for me, them, mine in ((black, white, pts), (white, black, 1.0 - pts)):
        counted = me < members
        np.add.at(points, (me[counted], them[counted]), mine[counted])
        np.add.at(games, (me[counted], them[counted]), 1.0)
    return points, games


def _by_points(total: np.ndarray, points: np.ndarray | None, games: np.ndarray | None) -> list[int]:
    return sorted(range(total.size), key=lambda i: (-total[i], i))


def _score_table(points: np.ndarray | None, games: np.ndarray | None) -> np.ndarray:
    """Each member's score against each opponent it met (NaN where it met
    none), over the opponents that met any member."""
    if points is None or games is None:
        raise ValueError("this ranking needs each game's points (FitnessRanking.needs_games)")
    met = games.sum(axis=0) > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        score = np.where(games > 0, points / np.where(games > 0, games, 1.0), np.nan)
    return score[:, met]


def _mean_ranks(score: np.ndarray) -> np.ndarray:
    """Each member's mean rank over the columns of ``score`` it has a value
    in (1 = the best score against that opponent; ties share the mean of
    their ranks); NaN for a member with no value at all."""
    members, opponents = score.shape
    total = np.zeros(members)
    counted = np.zeros(members)
    for c in range(opponents):
        column = score[:, c]
        present = np.flatnonzero(~np.isnan(column))
        for i in present:
            better = np.count_nonzero(column[present] > column[i])
            same = np.count_nonzero(column[present] == column[i])
            total[i] += better + (same + 1) / 2.0
            counted[i] += 1
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counted > 0, total / np.where(counted > 0, counted, 1.0), np.nan)


def _by_opponent_ranks(total: np.ndarray, points: np.ndarray | None, games: np.ndarray | None) -> list[int]:
    ranks = _mean_ranks(_score_table(points, games))
    worst = float(total.size) + 1.0                  # a member that met nobody ranks last
    return sorted(range(total.size), key=lambda i: (worst if np.isnan(ranks[i]) else ranks[i], -total[i], i))


def _by_worst_opponent(total: np.ndarray, points: np.ndarray | None, games: np.ndarray | None) -> list[int]:
    score = _score_table(points, games)
    lowest = [float(np.nanmin(row)) if not np.all(np.isnan(row)) else -1.0 for row in score]
    return sorted(range(total.size), key=lambda i: (-lowest[i], -total[i], i))


@dataclass(frozen=True)
class FitnessRanking:
    """One way to order a generation's members (module docstring).

    Attributes:
        name: its ``fitness.ranking`` name.
        order: (total points [members], points and games against each
            contestant [members, contestants] or None) -> member slots, best
            first.
        needs_games: whether it reads each member's score against each
            opponent, so the generation keeps each game's points.
        by_points: whether its order is the total points' (a breeder that
            tells an optimizer values may tell it the points; else the ranks).
    """

    name: str
    order: Callable[[np.ndarray, np.ndarray | None, np.ndarray | None], list[int]]
    needs_games: bool
    by_points: bool = False


#: Every ranking by its ``fitness.ranking`` name.
FITNESS_RANKINGS: dict[str, FitnessRanking] = {r.name: r for r in (
    FitnessRanking("points", _by_points, needs_games=False, by_points=True),
    FitnessRanking("opponent-ranks", _by_opponent_ranks, needs_games=True),
    FitnessRanking("worst-opponent", _by_worst_opponent, needs_games=True),
)}


def fitness_ranking(name: str) -> FitnessRanking:
    """The ranking ``fitness.ranking`` names.

    Raises:
        ConfigError: naming the key and the rankings there are.
    """
    return table_entry("fitness.ranking", FITNESS_RANKINGS, name)
