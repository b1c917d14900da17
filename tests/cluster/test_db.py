"""The run database: creation, pragmas, constraints, refusing files that are
not ours (without touching them), locks, leases and migrations. Real SQLite
files in tmp_path."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import func, inspect, select, text
from sqlalchemy.exc import IntegrityError, StatementError

from genethello.cluster.db import (
    Base,
    Database,
    DatabaseLockedError,
    DatabaseNotFoundError,
    DatabaseTargetError,
    ForeignDatabaseError,
    Game,
    Generation,
    LeaseHeldError,
    LeaseLostError,
    NewerSchemaError,
    PlayerRow,
    PopulationSlot,
    RatingRecord,
    Run,
    RunNotFoundError,
    YardstickResult,
    acquire_lease,
    current_revision,
    head_revision,
    known_revisions,
    make_engine,
    release_lease,
    renew_lease,
    upgrade_to_head,
)

SHORT = 0.2  # busy timeout for the lock tests, seconds
TABLES = {"runs", "chromosomes", "population", "generations", "games", "rating_history", "yardstick_results",
          "hall_members", "hall_games", "hall_ratings", "fitness_results"}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "evolution.sqlite"


@pytest.fixture
def db(db_path: Path):
    database = Database.open(db_path, create=True, busy_timeout=SHORT)
    yield database
    database.dispose()


def add_run(db: Database, name: str = "run-a") -> int:
    with db.session() as session:
        run = Run(
            name=name,
            config_json=json.dumps({"population": 4}),
            seed=7,
            status="running",
            software_version="0.1.0",
            core_hash="abc123",
            max_generations=10,
        )
        session.add(run)
        session.flush()
        return run.id


def add_players(db: Database, run_id: int, n: int = 3) -> list[int]:
    with db.session() as session:
        players = [
            PlayerRow(run_id=run_id, text=f"W_0_{i}:49:3", ctype="W", birth=0, genes=f"{i}:49:3", elo=1500.0)
            for i in range(n)
        ]
        session.add_all(players)
        session.flush()
        return [p.id for p in players]


def game(run_id: int, black: int, white: int, pair_index: int, generation: int = 1) -> Game:
    return Game(
        run_id=run_id, generation=generation, pair_index=pair_index, black_id=black, white_id=white,
        score=10, black_discs=37, white_discs=27, moves="f5d6c3", nodes=1234,
    )


# --------------------------------------------------------------------------- #
# Creation and contents


def test_create_gives_tables_wal_and_foreign_keys(db: Database, db_path: Path):
    assert db.path == db_path and db_path.is_file()
    assert db.url == f"sqlite:///{db_path}"
    assert TABLES <= set(inspect(db.engine).get_table_names())
    with db.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == int(SHORT * 1000)
    # WAL is recorded in the file header (bytes 18, 19 == 2).
    db.dispose()
    assert db_path.read_bytes()[18:20] == b"\x02\x02"


def test_insert_run_with_players_and_games(db: Database):
    run_id = add_run(db)
    a, b, c = add_players(db, run_id)
    with db.session() as session:
        session.add_all([game(run_id, a, b, 0), game(run_id, b, c, 1), game(run_id, c, a, 2)])
        session.add_all(PopulationSlot(run_id=run_id, generation=1, slot=i, player_id=p)
                        for i, p in enumerate((a, b, c)))
        session.add(Generation(run_id=run_id, number=1, status="playing", games_total=3, games_done=3,
                               started_at=datetime.now(UTC), best_player_id=a))
        session.add(RatingRecord(run_id=run_id, generation=1, player_id=a, elo=1516.0, wins=1))
        session.add(YardstickResult(run_id=run_id, generation=1, player_id=a, opponent="edax-1",
                                    games=2, points=1.5, score=0.75))
        session.get(Run, run_id).generation = 1
    with db.session() as session:
        run = session.get(Run, run_id)
        assert run.generation == 1 and run.created_at.tzinfo is UTC
        assert [p.text for p in run.players] == ["W_0_0:49:3", "W_0_1:49:3", "W_0_2:49:3"]
        games = session.scalars(select(Game).where(Game.run_id == run_id).order_by(Game.pair_index)).all()
        assert [(g.black.id, g.white.id) for g in games] == [(a, b), (b, c), (c, a)]
        assert session.get(PlayerRow, a).wins == 0  # server/default 0
        assert session.get(Generation, (run_id, 1)).started_at.tzinfo is UTC
    # Deleting a run deletes everything of it (ON DELETE CASCADE, foreign_keys=ON).
    with db.session() as session:
        session.delete(session.get(Run, run_id))
    with db.session() as session:
        for model in (PlayerRow, Game, PopulationSlot, Generation, RatingRecord, YardstickResult):
            assert session.scalar(select(func.count()).select_from(model)) == 0


def test_duplicate_game_is_rejected(db: Database):
    run_id = add_run(db)
    a, b, _ = add_players(db, run_id)
    with db.session() as session:
        session.add(game(run_id, a, b, 0))
    with pytest.raises(IntegrityError, match="UNIQUE"), db.session() as session:
        session.add(game(run_id, a, b, 5))  # same (run, generation, black, white)
    with pytest.raises(IntegrityError, match="UNIQUE"), db.session() as session:
        session.add(game(run_id, b, a, 0))  # same pair_index
    with db.session() as session:
        session.add(game(run_id, b, a, 1))  # colours swapped: a different game
        session.add(game(run_id, a, b, 0, generation=2))  # next generation
    with db.session() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 3


def test_constraints_are_enforced(db: Database):
    run_id = add_run(db)
    with pytest.raises(IntegrityError, match="FOREIGN KEY"), db.session() as session:
        session.add(PlayerRow(run_id=run_id + 99, text="W_0_x", ctype="W", birth=0, genes="x", elo=1500.0))
    with pytest.raises(IntegrityError, match="CHECK"), db.session() as session:
        session.get(Run, run_id).status = "paused"
    add_players(db, run_id, 1)
    with pytest.raises(IntegrityError, match="UNIQUE"):
        add_players(db, run_id, 1)  # same (run, text)
    with pytest.raises(StatementError, match="naive datetime"), db.session() as session:
        session.add(Generation(run_id=run_id, number=1, status="playing", started_at=datetime(2024, 1, 1)))


def test_session_rolls_back_on_error(db: Database):
    with pytest.raises(RuntimeError, match="boom"), db.session() as session:
        session.add(Run(name="x", config_json="{}", seed=1, status="running",
                        software_version="0", core_hash="h", max_generations=1))
        session.flush()
        raise RuntimeError("boom")
    with db.session() as session:
        assert session.scalar(select(func.count()).select_from(Run)) == 0


# --------------------------------------------------------------------------- #
# Targets and refusals


def test_targets(tmp_path: Path):
    engine = make_engine(f"sqlite:///{tmp_path / 'u.sqlite'}")
    assert engine.url.database == str(tmp_path / "u.sqlite")
    engine.dispose()
    for bad in ("postgresql://u@h/db", "sqlite://", "sqlite:///:memory:", "sqlite+aiosqlite:///x.db", ""):
        with pytest.raises(DatabaseTargetError):
            make_engine(bad)


def test_missing_file_without_create(db_path: Path):
    with pytest.raises(DatabaseNotFoundError, match=str(db_path)):
        Database.open(db_path, create=False)
    assert not db_path.exists()
    with pytest.raises(DatabaseNotFoundError, match="does not exist"):
        Database.open(db_path.parent / "nowhere" / "x.sqlite", create=True)


def test_reopen_existing(db: Database, db_path: Path):
    run_id = add_run(db)
    db.dispose()
    with Database.open(f"sqlite:///{db_path}", create=False) as again, again.session() as session:
        assert session.get(Run, run_id).name == "run-a"


def test_foreign_text_file_is_refused_untouched(db_path: Path):
    db_path.write_text("population = 64\ngenerations = 1000\n" * 20)
    before = sha256(db_path)
    for create in (False, True):
        with pytest.raises(ForeignDatabaseError, match="not an SQLite database") as info:
            Database.open(db_path, create=create)
        assert str(db_path) in str(info.value)
    assert sha256(db_path) == before


def test_foreign_sqlite_is_refused_untouched(tmp_path: Path, db_path: Path):
    conn = sqlite3.connect(db_path)
    conn.execute("CREATE TABLE recipes (id INTEGER PRIMARY KEY, name TEXT)")
    conn.execute("INSERT INTO recipes (name) VALUES ('pancakes')")
    conn.commit()
    conn.close()
    before = sha256(db_path)
    with pytest.raises(ForeignDatabaseError, match="recipes.*no alembic_version"):
        Database.open(db_path, create=True)
    assert sha256(db_path) == before
    assert {p.name for p in tmp_path.iterdir()} == {db_path.name}


def test_our_schema_with_extra_tables_is_refused(db: Database, db_path: Path):
    with db.engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE recipes (id INTEGER PRIMARY KEY)")
    db.dispose()
    before = sha256(db_path)
    with pytest.raises(ForeignDatabaseError, match="not genethello's: recipes"):
        Database.open(db_path, create=False)
    assert sha256(db_path) == before


def test_newer_revision_is_refused_untouched(db: Database, db_path: Path):
    add_run(db)
    with db.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = 'f00dfeed9999'"))
    db.dispose()
    before = sha256(db_path)
    with pytest.raises(NewerSchemaError, match="f00dfeed9999") as info:
        Database.open(db_path, create=True)
    assert info.value.revision == "f00dfeed9999"
    assert str(db_path) in str(info.value)
    assert sha256(db_path) == before


def test_empty_database(db_path: Path):
    db_path.touch()
    with pytest.raises(DatabaseNotFoundError, match="empty"):
        Database.open(db_path, create=False)
    assert db_path.stat().st_size == 0
    with Database.open(db_path, create=True) as database:
        assert current_revision(database.engine) == head_revision()


@pytest.mark.parametrize("journal", ["wal", "delete"])
def test_locked_database(db: Database, db_path: Path, journal: str):
    """A writer that will write is refused in one line while another holds
    the lock (the write-lock probe). A reader in WAL mode reads the last
    committed state meanwhile (a running learning run may hold the lock for
    seconds: status, best and the web page must still answer); in rollback
    mode even reading fails, in one line and bounded time."""
    run_id = add_run(db)
    db.dispose()
    holder = sqlite3.connect(db_path, isolation_level=None)
    assert holder.execute(f"PRAGMA journal_mode = {journal}").fetchone()[0] == journal
    try:
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("UPDATE runs SET name = 'half-written'")
        before = sha256(db_path)
        for writable in (True, False) if journal == "delete" else (True,):
            start = time.monotonic()
            with pytest.raises(DatabaseLockedError, match="locked") as info:
                reader = Database.open(db_path, create=False, writable=writable, busy_timeout=SHORT)
                with reader.session() as session:
                    session.get(Run, run_id)
            assert time.monotonic() - start < SHORT * 10 + 1.0
            assert str(db_path) in str(info.value) and "\n" not in str(info.value)
        if journal == "wal":
            with Database.open(db_path, create=False, busy_timeout=SHORT) as reader, reader.session() as session:
                assert session.get(Run, run_id).name == "run-a"     # the committed state
        assert sha256(db_path) == before
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with Database.open(db_path, create=False, busy_timeout=SHORT) as again, again.session() as session:
        assert session.get(Run, run_id).name == "run-a"


def test_locked_during_session(db: Database, db_path: Path):
    run_id = add_run(db)
    holder = sqlite3.connect(db_path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(DatabaseLockedError, match=str(db_path)), db.session(immediate=True) as session:
            session.get(Run, run_id).seed = 8
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with db.session() as session:
        assert session.get(Run, run_id).seed == 7


# --------------------------------------------------------------------------- #
# Leases


def set_lease(db: Database, run_id: int, owner: str, host: str, pid: int, expires: float) -> None:
    with db.session() as session:
        run = session.get(Run, run_id)
        run.lease_owner, run.lease_host, run.lease_pid, run.lease_expires = owner, host, pid, expires


def test_lease_refused_while_live_and_taken_after_expiry(db: Database):
    run_id = add_run(db)
    now = 1_000_000.0
    with db.session() as session:
        updated_at = session.get(Run, run_id).updated_at
    lease = acquire_lease(db, run_id, "coord-a", ttl=30, now=now)
    assert (lease.owner, lease.host, lease.pid, lease.expires) == ("coord-a", socket.gethostname(), os.getpid(),
                                                                   now + 30)
    assert acquire_lease(db, run_id, "coord-a", ttl=30, now=now + 1).expires == now + 31  # same owner
    with pytest.raises(LeaseHeldError, match="coord-a") as info:
        acquire_lease(db, run_id, "coord-b", ttl=30, now=now + 10)
    err = info.value
    assert (err.owner, err.host, err.pid, err.expires) == ("coord-a", socket.gethostname(), os.getpid(), now + 31)
    assert f"pid {os.getpid()}" in str(err) and str(db.path) in str(err)
    taken = acquire_lease(db, run_id, "coord-b", ttl=30, now=now + 31)  # expired
    assert taken.owner == "coord-b"
    with pytest.raises(LeaseLostError, match="coord-b"):
        renew_lease(db, run_id, "coord-a", ttl=30, now=now + 32)
    assert renew_lease(db, run_id, "coord-b", ttl=60, now=now + 40).expires == now + 100
    with db.session() as session:
        run = session.get(Run, run_id)
        assert run.lease_expires == now + 100
        assert run.updated_at == updated_at  # leases leave updated_at alone


def test_lease_taken_from_dead_process_on_this_host(db: Database):
    run_id = add_run(db)
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    far = time.time() + 3600
    set_lease(db, run_id, "crashed", socket.gethostname(), child.pid, far)
    lease = acquire_lease(db, run_id, "coord-new")
    assert (lease.owner, lease.pid) == ("coord-new", os.getpid())
    # The same dead pid on another host cannot be checked: refused.
    set_lease(db, run_id, "elsewhere", "some-other-host", child.pid, far)
    with pytest.raises(LeaseHeldError, match="some-other-host"):
        acquire_lease(db, run_id, "coord-new")


def test_release_and_missing_run(db: Database):
    run_id = add_run(db)
    acquire_lease(db, run_id, "coord-a")
    assert release_lease(db, run_id, "coord-b") is False
    assert release_lease(db, run_id, "coord-a") is True
    with db.session() as session:
        run = session.get(Run, run_id)
        assert (run.lease_owner, run.lease_host, run.lease_pid, run.lease_expires) == (None, None, None, None)
    assert acquire_lease(db, run_id, "coord-b").owner == "coord-b"
    with pytest.raises(LeaseLostError, match="coord-b"):
        renew_lease(db, run_id, "coord-a")
    with pytest.raises(RunNotFoundError, match=str(run_id + 1)):
        acquire_lease(db, run_id + 1, "coord-a")


# --------------------------------------------------------------------------- #
# Migrations


def test_upgrade_empty_database_to_head_matches_models(db_path: Path):
    engine = make_engine(db_path)
    try:
        assert current_revision(engine) is None
        upgrade_to_head(engine)
        assert current_revision(engine) == head_revision()
        assert head_revision() in known_revisions()
        upgrade_to_head(engine)  # idempotent
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        assert diff == []
        assert TABLES | {"alembic_version"} == set(inspect(engine).get_table_names())
    finally:
        engine.dispose()
