"""Opening a run database: the engine factory, the checks before any write,
and sessions.

Only SQLite is supported. Every connection gets ``journal_mode=WAL`` (readers
never block the coordinator, the only writer), ``foreign_keys=ON`` and a
``busy_timeout``. The sqlite3 driver's own transaction handling is switched
off and SQLAlchemy emits BEGIN itself (the recipe in SQLAlchemy's SQLite
dialect documentation, "Enabling Non-Legacy SQLite Transactional Modes"), so
that SELECTs are inside the transaction too and a transaction can begin with
``BEGIN IMMEDIATE`` when asked (see :func:`immediate`).

:meth:`Database.open` looks at an existing file through plain read-only
sqlite3 connections before it builds an engine, so nothing is written to a
file that is not ours, was written by a newer genethello, or is locked.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from genethello.cluster.db import migrate
from genethello.cluster.db.begin_modes import begin_with_mode, immediate
from genethello.cluster.db.models import Base
from genethello.core.frontend.errors import UserError

#: Seconds a connection waits for another's lock before giving up.
DEFAULT_BUSY_TIMEOUT = 10.0

#: The first 16 bytes of every SQLite 3 database file.
SQLITE_HEADER = b"SQLite format 3\x00"

#: Tables Alembic keeps for itself.
VERSION_TABLE = "alembic_version"


#: The largest value an SQLite INTEGER column holds (a row id, a generation).
MAX_ROW_ID = 2**63 - 1


def row_id(text: object) -> int | None:
    """``text`` as a row id when it is one: ASCII digits naming at most
    :data:`MAX_ROW_ID`; else None. ``str.isdigit`` alone accepts '²' and
    other digits ``int`` refuses, and SQLite cannot even compare a larger
    number with a column (OverflowError): such a key names no row."""
    if not isinstance(text, str) or not (text.isascii() and text.isdigit()) or len(text) > 19:
        return None
    value = int(text)
    return value if value <= MAX_ROW_ID else None


class DatabaseTargetError(UserError):
    """The target names no SQLite file (another backend, in-memory, ...)."""


class RunNotFoundError(UserError):
    """No run matches the given name or id (the one class for every lookup:
    the lease, the coordinator and the commands raise it alike)."""


class RunDatabaseError(RuntimeError):
    """A run database cannot be used as asked."""


class DatabaseNotFoundError(RunDatabaseError):
    """There is no database (or only an empty one) and creation was not asked for."""


class ReadOnlyDatabaseError(RunDatabaseError):
    """A command that writes was given a database it cannot write."""


def check_writable(path: Path) -> None:
    """Refuse, before anything is written, a database file or folder this
    process cannot write (a read-only file or mount; SQLite also writes the
    ``-wal`` and ``-shm`` files beside the database).

    Raises:
        ReadOnlyDatabaseError: naming what is read-only.
    """
    for what, target in (("file", path), ("folder", path.parent)):
        if target.exists() and not os.access(target, os.W_OK):
            raise ReadOnlyDatabaseError(f"database {path} cannot be written (its {what} is read-only); "
                                        "this command writes to it: make it writable or work on a copy")


class ForeignDatabaseError(RunDatabaseError):
    """The file is not SQLite, or an SQLite database that is not genethello's."""


class NewerSchemaError(RunDatabaseError):
    """The database's schema revision is unknown to this software."""

    def __init__(self, message: str, revision: str) -> None:
        super().__init__(message)
        self.revision = revision


class DatabaseLockedError(RunDatabaseError):
    """Another process held a lock for longer than the busy timeout."""


# --------------------------------------------------------------------------- #
# Engine


def sqlite_path(target: str | os.PathLike[str]) -> Path:
    """The absolute file path named by ``target``: a filesystem path or a
    ``sqlite:///`` URL.

    Raises:
        DatabaseTargetError: another backend or driver, an in-memory
            database, URL query parameters, or an empty target.
    """
    text = os.fspath(target)
    if not isinstance(target, os.PathLike) and ("://" in text or text.startswith("sqlite:")):
        try:
            url = make_url(text)
        except ArgumentError as exc:
            raise DatabaseTargetError(f"database target {text!r} is not a valid URL: {exc}") from exc
        if url.get_backend_name() != "sqlite" or url.get_driver_name() != "pysqlite":
            raise DatabaseTargetError(
                f"database target {text!r}: only SQLite (sqlite:///PATH) is supported"
            )
        if url.query:
            raise DatabaseTargetError(f"database target {text!r}: URL query parameters are not supported")
        if not url.database or url.database == ":memory:" or url.database.startswith("file:"):
            raise DatabaseTargetError(f"database target {text!r}: a database file path is needed")
        text = url.database
    if not text.strip():
        raise DatabaseTargetError("database target is empty: a database file path is needed")
    return Path(text).expanduser().absolute()


def _stored_text(data: bytes) -> str:
    """A TEXT value as read: UTF-8, its undecodable bytes replaced."""
    return data.decode("utf-8", "replace")


def _on_connect(busy_timeout: float, read_only: bool = False) -> Any:
    def set_pragmas(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
        # Take BEGIN away from the driver; the "begin" listener emits it.
        dbapi_connection.isolation_level = None
        # A crafted database's TEXT that is not UTF-8 reads with U+FFFD for
        # its bad bytes: the driver's own decoding fails the whole query.
        dbapi_connection.text_factory = _stored_text
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
            cursor.execute("PRAGMA foreign_keys = ON")
            if not read_only:
                cursor.execute("PRAGMA journal_mode = WAL")
        finally:
            cursor.close()

    return set_pragmas


def make_engine(
    target: str | os.PathLike[str], *, busy_timeout: float = DEFAULT_BUSY_TIMEOUT, echo: bool = False,
    read_only_medium: bool = False,
) -> Engine:
    """An engine on the SQLite file ``target`` (path or ``sqlite:///`` URL)
    with the pragmas and BEGIN handling described in the module docstring.

    It connects lazily; the file is created on first connect if missing. Use
    :meth:`Database.open` to open a run database with its checks.

    Raises:
        DatabaseTargetError: ``target`` is not an SQLite file.
        ValueError: ``busy_timeout`` is negative.
    """
    path = sqlite_path(target)
    if busy_timeout < 0:
        raise ValueError(f"busy_timeout for {path} must be >= 0, got {busy_timeout}")
    if read_only_medium:
        # Nobody can write a file on a read-only medium, and SQLite cannot
        # make the -shm a WAL reader needs there: read it as immutable.
        engine = create_engine(
            "sqlite://", echo=echo,
            creator=lambda: sqlite3.connect(f"{path.as_uri()}?mode=ro&immutable=1", uri=True,
                                            timeout=busy_timeout, check_same_thread=False),
        )
    else:
        engine = create_engine(
            URL.create("sqlite", database=str(path)), echo=echo, connect_args={"timeout": busy_timeout}
        )
    event.listen(engine, "connect", _on_connect(busy_timeout, read_only_medium))
    event.listen(engine, "begin", begin_with_mode)
    return engine


# --------------------------------------------------------------------------- #
# Checks before any write


def _is_locked(exc: BaseException) -> bool:
    name = getattr(exc, "sqlite_errorname", "") or ""
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in str(exc)


def _locked(path: Path, busy_timeout: float, exc: BaseException) -> DatabaseLockedError:
    return DatabaseLockedError(
        f"database {path} is locked by another connection (waited {busy_timeout:g} s): {exc}"
    )


def _raw_connect(path: Path, mode: str, busy_timeout: float) -> sqlite3.Connection:
    try:
        return sqlite3.connect(
            f"{path.as_uri()}?mode={mode}", uri=True, timeout=busy_timeout, isolation_level=None
        )
    except sqlite3.Error as exc:
        raise RunDatabaseError(f"cannot open database {path}: {exc}") from exc


def _read_schema(path: Path, busy_timeout: float, immutable: bool = False) -> tuple[set[str], list[str]]:
    """Table names and alembic_version rows, read through a read-only connection."""
    conn = _raw_connect(path, "ro&immutable=1" if immutable else "ro", busy_timeout)
    try:
        tables = {
            row[0]
            for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
            )
        }
        revisions: list[str] = []
        if VERSION_TABLE in tables:
            revisions = [str(row[0]) for row in conn.execute(f"SELECT version_num FROM {VERSION_TABLE}")]
        return tables, revisions
    except sqlite3.OperationalError as exc:
        if _is_locked(exc):
            raise _locked(path, busy_timeout, exc) from exc
        raise ForeignDatabaseError(f"database {path} cannot be read as genethello's: {exc}") from exc
    except sqlite3.DatabaseError as exc:
        raise ForeignDatabaseError(f"{path} is not an SQLite database: {exc}") from exc
    finally:
        conn.close()


def _probe_write_lock(path: Path, busy_timeout: float) -> None:
    """Take and drop the write lock (BEGIN IMMEDIATE; ROLLBACK): writes nothing."""
    conn = _raw_connect(path, "rw", busy_timeout)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        if _is_locked(exc):
            raise _locked(path, busy_timeout, exc) from exc
        raise RunDatabaseError(f"database {path} cannot be written: {exc}") from exc
    finally:
        conn.close()


def check_database_file(path: Path, *, create: bool, busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
                        immutable: bool = False, writing: bool = True) -> str | None:
    """Check that ``path`` may be opened as a run database, writing nothing
    (``immutable``: on a read-only medium, see :func:`make_engine`).

    The write lock is probed (taken and dropped, a lock held elsewhere
    past the busy timeout refused in one line) when the caller will write
    (``writing``) or the schema must be upgraded; a reader of a database at
    the newest schema does not take it: in WAL mode it reads the last
    committed state while a run writes (a learning run's generation can
    hold the lock for seconds), and in rollback mode its first read waits
    for the lock and is refused in the same one line.

    Returns:
        The schema revision stored there; None for a database to be created
        (missing or empty file, with ``create``).

    Raises:
        DatabaseNotFoundError: missing or empty, and not ``create``; or its
            folder is missing.
        ForeignDatabaseError: not SQLite; SQLite with tables but no (or an
            odd) alembic_version; or tables that are not genethello's.
        NewerSchemaError: a revision unknown to the packaged migrations.
        DatabaseLockedError: another connection holds a lock past the timeout.
    """
    if not path.exists():
        if not create:
            raise DatabaseNotFoundError(f"no database at {path}")
        if not path.parent.is_dir():
            raise DatabaseNotFoundError(f"cannot create database {path}: folder {path.parent} does not exist")
        return None
    if not path.is_file():
        raise ForeignDatabaseError(f"database path {path} is not a regular file")
    with path.open("rb") as handle:
        header = handle.read(len(SQLITE_HEADER))
    if header and header != SQLITE_HEADER:
        raise ForeignDatabaseError(f"{path} is not an SQLite database (it starts with {header!r})")

    tables, revisions = _read_schema(path, busy_timeout, immutable)
    if not tables:
        if not create:
            raise DatabaseNotFoundError(
                f"database {path} is empty, not a genethello run database"
            )
        _probe_write_lock(path, busy_timeout)
        return None
    listing = ", ".join(sorted(tables))
    if VERSION_TABLE not in tables:
        raise ForeignDatabaseError(
            f"{path} is an SQLite database of something else: tables {listing} but no {VERSION_TABLE}"
        )
    unknown = sorted(set(revisions) - migrate.known_revisions())
    if unknown:
        raise NewerSchemaError(
            f"database {path} has schema revision {unknown[0]!r}, unknown to this genethello "
            f"(newest known: {migrate.head_revision()!r}); it was written by a newer version",
            unknown[0],
        )
    if len(revisions) != 1:
        raise ForeignDatabaseError(
            f"database {path}: {VERSION_TABLE} holds {len(revisions)} revisions, expected exactly one"
        )
    # Holds while no revision drops a table; one that does must list it here.
    foreign = tables - set(Base.metadata.tables) - {VERSION_TABLE}
    if foreign:
        raise ForeignDatabaseError(
            f"database {path} holds tables that are not genethello's: {', '.join(sorted(foreign))}"
        )
    if not immutable and (writing or revisions[0] != migrate.head_revision()):
        _probe_write_lock(path, busy_timeout)   # nothing can write a read-only medium: no lock to probe
    return revisions[0]


# --------------------------------------------------------------------------- #
# Database


@contextmanager
def translate_locked(path: Path, busy_timeout: float) -> Iterator[None]:
    """Re-raise SQLAlchemy's "database is locked" as :class:`DatabaseLockedError`."""
    try:
        yield
    except OperationalError as exc:
        if _is_locked(exc.orig if exc.orig is not None else exc):
            raise _locked(path, busy_timeout, exc.orig or exc) from exc
        raise


class Database:
    """An open run database: an engine plus session factories.

    Build it with :meth:`open`; close it with :meth:`dispose` (or use it as
    a context manager).
    """

    def __init__(self, engine: Engine, path: Path, busy_timeout: float) -> None:
        self.engine = engine
        self.busy_timeout = busy_timeout
        self._path = path
        # Objects stay usable after commit: the coordinator is the only
        # writer, so reloading them on every access would buy nothing.
        self._sessions = sessionmaker(bind=engine, expire_on_commit=False)
        self._immediate_sessions = sessionmaker(bind=immediate(engine), expire_on_commit=False)

    @classmethod
    def open(
        cls,
        target: str | os.PathLike[str],
        *,
        create: bool,
        writable: bool = False,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
        echo: bool = False,
    ) -> Database:
        """Open (or with ``create``, create) the run database at ``target``,
        upgrading an older schema to the newest revision. ``writable``: the
        caller will write (refused up front when it cannot).

        Raises:
            DatabaseTargetError, DatabaseNotFoundError, ForeignDatabaseError,
            NewerSchemaError, DatabaseLockedError: see
            :func:`check_database_file`; nothing is written in those cases.
            ReadOnlyDatabaseError: ``writable`` and the file or its folder
            is read-only.
        """
        path = sqlite_path(target)
        if writable or create:
            check_writable(path)
        read_only_medium = path.exists() and not os.access(path.parent, os.W_OK)
        revision = check_database_file(path, create=create, busy_timeout=busy_timeout, immutable=read_only_medium,
                                       writing=writable or create)
        if read_only_medium and revision != migrate.head_revision():
            raise ReadOnlyDatabaseError(f"database {path} is at schema revision {revision!r} and must be upgraded "
                                        "to be read, but its folder is read-only: work on a copy")
        engine = make_engine(path, busy_timeout=busy_timeout, echo=echo, read_only_medium=read_only_medium)
        try:
            with translate_locked(path, busy_timeout):
                if revision != migrate.head_revision():
                    migrate.upgrade_to_head(engine)
                stamped = migrate.current_revision(engine)
            if stamped != migrate.head_revision():
                raise RunDatabaseError(
                    f"database {path} is at revision {stamped!r} after upgrading, expected {migrate.head_revision()!r}"
                )
        except BaseException:
            engine.dispose()
            raise
        return cls(engine, path, busy_timeout)

    @property
    def path(self) -> Path:
        """Absolute path of the database file."""
        return self._path

    @property
    def url(self) -> str:
        """The ``sqlite:///`` URL of the database file."""
        return self.engine.url.render_as_string(hide_password=False)

    @contextmanager
    def session(self, *, immediate: bool = False) -> Iterator[Session]:
        """A session in one transaction: committed when the block ends,
        rolled back if it raises. ``immediate`` begins with BEGIN IMMEDIATE
        (for read-then-write work). A lock held past the busy timeout raises
        :class:`DatabaseLockedError`."""
        factory = self._immediate_sessions if immediate else self._sessions
        with translate_locked(self._path, self.busy_timeout), factory.begin() as session:
            yield session

    def dispose(self) -> None:
        """Close the pooled connections."""
        self.engine.dispose()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.dispose()

    def __repr__(self) -> str:
        return f"Database({str(self._path)!r})"
