"""A run generation by generation: what ``history``, ``plot`` and the web chart show."""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import select

from genethello.cluster.db import Database
from genethello.cluster.db.models import Generation, HallRating, PlayerRow, YardstickResult
from genethello.cluster.db.sprt_record import SprtRecord
from genethello.cluster.measures.intervals import wilson_interval


@dataclass(frozen=True)
class YardstickRow:
    """The best so far's score against one yardstick opponent, with its
    counts and 95% Wilson interval (counts and interval are None in rows
    stored before the counts were). A sequential opponent's row has its
    test's record in ``sprt`` and no interval: its games were not a fixed
    sample."""

    opponent: str
    games: int
    points: float
    score: float
    wins: int | None
    draws: int | None
    losses: int | None
    low: float | None
    high: float | None
    sprt: SprtRecord | None = None


@dataclass(frozen=True)
class GenerationRow:
    """One generation: its progress, Elo figures, best so far (with its hall
    rating when the run has a hall) and the yardstick of the best so far
    (the overall score of its fixed series with its interval, and per
    opponent, sequential tests included)."""

    generation: int
    status: str
    games_done: int
    games_total: int
    best: str | None                 # the best so far's chromosome text (None before rating)
    best_elo: float | None           # the generation's own best Elo
    best_so_far_elo: float | None    # the best so far's Elo now
    mean_elo: float | None
    hall_rating: float | None
    hall_stderr: float | None
    yardstick: float | None          # overall score of the best so far (None: not measured)
    yardstick_low: float | None
    yardstick_high: float | None
    yardstick_opponents: tuple[YardstickRow, ...]


def _yardstick_row(r: YardstickResult) -> YardstickRow:
    if r.sprt is not None:
        return YardstickRow(r.opponent, r.games, r.points, r.score, r.wins, r.draws, r.losses, None, None,
                            SprtRecord.from_json(json.loads(r.sprt)))
    low = high = None
    if r.wins is not None:
        low, high = wilson_interval(r.points, r.games)
    return YardstickRow(r.opponent, r.games, r.points, r.score, r.wins, r.draws, r.losses, low, high)


def generation_rows(db: Database, run_id: int) -> list[GenerationRow]:
    """Every generation of the run in order (one transaction): one row a
    generation with its best player and that player's hall rating joined
    in, never the whole run's players or hall ratings (a run of 20,000
    generations holds 120,000 players and millions of hall ratings)."""
    with db.session() as s:
        gens = s.execute(
            select(Generation.number, Generation.status, Generation.games_done, Generation.games_total,
                   Generation.stats_json, Generation.mean_elo, PlayerRow.text, PlayerRow.elo, HallRating.rating,
                   HallRating.stderr)
            .outerjoin(PlayerRow, PlayerRow.id == Generation.best_player_id)
            .outerjoin(HallRating, (HallRating.run_id == Generation.run_id)
                       & (HallRating.generation == Generation.number)
                       & (HallRating.player_id == Generation.best_player_id))
            .where(Generation.run_id == run_id).order_by(Generation.number)).all()
        measured: dict[int, list[YardstickRow]] = {}
        for r in s.scalars(select(YardstickResult).where(YardstickResult.run_id == run_id)
                           .order_by(YardstickResult.generation)):
            measured.setdefault(r.generation, []).append(_yardstick_row(r))
        rows = []
        for g in gens:
            stats = json.loads(g.stats_json) if g.stats_json else {}
            rating, err, text, elo = g.rating, g.stderr, g.text, g.elo
            opponents = measured.get(g.number, [])
            fixed = [o for o in opponents if o.sprt is None]
            points = sum(o.points for o in fixed)
            games = sum(o.games for o in fixed)
            low, high = wilson_interval(points, games) if games else (None, None)
            rows.append(GenerationRow(
                g.number, g.status, g.games_done, g.games_total, text, stats.get("generation_best_elo"), elo,
                g.mean_elo, rating, err, points / games if games else None, low, high, tuple(opponents)))
    return rows


def latest_measure(db: Database, run_id: int) -> tuple[int, str, list[YardstickRow]] | None:
    """The run's last stored measurement of its best so far: (generation,
    the measured player's text, a row an opponent); None before the first.
    Three small queries, whatever the run's length (``status`` and ``best`` ask)."""
    with db.session() as s:
        last = s.scalar(select(YardstickResult.generation).where(YardstickResult.run_id == run_id)
                        .order_by(YardstickResult.generation.desc()).limit(1))
        if last is None:
            return None
        results = s.scalars(select(YardstickResult).where(YardstickResult.run_id == run_id,
                                                          YardstickResult.generation == last)).all()
        text = s.scalar(select(PlayerRow.text).where(PlayerRow.id == results[0].player_id))
        return int(last), str(text), [_yardstick_row(r) for r in results]
