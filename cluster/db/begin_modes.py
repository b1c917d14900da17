"""How a transaction begins: SQLite's DEFERRED (the default), IMMEDIATE or
EXCLUSIVE, chosen per engine view by an execution option that the engine's
``begin`` listener reads (:func:`~genethello.cluster.db.database.make_engine`).

A leaf of the database layer: the engine and the migrations both begin
transactions this way, and neither imports the other for it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

__all__ = ["BEGIN_MODE_OPTION", "begin_with_mode", "immediate"]

#: Execution option read by the ``begin`` listener: DEFERRED (default),
#: IMMEDIATE or EXCLUSIVE.
BEGIN_MODE_OPTION = "genethello_sqlite_begin"
_BEGIN_MODES = frozenset({"DEFERRED", "IMMEDIATE", "EXCLUSIVE"})


def begin_with_mode(conn: Any) -> None:
    """The ``begin`` listener: BEGIN in the mode the connection's execution
    options ask for (DEFERRED when they name none)."""
    mode = str(conn.get_execution_options().get(BEGIN_MODE_OPTION, "DEFERRED")).upper()
    if mode not in _BEGIN_MODES:
        raise ValueError(f"{BEGIN_MODE_OPTION}={mode!r}: expected one of {sorted(_BEGIN_MODES)}")
    conn.exec_driver_sql(f"BEGIN {mode}")


def immediate(engine: Engine) -> Engine:
    """A view of ``engine`` whose transactions begin with ``BEGIN IMMEDIATE``:
    the write lock is taken at the start, so a read-then-write transaction
    cannot fail half way because another connection wrote in between."""
    return engine.execution_options(**{BEGIN_MODE_OPTION: "IMMEDIATE"})
