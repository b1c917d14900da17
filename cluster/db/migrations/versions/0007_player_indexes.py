"""Indexes by player: a long run's reads stay fast.

``lineage`` (and the web's lineage view) ask, for a few players, for the
slot each first sat in, its rating in that generation and its hall rating:
without these, each question scanned the whole ``population``,
``rating_history`` and ``hall_ratings`` tables (at 20,000 generations:
120,000 slots and ratings, millions of hall ratings).

* ``ix_population_player_id`` on ``population (player_id)``;
* ``ix_rating_history_player_id`` on ``rating_history (player_id, generation)``;
* ``ix_hall_ratings_player_id`` on ``hall_ratings (player_id, generation)``.

Indexes only: no stored value changes.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02 17:00:00
"""
from collections.abc import Sequence

from alembic import op

revision: str = '0007'
down_revision: str | Sequence[str] | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_INDEXES = (('ix_population_player_id', 'population', ['player_id']),
            ('ix_rating_history_player_id', 'rating_history', ['player_id', 'generation']),
            ('ix_hall_ratings_player_id', 'hall_ratings', ['player_id', 'generation']))


def upgrade() -> None:
    """Create the indexes."""
    for name, table, columns in _INDEXES:
        op.create_index(name, table, columns, unique=False)


def downgrade() -> None:
    """Drop them."""
    for name, table, _ in reversed(_INDEXES):
        op.drop_index(name, table_name=table)
