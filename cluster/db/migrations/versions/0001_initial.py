"""Initial schema: runs, chromosomes, population, generations, games,
rating_history, yardstick_results.

Datetimes are plain DATETIME columns holding naive UTC (the models' UTCDateTime
adds and checks the time zone in Python).

Revision ID: 0001
Revises:
Create Date: 2026-11-29 15:40:40.223402

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0001'
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('runs',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(), nullable=False),
    sa.Column('config_json', sa.Text(), nullable=False),
    sa.Column('seed', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(), nullable=False),
    sa.Column('software_version', sa.String(), nullable=False),
    sa.Column('core_hash', sa.String(), nullable=False),
    sa.Column('pattern_version', sa.String(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.Column('generation', sa.Integer(), server_default='0', nullable=False),
    sa.Column('lease_owner', sa.String(), nullable=True),
    sa.Column('lease_host', sa.String(), nullable=True),
    sa.Column('lease_pid', sa.Integer(), nullable=True),
    sa.Column('lease_expires', sa.Float(), nullable=True),
    sa.CheckConstraint("status IN ('running', 'stopped', 'converged', 'finished', 'failed')",
                       name=op.f('ck_runs_status')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_runs')),
    sa.UniqueConstraint('name', name=op.f('uq_runs_name'))
    )
    op.create_table('chromosomes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('text', sa.String(), nullable=False),
    sa.Column('ctype', sa.String(), nullable=False),
    sa.Column('birth', sa.Integer(), nullable=False),
    sa.Column('genes', sa.String(), nullable=False),
    sa.Column('death', sa.Integer(), nullable=True),
    sa.Column('elo', sa.Float(), nullable=False),
    sa.Column('wins', sa.Integer(), server_default='0', nullable=False),
    sa.Column('losses', sa.Integer(), server_default='0', nullable=False),
    sa.Column('draws', sa.Integer(), server_default='0', nullable=False),
    sa.Column('yardstick', sa.Float(), nullable=True),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], name=op.f('fk_chromosomes_run_id_runs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_chromosomes')),
    sa.UniqueConstraint('run_id', 'text', name=op.f('uq_chromosomes_run_id_text'))
    )
    op.create_table('games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('generation', sa.Integer(), nullable=False),
    sa.Column('pair_index', sa.Integer(), nullable=False),
    sa.Column('black_id', sa.Integer(), nullable=False),
    sa.Column('white_id', sa.Integer(), nullable=False),
    sa.Column('score', sa.Integer(), nullable=False),
    sa.Column('black_discs', sa.Integer(), nullable=False),
    sa.Column('white_discs', sa.Integer(), nullable=False),
    sa.Column('moves', sa.Text(), nullable=True),
    sa.Column('nodes', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['black_id'], ['chromosomes.id'], name=op.f('fk_games_black_id_chromosomes')),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], name=op.f('fk_games_run_id_runs'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['white_id'], ['chromosomes.id'], name=op.f('fk_games_white_id_chromosomes')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_games')),
    sa.UniqueConstraint('run_id', 'generation', 'black_id', 'white_id',
                        name=op.f('uq_games_run_id_generation_black_id_white_id')),
    sa.UniqueConstraint('run_id', 'generation', 'pair_index', name=op.f('uq_games_run_id_generation_pair_index'))
    )
    op.create_index('ix_games_run_id_generation', 'games', ['run_id', 'generation'], unique=False)
    op.create_table('generations',
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('started_at', sa.DateTime(), nullable=True),
    sa.Column('finished_at', sa.DateTime(), nullable=True),
    sa.Column('status', sa.String(), nullable=False),
    sa.Column('games_total', sa.Integer(), server_default='0', nullable=False),
    sa.Column('games_done', sa.Integer(), server_default='0', nullable=False),
    sa.Column('best_player_id', sa.Integer(), nullable=True),
    sa.Column('mean_elo', sa.Float(), nullable=True),
    sa.Column('stats_json', sa.Text(), nullable=True),
    sa.CheckConstraint("status IN ('playing', 'rated', 'bred')", name=op.f('ck_generations_status')),
    sa.ForeignKeyConstraint(['best_player_id'], ['chromosomes.id'],
                            name=op.f('fk_generations_best_player_id_chromosomes')),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], name=op.f('fk_generations_run_id_runs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('run_id', 'number', name=op.f('pk_generations'))
    )
    op.create_table('population',
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('generation', sa.Integer(), nullable=False),
    sa.Column('slot', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['chromosomes.id'], name=op.f('fk_population_player_id_chromosomes')),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], name=op.f('fk_population_run_id_runs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('run_id', 'generation', 'slot', name=op.f('pk_population')),
    sa.UniqueConstraint('run_id', 'generation', 'player_id', name=op.f('uq_population_run_id_generation_player_id'))
    )
    op.create_table('rating_history',
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('generation', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('elo', sa.Float(), nullable=False),
    sa.Column('bt_rating', sa.Float(), nullable=True),
    sa.Column('bt_stderr', sa.Float(), nullable=True),
    sa.Column('wins', sa.Integer(), server_default='0', nullable=False),
    sa.Column('losses', sa.Integer(), server_default='0', nullable=False),
    sa.Column('draws', sa.Integer(), server_default='0', nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['chromosomes.id'], name=op.f('fk_rating_history_player_id_chromosomes')),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], name=op.f('fk_rating_history_run_id_runs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('run_id', 'generation', 'player_id', name=op.f('pk_rating_history'))
    )
    op.create_table('yardstick_results',
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('generation', sa.Integer(), nullable=False),
    sa.Column('opponent', sa.String(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('points', sa.Float(), nullable=False),
    sa.Column('score', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['chromosomes.id'], name=op.f('fk_yardstick_results_player_id_chromosomes')),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], name=op.f('fk_yardstick_results_run_id_runs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('run_id', 'generation', 'opponent', name=op.f('pk_yardstick_results'))
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table('yardstick_results')
    op.drop_table('rating_history')
    op.drop_table('population')
    op.drop_table('generations')
    op.drop_index('ix_games_run_id_generation', table_name='games')
    op.drop_table('games')
    op.drop_table('chromosomes')
    op.drop_table('runs')
