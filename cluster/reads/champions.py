"""A run's champions as ``compare`` takes them: who, with what, under which settings.

The champions are the run's best ``top`` by the ranking ``best`` shows by
default (:func:`~genethello.cluster.reads.ranking.standings`): the hall of
fame's latest ratings once the run has them, else Elo. Each comes with its
text and stored payload (a network's weights), and the run with its config
and recorded pattern table, everything a worker needs to play it as its
own run would.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from genethello.cluster.config import RunConfig
from genethello.cluster.db import Database
from genethello.cluster.db.models import Generation
from genethello.cluster.reads.ranking import standings
from genethello.cluster.reads.runs import RunInfo, player_record, run_state
from genethello.core.frontend.errors import UserError


class NoFinishedGenerationError(UserError):
    """A run has no finished (rated) generation: it has no champion yet."""


@dataclass(frozen=True)
class Champion:
    """One champion of a run: its player id, text and stored payload."""

    player_id: int
    text: str
    payload: bytes | None


@dataclass(frozen=True)
class RunChampions:
    """A run's champions, best first, and what they play with."""

    run: RunInfo
    config: RunConfig
    pattern_version: str            # as the run recorded it ('' when its players weigh no table)
    ranked_by: str                  # "hall" or "elo"
    champions: tuple[Champion, ...]


def finished_generations(db: Database, run_id: int) -> int:
    """How many of the run's generations are rated (their games all played)."""
    with db.session() as s:
        return s.scalar(select(func.count()).select_from(Generation)
                        .where(Generation.run_id == run_id, Generation.status != "playing")) or 0


def run_champions(db: Database, run: RunInfo, top: int) -> RunChampions:
    """The best ``top`` players of ``run`` (fewer if it has fewer) with its
    config and pattern table.

    Raises:
        NoFinishedGenerationError: the run has no rated generation yet.
        ValueError: its stored config does not parse.
    """
    if finished_generations(db, run.id) == 0:
        raise NoFinishedGenerationError(f"run {run.name!r} in {db.path} has no finished generation yet: "
                                        "it has no champion to compare")
    state = run_state(db, run.id)
    ranking = standings(db, run.id, top=top)
    champions = []
    for row in ranking.rows:
        text, payload = player_record(db, row.player.id)
        champions.append(Champion(row.player.id, text, payload))
    return RunChampions(run, state.config, state.pattern_version, ranking.by, tuple(champions))
