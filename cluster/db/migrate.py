"""Alembic, driven from code: no alembic.ini, the scripts live in the package.

The migration scripts are in ``migrations/`` beside this module (installed
as package data), so an installed genethello can upgrade any database an
older version wrote, and can recognise a revision it has never heard of
(written by a newer version) before touching the file.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine

from genethello.cluster.db.begin_modes import immediate

#: Folder of env.py, script.py.mako and versions/.
SCRIPT_LOCATION = Path(__file__).resolve().parent / "migrations"


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic config pointing at the packaged scripts. With
    ``connection``, env.py runs the migrations on it (inside its
    transaction) instead of opening its own."""
    config = Config()
    config.set_main_option("script_location", str(SCRIPT_LOCATION))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config())


def head_revision() -> str:
    """The newest revision this software knows (the single head)."""
    head = _scripts().get_current_head()
    if head is None:  # pragma: no cover - the package always ships 0001
        raise RuntimeError(f"no migration scripts found in {SCRIPT_LOCATION}")
    return head


def known_revisions() -> frozenset[str]:
    """Every revision id in the packaged migration scripts."""
    return frozenset(script.revision for script in _scripts().walk_revisions())


def current_revision(engine: Engine) -> str | None:
    """The revision stamped in the database (None for a database Alembic has
    never touched). Reads only."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade_to_head(engine: Engine) -> None:
    """Upgrade the database to :func:`head_revision`, in one transaction
    begun with BEGIN IMMEDIATE: SQLite's DDL is transactional, so a failed
    upgrade leaves the database as it was, and two processes upgrading at
    once serialise (the second finds the work done).

    ``engine`` should come from :func:`~genethello.cluster.db.database.make_engine`
    (its ``begin`` listener honours the IMMEDIATE option)."""
    with immediate(engine).begin() as conn:
        command.upgrade(alembic_config(conn), "head")
