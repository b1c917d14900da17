"""Run leases: at most one coordinator drives a run at a time.

A lease is four columns of the run's row (owner, host, pid, expiry in unix
time). A coordinator acquires it before driving the run and renews it well
within ``ttl``; a crashed coordinator's lease is taken over once it expires,
or at once from a dead process on this same host (checked with
``os.kill(pid, 0)``; a pid cannot be checked on another host).

Each operation is one transaction begun with BEGIN IMMEDIATE (so the read and
the write cannot interleave with another coordinator's), and the write is a
compare-and-swap ``UPDATE ... WHERE`` on the values read, checked by rowcount.
"""

from __future__ import annotations

import os
import socket
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import CursorResult, Table, select, update

from genethello.cluster.db.database import Database, RunNotFoundError
from genethello.cluster.db.models import Run

_runs = cast(Table, Run.__table__)
_LEASE_COLUMNS = (_runs.c.lease_owner, _runs.c.lease_host, _runs.c.lease_pid, _runs.c.lease_expires)
#: Lease writes leave ``updated_at`` alone (``lease_expires`` is the heartbeat).
_KEEP_UPDATED_AT = {"updated_at": _runs.c.updated_at}


class LeaseError(RuntimeError):
    """A run's lease could not be taken, renewed or kept."""


class LeaseHeldError(LeaseError):
    """Another live coordinator holds the run's lease."""

    def __init__(self, message: str, *, run_id: int, owner: str | None, host: str | None,
                 pid: int | None, expires: float | None) -> None:
        super().__init__(message)
        self.run_id = run_id
        self.owner = owner
        self.host = host
        self.pid = pid
        self.expires = expires


class LeaseLostError(LeaseError):
    """The caller no longer holds the lease it tried to renew."""


@dataclass(frozen=True)
class Lease:
    """A lease as stored: who holds run ``run_id`` and until when (unix time)."""

    run_id: int
    owner: str
    host: str
    pid: int
    expires: float


def pid_alive(pid: int) -> bool:
    """Whether a process with this pid exists on this host (a process of
    another user counts as alive)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: exists, owned by someone else
        return True
    return True


def _when(expires: float | None, now: float) -> str:
    if expires is None:
        return "with no expiry"
    stamp = datetime.fromtimestamp(expires, UTC).isoformat(timespec="seconds")
    return f"until {stamp} ({expires - now:+.1f} s from now)"


def _holder(row: Any, now: float) -> str:
    return f"{row.lease_owner!r} (host {row.lease_host}, pid {row.lease_pid}) {_when(row.lease_expires, now)}"


def _check(owner: str, ttl: float) -> None:
    if not owner:
        raise ValueError("lease owner must be a non-empty string")
    if not ttl > 0:
        raise ValueError(f"lease ttl must be > 0 seconds, got {ttl}")


def _read(session: Any, db: Database, run_id: int) -> Any:
    row = session.execute(select(*_LEASE_COLUMNS).where(_runs.c.id == run_id)).one_or_none()
    if row is None:
        raise RunNotFoundError(f"no run with id {run_id} in {db.path}")
    return row


def _takeable(row: Any, owner: str, now: float, host: str) -> bool:
    if row.lease_owner is None or row.lease_owner == owner:
        return True
    if row.lease_expires is None or row.lease_expires <= now:
        return True
    return row.lease_host == host and row.lease_pid is not None and not pid_alive(row.lease_pid)


def acquire_lease(
    db: Database, run_id: int, owner: str, ttl: float = 30.0, now: float | None = None
) -> Lease:
    """Take run ``run_id``'s lease for ``owner`` until ``now + ttl``.

    Succeeds if the lease is free, expired, already ``owner``'s, or held by a
    dead process on this host. The lease records this host and process.

    Raises:
        LeaseHeldError: someone else holds it (the message names them).
        RunNotFoundError: no such run.
        DatabaseLockedError: the database stayed locked past its timeout.
    """
    _check(owner, ttl)
    now = time.time() if now is None else now
    host, pid = socket.gethostname(), os.getpid()
    with db.session(immediate=True) as session:
        row = _read(session, db, run_id)
        if not _takeable(row, owner, now, host):
            raise LeaseHeldError(
                f"run {run_id} in {db.path} is leased by {_holder(row, now)}; {owner!r} cannot take it",
                run_id=run_id, owner=row.lease_owner, host=row.lease_host,
                pid=row.lease_pid, expires=row.lease_expires,
            )
        result = session.execute(
            update(_runs)
            .where(
                _runs.c.id == run_id,
                *(column.is_not_distinct_from(row[i]) for i, column in enumerate(_LEASE_COLUMNS)),
            )
            .values(lease_owner=owner, lease_host=host, lease_pid=pid, lease_expires=now + ttl, **_KEEP_UPDATED_AT)
        )
        if cast(CursorResult[Any], result).rowcount != 1:  # cannot happen under BEGIN IMMEDIATE; kept as a guard
            raise LeaseHeldError(
                f"run {run_id} in {db.path}: the lease changed while {owner!r} was taking it",
                run_id=run_id, owner=None, host=None, pid=None, expires=None,
            )
    return Lease(run_id, owner, host, pid, now + ttl)


def renew_lease(
    db: Database, run_id: int, owner: str, ttl: float = 30.0, now: float | None = None
) -> Lease:
    """Extend ``owner``'s lease on run ``run_id`` to ``now + ttl``. A lease
    that expired but that nobody took is still ``owner``'s and is renewed.

    Raises:
        LeaseLostError: ``owner`` does not hold the lease (any more).
        RunNotFoundError: no such run.
    """
    _check(owner, ttl)
    now = time.time() if now is None else now
    with db.session(immediate=True) as session:
        result = session.execute(
            update(_runs)
            .where(_runs.c.id == run_id, _runs.c.lease_owner == owner)
            .values(lease_expires=now + ttl, **_KEEP_UPDATED_AT)
        )
        row = _read(session, db, run_id)
        if cast(CursorResult[Any], result).rowcount != 1:
            holder = "nobody" if row.lease_owner is None else _holder(row, now)
            raise LeaseLostError(f"{owner!r} lost the lease on run {run_id} in {db.path}: it is held by {holder}")
    return Lease(run_id, owner, row.lease_host, row.lease_pid, now + ttl)


def release_lease(db: Database, run_id: int, owner: str) -> bool:
    """Give up ``owner``'s lease on run ``run_id``.

    Returns:
        True if ``owner`` held it; False if not (nothing is changed).
    """
    with db.session(immediate=True) as session:
        result = session.execute(
            update(_runs)
            .where(_runs.c.id == run_id, _runs.c.lease_owner == owner)
            .values(lease_owner=None, lease_host=None, lease_pid=None, lease_expires=None, **_KEEP_UPDATED_AT)
        )
        return cast(CursorResult[Any], result).rowcount == 1
