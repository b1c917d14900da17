"""How a run kept its fitness, read from the run's stored config: game by
game (moves to export, each member's W/D/L, an Elo from its games) or as
each member's points (a performance rating in its generation, no W/D/L).

The answer is the fitness kind's, asked with the family's trait
(:meth:`~genethello.cluster.fitness.fitness_kinds.FitnessKind.kept_as_points`):
a GeneThello run keeps its round robin game by game and points for fixed
opponents or the hall; a network run keeps points for every kind. The
commands and the web page ask this, never which family a run holds.
"""

from __future__ import annotations

from genethello.cluster.config import FitnessConfig
from genethello.cluster.family_traits import traits_of_family
from genethello.cluster.fitness.fitness_kinds import FITNESS_KINDS
from genethello.cluster.reads.family_charts import run_family
from genethello.cluster.reads.runs import RunInfo

__all__ = ["keeps_game_records", "rating_name"]

def keeps_game_records(run: RunInfo) -> bool:
    """Whether ``run``'s fitness games are stored one by one. A stored config
    that names no kind the table has (a database is data: it may hold
    anything) falls back on the family's trait."""
    keeps = traits_of_family(run_family(run)).keeps_game_records
    fitness = run.config().get("fitness")
    name = fitness.get("kind", FitnessConfig.kind) if isinstance(fitness, dict) else FitnessConfig.kind
    kind = FITNESS_KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        return keeps
    return not kind.kept_as_points(keeps)


def rating_name(run: RunInfo) -> str:
    """What a report calls a member's rating: ``Elo`` from its stored games,
    or ``rating``, a performance rating from its fitness points."""
    return "Elo" if keeps_game_records(run) else "rating"
