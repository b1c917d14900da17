"""Alembic environment for genethello run databases.

Run from code (:mod:`genethello.cluster.db.migrate`), not from an
alembic.ini: the caller passes an open connection, already inside the
transaction the upgrade should run in, as ``config.attributes["connection"]``.
Without one, env.py opens the ``sqlalchemy.url`` main option through
:func:`~genethello.cluster.db.database.make_engine`. ``render_as_batch`` makes
autogenerate write SQLite-safe batch operations (table rebuilds) for ALTERs.
"""

from __future__ import annotations

from typing import Any, Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext

from genethello.cluster.db.models import Base, UTCDateTime

config = context.config
target_metadata = Base.metadata


def _render_item(kind: str, obj: Any, autogen_context: AutogenContext) -> str | Literal[False]:
    """Autogenerate writes UTCDateTime as sa.DateTime(): a revision must not
    import the models, which change after it is written."""
    if kind == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime()"
    return False


def _configure(**kwargs: Any) -> None:
    context.configure(
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
        render_item=_render_item,
        **kwargs,
    )


def run_migrations_offline() -> None:
    """Emit the SQL as a script (``--sql``) instead of running it."""
    _configure(url=config.get_main_option("sqlalchemy.url"), literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run the migrations on the caller's connection, or on a new engine."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection=connection)
        with context.begin_transaction():
            context.run_migrations()
        return

    from genethello.cluster.db.database import immediate, make_engine

    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no connection passed and no sqlalchemy.url set for the migrations")
    engine = make_engine(url)
    try:
        with immediate(engine).begin() as connection:
            _configure(connection=connection)
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
