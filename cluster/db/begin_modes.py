"""How a transaction begins: SQLite's DEFERRED (the default), IMMEDIATE or
EXCLUSIVE, chosen per engine view by an execution option that the engine's
``begin`` listener reads (:func:`~genethello.cluster.db.database.make_engine`).

A leaf of the database layer: the engine and the migrations both begin
transactions this way, and neither imports the other for it.
"""

from __future__ import annotations

import os
from typing import Any

from sqlalchemy import Engine

__all__ = ["BEGIN_MODE_OPTION", "SharedMemoryError", "begin_with_mode", "check_shared_memory", "immediate"]

#: Execution option read by the ``begin`` listener: DEFERRED (default),
#: IMMEDIATE or EXCLUSIVE.
BEGIN_MODE_OPTION = "genethello_sqlite_begin"
_BEGIN_MODES = frozenset({"DEFERRED", "IMMEDIATE", "EXCLUSIVE"})


def begin_with_mode(conn: Any) -> None:
    """The ``begin`` listener: BEGIN in the mode the connection's execution
    options ask for (DEFERRED when they name none), once the WAL's shared
    memory is known writable (:func:`check_shared_memory`)."""
    mode = str(conn.get_execution_options().get(BEGIN_MODE_OPTION, "DEFERRED")).upper()
    if mode not in _BEGIN_MODES:
        raise ValueError(f"{BEGIN_MODE_OPTION}={mode!r}: expected one of {sorted(_BEGIN_MODES)}")
    check_shared_memory(conn.engine.url.database)     # None for a read-only medium's engine: no shared memory
    conn.exec_driver_sql(f"BEGIN {mode}")


#: The databases this process has begun a transaction on while their
#: shared memory was writable (SQLite then maps it for writing).
_MAPPED_WRITABLE: set[str] = set()


class SharedMemoryError(PermissionError):
    """The WAL's shared memory can no longer be written. The process must
    end without closing its connections (``abandon_connections``): SQLite's
    close checkpoints the WAL through that memory, which the kernel answers
    with SIGBUS."""

    abandon_connections = True


def check_shared_memory(database: str | None) -> None:
    """Refuse a transaction whose WAL index (``DATABASE-shm``, which SQLite
    maps into memory and writes on every BEGIN, even a read's) can no
    longer be written: a file made immutable or read-only under a running
    process. SQLite would write through its mapping and the kernel end the
    process with SIGBUS and a native crash dump; this ends it with one line.

    Raises:
        SharedMemoryError: naming the file.
    """
    if not database or database == ":memory:":
        return
    shared = f"{database}-shm"
    if not os.path.exists(shared) or os.access(shared, os.W_OK):
        _MAPPED_WRITABLE.add(database)
    elif database in _MAPPED_WRITABLE:      # a viewer that never could write it reads it as SQLite allows
        raise SharedMemoryError(f"the database's shared-memory file {shared} cannot be written (made read-only or "
                              "immutable under the run?): stopping before SQLite writes to it")


def immediate(engine: Engine) -> Engine:
    """A view of ``engine`` whose transactions begin with ``BEGIN IMMEDIATE``:
    the write lock is taken at the start, so a read-then-write transaction
    cannot fail half way because another connection wrote in between."""
    return engine.execution_options(**{BEGIN_MODE_OPTION: "IMMEDIATE"})
