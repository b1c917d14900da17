"""The hall of fame, and match counts for the yardstick.

New tables ``hall_members``, ``hall_games`` and ``hall_ratings`` (see the
models): each generation's champion enters the hall and plays its members;
the best so far is the hall's top rating from then on. New nullable columns
``yardstick_results.wins``, ``draws`` and ``losses``: a score's interval
needs its counts (rows measured before this revision keep NULL there and are
shown without an interval).

A run stored before this revision had no hall: the upgrade writes
``hall.games_per_member = 0`` into each stored config that lacks the
section, so an old run resumes as it began (best so far by Elo).

Plain CREATE TABLE and ADD COLUMN only: a batch rebuild of a table that
runs' rows are referenced from would cascade deletes (see 0002).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 12:00:00
"""
import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0003'
down_revision: str | Sequence[str] | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_runs = sa.table("runs", sa.column("id", sa.Integer), sa.column("config_json", sa.Text))


def upgrade() -> None:
    """Create the hall's tables, add the yardstick's counts, and keep old runs
    without a hall."""
    op.create_table('hall_members',
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('entered', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['chromosomes.id'], name=op.f('fk_hall_members_player_id_chromosomes')),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], name=op.f('fk_hall_members_run_id_runs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('run_id', 'player_id', name=op.f('pk_hall_members'))
    )
    op.create_table('hall_games',
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('generation', sa.Integer(), nullable=False),
    sa.Column('game_index', sa.Integer(), nullable=False),
    sa.Column('black_id', sa.Integer(), nullable=False),
    sa.Column('white_id', sa.Integer(), nullable=False),
    sa.Column('score', sa.Integer(), nullable=False),
    sa.Column('nodes', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['black_id'], ['chromosomes.id'], name=op.f('fk_hall_games_black_id_chromosomes')),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], name=op.f('fk_hall_games_run_id_runs'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['white_id'], ['chromosomes.id'], name=op.f('fk_hall_games_white_id_chromosomes')),
    sa.PrimaryKeyConstraint('run_id', 'generation', 'game_index', name=op.f('pk_hall_games'))
    )
    op.create_table('hall_ratings',
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('generation', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('rating', sa.Float(), nullable=False),
    sa.Column('stderr', sa.Float(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('points', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['chromosomes.id'], name=op.f('fk_hall_ratings_player_id_chromosomes')),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], name=op.f('fk_hall_ratings_run_id_runs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('run_id', 'generation', 'player_id', name=op.f('pk_hall_ratings'))
    )
    for column in ('wins', 'draws', 'losses'):
        op.add_column('yardstick_results', sa.Column(column, sa.Integer(), nullable=True))
    conn = op.get_bind()
    for run_id, config_json in conn.execute(sa.select(_runs.c.id, _runs.c.config_json)).all():
        data = json.loads(config_json)
        if "hall" not in data:
            data["hall"] = {"games_per_member": 0}
            conn.execute(sa.update(_runs).where(_runs.c.id == run_id).values(
                config_json=json.dumps(data, sort_keys=True)))


def downgrade() -> None:
    """Drop the hall and the counts (the stored configs keep their hall key)."""
    for column in ('losses', 'draws', 'wins'):
        op.drop_column('yardstick_results', column)
    op.drop_table('hall_ratings')
    op.drop_table('hall_games')
    op.drop_table('hall_members')
