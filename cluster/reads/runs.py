"""Which runs a database holds and where each stands."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from genethello.cluster.config import RunConfig, stored_json
from genethello.cluster.db import MAX_ROW_ID, Database, RunNotFoundError, row_id
from genethello.cluster.db.models import Game, Generation, PlayerRow, Run, YardstickResult
from genethello.cluster.db.played_chains import resolved_payload
from genethello.core.frontend.errors import UserError


@dataclass(frozen=True)
class RunInfo:
    """A run's row, as read (lease columns say who drives it, if anyone)."""

    id: int
    name: str
    status: str
    seed: int
    generation: int                 # the last generation started (0 before the first)
    max_generations: int
    config_json: str                # the config as created (see :meth:`config`)
    software_version: str
    core_hash: str
    pattern_version: str | None
    created_at: datetime
    updated_at: datetime
    lease_owner: str | None = None
    lease_host: str | None = None
    lease_pid: int | None = None
    lease_expires: float | None = None  # seconds since the epoch

    def config(self) -> dict[str, Any]:
        """The stored config as a mapping ({} if it does not parse as one):
        for display; the coordinator parses it strictly itself."""
        try:
            config = json.loads(self.config_json)
        except (ValueError, TypeError, RecursionError):   # not JSON, not text, nested too deep
            return {}
        return config if isinstance(config, dict) else {}

    @property
    def chromosome_type(self) -> str | None:
        """The population's chromosome type name, as configured."""
        population = self.config().get("population")
        kind = population.get("type") if isinstance(population, dict) else None
        return kind if isinstance(kind, str) else None


@dataclass(frozen=True)
class RunState:
    """What the coordinator needs to know of its run at start (and
    ``resume`` before it starts one): the config parsed strictly."""

    config: RunConfig          # as created; never rewritten (the stop rule's state is on the run row)
    dropped_engines: tuple[str, ...]   # external engines the user went on without
    core_hash: str                     # the core that plays the run's games
    pattern_version: str = ""          # the pattern table its players weigh ('' when none)
    numeric_versions: str | None = None  # JSON of the numpy and cmaes versions it breeds with (None: before 0004)


@dataclass(frozen=True)
class RunListing:
    """A run in the list of runs."""

    run: RunInfo
    last_generation: int | None      # the newest generation row (None before the first)


@dataclass(frozen=True)
class GenerationProgress:
    """Where a generation's games stand."""

    number: int
    status: str
    games_done: int
    games_total: int
    started_at: datetime | None
    finished_at: datetime | None


def _run_info(run: Run) -> RunInfo:
    return RunInfo(run.id, run.name, run.status, run.seed, run.generation, run.max_generations, run.config_json,
                   run.software_version, run.core_hash, run.pattern_version, run.created_at, run.updated_at,
                   run.lease_owner, run.lease_host, run.lease_pid, run.lease_expires)


def find_run(db: Database, run: str | int | None) -> RunInfo:
    """A run by name or id; the newest run when ``run`` is None.

    Raises:
        RunNotFoundError: naming what was looked for.
    """
    with db.session() as s:
        if run is None:
            found = s.scalars(select(Run).order_by(Run.id.desc()).limit(1)).first()
            if found is None:
                raise RunNotFoundError(f"{db.path} holds no runs yet")
        else:
            found = s.scalars(select(Run).where(Run.name == str(run))).first()
            number = row_id(str(run))
            if found is None and number is not None:
                found = s.get(Run, number)
            if found is None:
                raise RunNotFoundError(f"no run named or numbered {run!r} in {db.path}")
        return _run_info(found)


def run_state(db: Database, run_id: int) -> RunState:
    """The run's config and run state.

    Raises:
        RunNotFoundError: no such run.
        ValueError: the stored config does not parse.
    """
    with db.session() as s:
        run = s.get(Run, run_id)
        if run is None:
            raise RunNotFoundError(f"no run with id {run_id} in {db.path}")
        config = RunConfig.from_json(run.config_json, source=f"the stored config of run {run.name!r}")
        dropped = stored_json(run.dropped_engines, f"the dropped engines of run {run.name!r}")
        if not isinstance(dropped, list) or not all(isinstance(e, str) for e in dropped):
            raise UserError(f"run {run.name!r}'s dropped engines: expected a list of engine commands")
        return RunState(config, tuple(dropped), run.core_hash, run.pattern_version or "", run.numeric_versions)


def list_runs(db: Database) -> list[RunListing]:
    """Every run, oldest first, with its newest generation (its best so far:
    :func:`~genethello.cluster.reads.ranking.standings`, by the hall once
    rated; the top Elo alone would be a newborn's luck)."""
    with db.session() as s:
        runs = s.scalars(select(Run).order_by(Run.id)).all()
        last = dict(s.execute(select(Generation.run_id, func.max(Generation.number))
                              .group_by(Generation.run_id)).all())
        return [RunListing(_run_info(r), last.get(r.id)) for r in runs]


def current_generation(db: Database, run_id: int) -> GenerationProgress | None:
    """The run's newest generation (None before the first)."""
    with db.session() as s:
        gen = s.scalars(select(Generation).where(Generation.run_id == run_id)
                        .order_by(Generation.number.desc()).limit(1)).first()
        if gen is None:
            return None
        return GenerationProgress(gen.number, gen.status, gen.games_done, gen.games_total, gen.started_at,
                                  gen.finished_at)


def games_with_moves(db: Database, run_id: int) -> int:
    """How many of the run's stored games kept their moves (retention drops
    the others' moves)."""
    with db.session() as s:
        return s.scalar(select(func.count(Game.id)).where(Game.run_id == run_id, Game.moves.is_not(None))) or 0


def change_key(db: Database, run_id: int) -> tuple[object, ...]:
    """A few cheap numbers that change whenever anything shown of the run
    would: status, generation, games committed, generations' progress and
    their two newest statuses, yardstick rows. (None,) for no such run."""
    with db.session() as s:
        run = s.get(Run, run_id)
        if run is None:
            return (None,)
        games = s.scalar(select(func.count(Game.id)).where(Game.run_id == run_id))
        gens = s.execute(select(func.count(), func.max(Generation.number), func.sum(Generation.games_done))
                         .where(Generation.run_id == run_id)).one()
        statuses = tuple(tuple(row) for row in s.execute(
            select(Generation.number, Generation.status).where(Generation.run_id == run_id)
            .order_by(Generation.number.desc()).limit(2)).all())
        yardstick = s.scalar(select(func.count()).select_from(YardstickResult)
                             .where(YardstickResult.run_id == run_id))
        return (run.status, run.generation, games, tuple(gens), statuses, yardstick)


def player_text(db: Database, player_id: int) -> str:
    """The chromosome text of player ``player_id`` (of any run).

    Raises:
        ValueError: no player has that id.
    """
    with db.session() as s:
        text = s.scalar(select(PlayerRow.text).where(PlayerRow.id == player_id)) if 0 <= player_id <= MAX_ROW_ID \
            else None
    if text is None:
        raise UserError(f"no chromosome with id {player_id} in {db.path}")
    return text


def player_record(db: Database, key: int | str) -> tuple[str, bytes | None]:
    """The text and stored payload (a network's weights; None for a
    chromosome) of the player with id ``key`` (an int) or text ``key`` (a
    str: the first such row of any run, which all hold the same weights:
    the text names them by digest): what
    :func:`~genethello.core.families.registry.parse_individual` takes.

    Raises:
        ValueError: no player has that id or text.
    """
    where = PlayerRow.id == key if isinstance(key, int) else PlayerRow.text == key
    with db.session() as s:
        # an id beyond SQLite's integers names no row (and cannot be compared with one)
        row = None if isinstance(key, int) and not 0 <= key <= MAX_ROW_ID else s.execute(
            select(PlayerRow.text, PlayerRow.payload).where(where).order_by(PlayerRow.id).limit(1)).first()
        if row is None:
            what = f"id {key}" if isinstance(key, int) else f"text {key!r}"
            raise UserError(f"no player with {what} in {db.path}")
        payload = resolved_payload(s, row[0], row[1])
    return row[0], bytes(payload) if payload is not None else None
