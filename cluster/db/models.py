"""The tables of a genethello run database, as SQLAlchemy 2 ORM classes.

One SQLite file holds any number of runs; every row below belongs to one run
(``run_id``), so a run of days can stop and resume from what is stored here.
The coordinator is the only writer of these tables.

The schema itself is owned by the Alembic scripts in ``migrations/``: a
change here needs a new revision there (the migration test fails while the
models and the migrated schema differ).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    CheckConstraint,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

#: Constraint names follow this convention so that Alembic's batch mode (which
#: rebuilds SQLite tables) can find and alter them by name.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

RUN_STATUSES = ("running", "stopped", "converged", "finished", "failed")
GENERATION_STATUSES = ("playing", "rated", "bred")


def utcnow() -> datetime:
    """The current time as an aware UTC datetime."""
    return datetime.now(UTC)


def _in_list(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


class UTCDateTime(TypeDecorator[datetime]):
    """A datetime stored as naive UTC text and read back as aware UTC.

    SQLite has no time zones; storing naive local times would make a run
    resumed on another machine (or after a DST change) misread its own
    timestamps. Naive datetimes are refused rather than guessed at.
    """

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"naive datetime {value!r}: store timezone-aware (UTC) datetimes")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        stored: datetime = value
        return stored.replace(tzinfo=UTC)


class StoredBytes(TypeDecorator[bytes]):
    """A binary value (a payload, a breeder state, fitness points), read
    back as bytes whatever a crafted database stored there: SQLAlchemy's
    binary type fails on a TEXT or a number (TypeError). Such a value reads
    as the bytes of its text, and the reader that parses it (the family's
    payload check, the CMA-ES state's) refuses them in one line."""

    impl = LargeBinary
    cache_ok = True

    def result_processor(self, dialect: Dialect, coltype: Any) -> Any:
        def process(value: Any) -> bytes | None:
            if value is None or isinstance(value, bytes):
                return value
            if isinstance(value, str):
                return value.encode("utf-8", "surrogateescape")
            if isinstance(value, bytearray | memoryview):
                return bytes(value)
            return str(value).encode()
        return process


class Base(DeclarativeBase):
    """Declarative base; its metadata is the target of the migrations."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def _run_fk() -> ForeignKey:
    # Deleting a run deletes everything that belongs to it.
    return ForeignKey("runs.id", ondelete="CASCADE")


class Run(Base):
    """One evolution run: its config, where it stands, and who drives it.

    ``generation`` is the last generation started (0 before the first).
    ``config_json`` is the configuration the run was created with and never
    changes; what changes while a run lives is run state with columns of its
    own: ``max_generations`` (the config's, until ``resume
    --max-generations`` extends it) and ``converge_baseline`` (the generation
    from which convergence is counted: 0, or where a converged run was
    extended); ``dropped_engines`` (a JSON list of the yardstick's external
    GTP engines the user chose to go on without); ``core_changes`` (a JSON
    list of the other cores the user accepted mid-run, with the generation);
    ``numeric_versions`` (from 0004: JSON of the numpy and cmaes versions the
    run was created with, None for runs from before; a breeder's floating
    point may differ between versions, so resume compares them).
    The ``lease_*`` columns say which coordinator currently drives the run (see
    :mod:`genethello.cluster.db.lease`); ``lease_expires`` is unix time.
    """

    __tablename__ = "runs"
    __table_args__ = (CheckConstraint(_in_list("status", RUN_STATUSES), name="status"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String, unique=True)
    config_json: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String)
    software_version: Mapped[str] = mapped_column(String)
    core_hash: Mapped[str] = mapped_column(String)
    pattern_version: Mapped[str | None] = mapped_column(String)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)
    generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The server default only fills old rows during migration 0002.
    max_generations: Mapped[int] = mapped_column(Integer, server_default="0")
    converge_baseline: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    dropped_engines: Mapped[str] = mapped_column(Text, default="[]", server_default="[]")
    core_changes: Mapped[str] = mapped_column(Text, default="[]", server_default="[]")
    numeric_versions: Mapped[str | None] = mapped_column(Text)
    lease_owner: Mapped[str | None] = mapped_column(String)
    lease_host: Mapped[str | None] = mapped_column(String)
    lease_pid: Mapped[int | None] = mapped_column(Integer)
    lease_expires: Mapped[float | None] = mapped_column(Float)

    players: Mapped[list[PlayerRow]] = relationship(back_populates="run", passive_deletes=True)

    def __repr__(self) -> str:
        return f"Run(id={self.id!r}, name={self.name!r}, status={self.status!r}, generation={self.generation!r})"


class PlayerRow(Base):
    """A chromosome's row: one player, unique within its run by its canonical
    text ``TYPE_BIRTH_GENES`` (a row, not the move-picking
    :class:`genethello.core.play.players.Player`). ``death`` is the last
    generation it was in (None while alive); ``yardstick`` its latest
    yardstick score; ``payload`` (from 0004) what the text cannot hold (a
    network's real weights; None for GeneThello, see
    :class:`genethello.core.families.registry.StoredIndividual`)."""

    __tablename__ = "chromosomes"
    __table_args__ = (UniqueConstraint("run_id", "text"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    run_id: Mapped[int] = mapped_column(_run_fk())
    text: Mapped[str] = mapped_column(String)
    ctype: Mapped[str] = mapped_column(String)
    birth: Mapped[int] = mapped_column(Integer)
    genes: Mapped[str] = mapped_column(String)
    death: Mapped[int | None] = mapped_column(Integer)
    elo: Mapped[float] = mapped_column(Float)
    wins: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    losses: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    draws: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    yardstick: Mapped[float | None] = mapped_column(Float)
    payload: Mapped[bytes | None] = mapped_column(StoredBytes)

    run: Mapped[Run] = relationship(back_populates="players")

    def __repr__(self) -> str:
        return f"PlayerRow(id={self.id!r}, text={self.text!r}, elo={self.elo!r})"


class PopulationSlot(Base):
    """Which player sat in which slot of a generation's population, and why
    (from 0006; all None in slots stored before: their origin is unknown).

    ``origin`` is one of :data:`genethello.cluster.breeding.origins.ORIGIN_KINDS`;
    ``parent_a``/``parent_b`` are the parents' ``chromosomes.id`` (an
    elite's and a re-entered member's own row: the player it was, in this
    run or the one it came from); ``source_generation`` the generation whose
    ranking, hall or CMA-ES distribution it came from (0: CMA-ES's starting
    distribution); ``source_run`` the run a re-entered member came from.
    The parents carry no foreign key: a parent may be another run's player,
    and deleting that run must neither fail nor reach into this one."""

    __tablename__ = "population"
    __table_args__ = (UniqueConstraint("run_id", "generation", "player_id"),
                      Index("ix_population_player_id", "player_id"))

    run_id: Mapped[int] = mapped_column(_run_fk(), primary_key=True)
    generation: Mapped[int] = mapped_column(Integer, primary_key=True)
    slot: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("chromosomes.id"))
    origin: Mapped[str | None] = mapped_column(String)
    parent_a: Mapped[int | None] = mapped_column(Integer)
    parent_b: Mapped[int | None] = mapped_column(Integer)
    source_generation: Mapped[int | None] = mapped_column(Integer)
    source_run: Mapped[int | None] = mapped_column(Integer)


class Generation(Base):
    """Progress and summary of one generation: ``playing`` while its games
    run, ``rated`` once ratings are stored, ``bred`` once the next
    population exists. ``breeder_state`` (from 0004) is the state the
    breeder kept with this generation when it bred it (None for stateless
    breeders; see :mod:`genethello.cluster.breeding.breeders`)."""

    __tablename__ = "generations"
    __table_args__ = (CheckConstraint(_in_list("status", GENERATION_STATUSES), name="status"),)

    run_id: Mapped[int] = mapped_column(_run_fk(), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    status: Mapped[str] = mapped_column(String)
    games_total: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    games_done: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    best_player_id: Mapped[int | None] = mapped_column(ForeignKey("chromosomes.id"))
    mean_elo: Mapped[float | None] = mapped_column(Float)
    stats_json: Mapped[str | None] = mapped_column(Text)
    breeder_state: Mapped[bytes | None] = mapped_column(StoredBytes)


class FitnessResult(Base):
    """One fitness task of a network generation (from 0004): the points of
    every member slot in its games (float64 little-endian, one per slot) and
    how many games it played. A resumed generation plays only the tasks
    without a row; the games themselves are not stored."""

    __tablename__ = "fitness_results"

    run_id: Mapped[int] = mapped_column(_run_fk(), primary_key=True)
    generation: Mapped[int] = mapped_column(Integer, primary_key=True)
    task_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    points: Mapped[bytes] = mapped_column(StoredBytes)
    games: Mapped[int] = mapped_column(Integer)


class Game(Base):
    """One finished game. ``pair_index`` is its position in the generation's
    canonical schedule (results are applied in that order); ``score`` is
    Black's final disc margin, winner-takes-empties; ``moves`` may be dropped
    by retention."""

    __tablename__ = "games"
    __table_args__ = (
        UniqueConstraint("run_id", "generation", "black_id", "white_id"),
        UniqueConstraint("run_id", "generation", "pair_index"),
        Index("ix_games_run_id_generation", "run_id", "generation"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    run_id: Mapped[int] = mapped_column(_run_fk())
    generation: Mapped[int] = mapped_column(Integer)
    pair_index: Mapped[int] = mapped_column(Integer)
    black_id: Mapped[int] = mapped_column(ForeignKey("chromosomes.id"))
    white_id: Mapped[int] = mapped_column(ForeignKey("chromosomes.id"))
    score: Mapped[int] = mapped_column(Integer)
    black_discs: Mapped[int] = mapped_column(Integer)
    white_discs: Mapped[int] = mapped_column(Integer)
    moves: Mapped[str | None] = mapped_column(Text)
    nodes: Mapped[int] = mapped_column(Integer)

    black: Mapped[PlayerRow] = relationship(foreign_keys=[black_id])
    white: Mapped[PlayerRow] = relationship(foreign_keys=[white_id])


class RatingRecord(Base):
    """A player's rating after a generation, and its record in that
    generation alone."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_player_id", "player_id", "generation"),)

    run_id: Mapped[int] = mapped_column(_run_fk(), primary_key=True)
    generation: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("chromosomes.id"), primary_key=True)
    elo: Mapped[float] = mapped_column(Float)
    bt_rating: Mapped[float | None] = mapped_column(Float)
    bt_stderr: Mapped[float | None] = mapped_column(Float)
    wins: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    losses: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    draws: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class YardstickResult(Base):
    """The generation's yardstick match of one player against a fixed
    opponent; ``score`` is ``points / games``; ``wins``/``draws``/``losses``
    (from 0003; None in rows measured before) give its interval. ``sprt``
    (from 0005; JSON) is set for a sequential opponent: its games were not
    a fixed sample, and no interval is claimed for them."""

    __tablename__ = "yardstick_results"

    run_id: Mapped[int] = mapped_column(_run_fk(), primary_key=True)
    generation: Mapped[int] = mapped_column(Integer, primary_key=True)
    opponent: Mapped[str] = mapped_column(String, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("chromosomes.id"))
    games: Mapped[int] = mapped_column(Integer)
    points: Mapped[float] = mapped_column(Float)
    score: Mapped[float] = mapped_column(Float)
    wins: Mapped[int | None] = mapped_column(Integer)
    draws: Mapped[int | None] = mapped_column(Integer)
    losses: Mapped[int | None] = mapped_column(Integer)
    sprt: Mapped[str | None] = mapped_column(Text)


class HallMember(Base):
    """A member of the run's hall of fame: a generation's champion (by its
    round-robin score), entered at generation ``entered``. Members stay."""

    __tablename__ = "hall_members"

    run_id: Mapped[int] = mapped_column(_run_fk(), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("chromosomes.id"), primary_key=True)
    entered: Mapped[int] = mapped_column(Integer)


class HallGame(Base):
    """A game played when generation ``generation``'s champion entered the
    hall: the entrant against one earlier member (``game_index`` in the
    entry's schedule, see :mod:`genethello.cluster.measures.hall`)."""

    __tablename__ = "hall_games"

    run_id: Mapped[int] = mapped_column(_run_fk(), primary_key=True)
    generation: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    black_id: Mapped[int] = mapped_column(ForeignKey("chromosomes.id"))
    white_id: Mapped[int] = mapped_column(ForeignKey("chromosomes.id"))
    score: Mapped[int] = mapped_column(Integer)
    nodes: Mapped[int] = mapped_column(Integer)


class HallRating(Base):
    """Every hall member's rating after generation ``generation``'s entry:
    a Bradley–Terry fit of all hall games, in Elo points relative to the
    hall's first member (rating 0), with the error of that difference."""

    __tablename__ = "hall_ratings"
    __table_args__ = (Index("ix_hall_ratings_player_id", "player_id", "generation"),)

    run_id: Mapped[int] = mapped_column(_run_fk(), primary_key=True)
    generation: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("chromosomes.id"), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    stderr: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    points: Mapped[float] = mapped_column(Float)
