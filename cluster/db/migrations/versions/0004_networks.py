"""Networks: members' payloads, the breeder's state, a network generation's
fitness, and the numeric libraries a run was created with.

* ``chromosomes.payload`` (BLOB, NULL): what an individual's text cannot hold
  (a network's real weights, float64 little-endian; NULL for GeneThello).
* ``generations.breeder_state`` (BLOB, NULL): the state the breeder kept
  with the generation it bred (CMA-ES: its distribution and its generator;
  NULL for the stateless GA and random search).
* ``fitness_results``: a network generation's fitness, one row per fitness
  task (its index in the generation's task list), with the points of every
  member slot (float64 little-endian) and how many games it played. A
  resumed generation plays only the tasks without a row. Fitness games are
  never stored one by one.
* ``runs.numeric_versions`` (TEXT, NULL): JSON of the numpy and cmaes
  versions a run was created with (NULL for runs from before: they breed
  with GeneThello's operators, which use neither's numerics beyond the
  Generator).

Every stored run was a GeneThello run and stays one: its new columns are
NULL and it resumes as it began.

Plain CREATE TABLE and ADD COLUMN only (SQLite adds a nullable column in
place): a batch rebuild of a table that runs' rows are referenced from would
cascade deletes (see 0002).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 16:20:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0004'
down_revision: str | Sequence[str] | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the columns and the fitness table."""
    op.add_column('chromosomes', sa.Column('payload', sa.LargeBinary(), nullable=True))
    op.add_column('generations', sa.Column('breeder_state', sa.LargeBinary(), nullable=True))
    op.add_column('runs', sa.Column('numeric_versions', sa.Text(), nullable=True))
    op.create_table('fitness_results',
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('generation', sa.Integer(), nullable=False),
    sa.Column('task_index', sa.Integer(), nullable=False),
    sa.Column('points', sa.LargeBinary(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], name=op.f('fk_fitness_results_run_id_runs'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('run_id', 'generation', 'task_index', name=op.f('pk_fitness_results'))
    )


def downgrade() -> None:
    """Drop them (a network run's weights and state go with them)."""
    op.drop_table('fitness_results')
    op.drop_column('runs', 'numeric_versions')
    op.drop_column('generations', 'breeder_state')
    op.drop_column('chromosomes', 'payload')
