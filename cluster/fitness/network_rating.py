"""Rating a network generation: a pure function of its fitness points.

A network generation plays no round robin of stored games: its fitness
tasks (:mod:`genethello.cluster.fitness.network_fitness`) return each member slot's
points, summed in task order. From them this step makes what the run store
keeps for every generation, so ``best``, ``history``, ``status`` and the web
page read a network run as they read any other:

* the **ranking**: points descending, then the slot (the fitness contract's
  order); the breeder is told it;
* each member's **performance rating** in the ``elo`` columns: the Elo
  difference that gives its score ``s = points / games`` against its
  opponents, ``start + 400 log10(s / (1 - s))`` (``s`` kept within half a
  game of 0 and 1), with its standard error from the binomial spread of
  ``s`` in ``bt_stderr`` (``bt_rating`` holds the rating too). Against
  fixed opponents it is an Elo relative to them, comparable across
  generations; under coevolution it is relative to the generation's own
  members (as a round robin's Bradley–Terry fit is);
* no W/D/L: the fast loop returns points, not game records, so those
  columns stay 0 for network runs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from genethello.cluster.config import FitnessConfig
from genethello.cluster.fitness.fitness_kinds import played_kind
from genethello.cluster.fitness.rating_step import GenerationRating, Member, PlayerRating

__all__ = ["fitness_games_per_member", "performance", "rank_by_points", "rate_fitness"]

_ELO_PER_LOGIT = 400.0 / math.log(10.0)


def fitness_games_per_member(config: FitnessConfig, members: int, hall: int) -> int:
    """The games each member plays in a generation's fitness (double games
    count two), as its fitness kind counts them (coevolution, every other
    member ``games_per_pair`` times; fixed, each opponent
    ``games_per_opponent`` times; hall, each hall member, the fixed
    opponents while the hall is empty)."""
    kind = played_kind(config.kind, hall)
    return kind.games_per_member(config, members, len(kind.others(config.opponents, range(hall))))


def performance(points: float, games: int, start: float) -> tuple[float, float]:
    """(rating, standard error) of a score of ``points`` in ``games`` games
    (module docstring)."""
    if games <= 0:
        return start, math.inf
    s = min(max(points / games, 0.5 / games), 1.0 - 0.5 / games)
    rating = start + _ELO_PER_LOGIT * math.log(s / (1.0 - s))
    stderr = _ELO_PER_LOGIT * math.sqrt(s * (1.0 - s) / games) / (s * (1.0 - s))
    return rating, stderr


def rank_by_points(points: Sequence[float]) -> list[int]:
    """Member slots best first: points descending, then the slot."""
    return sorted(range(len(points)), key=lambda i: (-points[i], i))


def rate_fitness(members: Sequence[Member], points: np.ndarray, games_per_member: int, start: float,
                 kind: str) -> GenerationRating:
    """The generation's ratings from each member slot's ``points``, in the
    members' order, with its summary (``stats``)."""
    if points.shape != (len(members),):
        raise ValueError(f"points for {points.shape} members, the generation has {len(members)}")
    rated = []
    for member, p in zip(members, points.tolist()):
        rating, stderr = performance(p, games_per_member, start)
        rated.append(PlayerRating(member.player_id, rating, 0, 0, 0, rating, stderr))
    order = rank_by_points(points.tolist())
    best = order[0]
    elos = [r.elo for r in rated]
    stats = {
        "max_elo": max(elos), "min_elo": min(elos),
        "generation_best": members[best].text, "generation_best_elo": rated[best].elo,
        "fitness": kind, "games_per_member": games_per_member,
        "best_score": float(points[best]) / games_per_member if games_per_member else 0.0,
        "mean_score": float(points.mean()) / games_per_member if games_per_member else 0.0,
    }
    return GenerationRating(tuple(rated), sum(elos) / len(elos), stats)
