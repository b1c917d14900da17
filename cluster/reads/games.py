"""A run's stored games, for ``export`` and the web page's replays."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from genethello.cluster.db import Database
from genethello.cluster.db.models import Game, Generation, PlayerRow
from genethello.cluster.reads.runs import RunInfo
from genethello.core.frontend.errors import UserError


@dataclass(frozen=True)
class StoredGame:
    """One stored game with what a record needs."""

    id: int
    generation: int
    pair_index: int
    black: str                 # chromosome texts
    white: str
    score: int                 # Black's final margin, empties to the winner
    moves: str | None          # None: dropped by the retention policy
    date: str | None           # YYYY-MM-DD the generation finished (else started)


def _day(when: datetime | None) -> str | None:
    return when.strftime("%Y-%m-%d") if when is not None else None


def select_games(db: Database, run: RunInfo, generation: int | None = None, game_id: int | None = None,
                 pair: int | None = None) -> list[StoredGame]:
    """The run's games in (generation, pair index) order, optionally only
    generation ``generation`` and/or the game with id ``game_id``, or the
    game of pair index ``pair`` of that generation: (generation, pair) is
    the same game in every run of one config and seed, whatever its workers
    did; a row id is not (it is the order in which games were committed).

    Raises:
        ValueError: for a game id, generation or pair the run does not hold,
            or a pair without its generation.
    """
    if pair is not None and generation is None:
        raise UserError("--pair needs --generation: a game's stable key is its generation and pair")
    with db.session() as s:
        if game_id is not None:
            row = s.get(Game, game_id)
            if row is None or row.run_id != run.id:
                raise UserError(f"run {run.name} holds no game with id {game_id}")
            if generation is not None and row.generation != generation:
                raise UserError(f"game {game_id} is from generation {row.generation}, not {generation}")
        if generation is not None and s.get(Generation, (run.id, generation)) is None and not s.scalar(
                select(Game.id).where(Game.run_id == run.id, Game.generation == generation).limit(1)):
            raise UserError(f"run {run.name} has no generation {generation}")
        query = select(Game).where(Game.run_id == run.id)
        if generation is not None:
            query = query.where(Game.generation == generation)
        if game_id is not None:
            query = query.where(Game.id == game_id)
        if pair is not None:
            query = query.where(Game.pair_index == pair)
        rows = s.scalars(query.order_by(Game.generation, Game.pair_index)).all()
        if pair is not None and not rows:
            raise UserError(f"run {run.name} holds no game of pair {pair} in generation {generation}")
        players = dict(s.execute(select(PlayerRow.id, PlayerRow.text).where(
            PlayerRow.id.in_({r.black_id for r in rows} | {r.white_id for r in rows}))).all())
        dates = {g.number: _day(g.finished_at or g.started_at) for g in s.scalars(
            select(Generation).where(Generation.run_id == run.id,
                                     Generation.number.in_({r.generation for r in rows})))}
        return [StoredGame(r.id, r.generation, r.pair_index, players[r.black_id], players[r.white_id],
                           r.score, r.moves, dates.get(r.generation)) for r in rows]
