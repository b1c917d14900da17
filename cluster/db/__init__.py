"""Persistence for the evolution cluster: one SQLite file per deployment,
through SQLAlchemy 2, with Alembic migrations shipped in the package.

Open a database with :meth:`Database.open`; guard a run with
:func:`acquire_lease` / :func:`renew_lease` / :func:`release_lease`.
"""

from genethello.cluster.db.database import (
    DEFAULT_BUSY_TIMEOUT,
    MAX_ROW_ID,
    Database,
    DatabaseLockedError,
    DatabaseNotFoundError,
    DatabaseTargetError,
    ForeignDatabaseError,
    NewerSchemaError,
    ReadOnlyDatabaseError,
    RunDatabaseError,
    RunNotFoundError,
    immediate,
    make_engine,
    row_id,
)
from genethello.cluster.db.lease import (
    Lease,
    LeaseError,
    LeaseHeldError,
    LeaseLostError,
    acquire_lease,
    release_lease,
    renew_lease,
)
from genethello.cluster.db.migrate import current_revision, head_revision, known_revisions, upgrade_to_head
from genethello.cluster.db.models import (
    GENERATION_STATUSES,
    RUN_STATUSES,
    Base,
    Game,
    Generation,
    PlayerRow,
    PopulationSlot,
    RatingRecord,
    Run,
    YardstickResult,
)

__all__ = [
    "DEFAULT_BUSY_TIMEOUT",
    "MAX_ROW_ID",
    "GENERATION_STATUSES",
    "RUN_STATUSES",
    "Base",
    "Database",
    "DatabaseLockedError",
    "DatabaseNotFoundError",
    "DatabaseTargetError",
    "ForeignDatabaseError",
    "Game",
    "Generation",
    "Lease",
    "LeaseError",
    "LeaseHeldError",
    "LeaseLostError",
    "NewerSchemaError",
    "ReadOnlyDatabaseError",
    "PlayerRow",
    "PopulationSlot",
    "RatingRecord",
    "Run",
    "RunDatabaseError",
    "RunNotFoundError",
    "YardstickResult",
    "acquire_lease",
    "current_revision",
    "head_revision",
    "immediate",
    "known_revisions",
    "make_engine",
    "row_id",
    "release_lease",
    "renew_lease",
    "upgrade_to_head",
]
