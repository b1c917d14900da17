"""Lineage: why each member of each generation is there.

* ``population.origin`` (TEXT, NULL): how the slot's member got there —
  elite, reentered, crossover, mutant, duplicate-mutated, cma-sample,
  random or initial (see :mod:`genethello.cluster.breeding.origins`).
* ``population.parent_a`` / ``parent_b`` (INTEGER, NULL): the parents'
  ``chromosomes.id`` (an elite's and a re-entered member's own row).
* ``population.source_generation`` (INTEGER, NULL): the generation whose
  ranking, hall or CMA-ES distribution the member came from.
* ``population.source_run`` (INTEGER, NULL): the run a re-entered member
  came from.

Slots stored before keep NULL in all five: their lineage reads as
"unknown". Nothing a run decides reads these columns.

Plain ADD COLUMN only (SQLite adds a nullable column in place): a batch
rebuild of ``population`` would drop and recreate a table that runs' rows
depend on (see 0002). The parents carry no foreign key, on purpose: a
re-entered member's parent may be another run's player.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 18:30:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0006'
down_revision: str | Sequence[str] | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COLUMNS = (('origin', sa.String()), ('parent_a', sa.Integer()), ('parent_b', sa.Integer()),
            ('source_generation', sa.Integer()), ('source_run', sa.Integer()))


def upgrade() -> None:
    """Add the columns (NULL in every stored slot)."""
    for name, type_ in _COLUMNS:
        op.add_column('population', sa.Column(name, type_, nullable=True))


def downgrade() -> None:
    """Drop them (the lineage of runs stored since goes with them)."""
    for name, _ in reversed(_COLUMNS):
        op.drop_column('population', name)
