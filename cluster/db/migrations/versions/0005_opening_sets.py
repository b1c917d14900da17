"""Opening sets and sequential yardstick tests.

* Every stored run config says where its measured series take their
  openings.

From 0005 a config has ``[openings] series`` (default ``distinct-6``: the
hall's and the yardstick's openings drawn without replacement from the
positions 6 plies deep, one per symmetry class). Runs stored before drew
every game's opening on its own, with replacement; the upgrade writes
``series = "random"`` into each stored config that lacks the section, so an
old run resumes to the same games (its stored games keep their openings in
their moves either way).

Only ``runs.config_json`` is rewritten for that (as 0002 did).

* ``yardstick_results.sprt`` (TEXT, NULL): for a sequential yardstick
  opponent (``yardstick.sprt_opponents``), the test and where it stopped
  (JSON: bounds, error rates, cap, decision, LLR, pair counts); NULL for a
  fixed series, and in every row stored before. A plain ADD COLUMN.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 18:40:00
"""
import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0005'
down_revision: str | Sequence[str] | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_runs = sa.table("runs", sa.column("id", sa.Integer), sa.column("config_json", sa.Text))


def upgrade() -> None:
    """Give every stored config an ``openings`` section saying "random";
    add the SPRT column."""
    op.add_column('yardstick_results', sa.Column('sprt', sa.Text(), nullable=True))
    conn = op.get_bind()
    for run_id, config_json in conn.execute(sa.select(_runs.c.id, _runs.c.config_json)).all():
        data = json.loads(config_json)
        if "openings" not in data:
            data["openings"] = {"series": "random"}
            conn.execute(sa.update(_runs).where(_runs.c.id == run_id).values(
                config_json=json.dumps(data, sort_keys=True)))


def downgrade() -> None:
    """Drop the section again (only from runs that drew with replacement:
    a run made at 0005 with an opening set cannot be described at 0004),
    and the SPRT column."""
    op.drop_column('yardstick_results', 'sprt')
    conn = op.get_bind()
    for run_id, config_json in conn.execute(sa.select(_runs.c.id, _runs.c.config_json)).all():
        data = json.loads(config_json)
        if data.get("openings") == {"series": "random"}:
            del data["openings"]
            conn.execute(sa.update(_runs).where(_runs.c.id == run_id).values(
                config_json=json.dumps(data, sort_keys=True)))
