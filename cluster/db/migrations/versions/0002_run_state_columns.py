"""Run state in columns: runs.max_generations, runs.converge_baseline,
runs.dropped_engines and runs.core_changes.

Until 0001 both lived in ``runs.config_json``: ``resume --max-generations``
rewrote the stored config's ``stop.max_generations`` and, for a converged
run, added a ``converge_baseline`` key that is not a config key. From 0002 the
stored config is what the run was created with; the two values are columns.
The upgrade moves them out of the JSON (dropping the foreign key), so a run
stored at 0001 resumes exactly as it would have. ``dropped_engines`` (a JSON
list, empty at first) records the yardstick's external GTP engines that the
user chose to continue without (``resume --drop-engine``); ``core_changes``
(a JSON list, empty at first) the installs of another core that the user
accepted mid-run (``resume --allow-core-change``: generation, old and new
core hash), since a different core may play different games.

Runs stored at 0001 ranked parents by Elo; from 0002 a config may choose
(``rating.selection``, default "score"), so the upgrade writes "elo" into
each stored config that lacks the key: an old run goes on as it began.

Plain ``ALTER TABLE ... ADD COLUMN``, never a batch rebuild of ``runs``: with
foreign keys on (every connection turns them on), the rebuild's DROP TABLE
deletes every row that references a run, cascading through the whole
database. The NOT NULL column therefore carries a server default (0), which
only fills rows while this upgrade runs; ``create_run`` always sets it.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 08:30:00
"""
import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0002'
down_revision: str | Sequence[str] | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_runs = sa.table("runs", sa.column("id", sa.Integer), sa.column("config_json", sa.Text),
                 sa.column("max_generations", sa.Integer), sa.column("converge_baseline", sa.Integer))


def upgrade() -> None:
    """Add the columns and fill them from each run's stored config."""
    op.add_column('runs', sa.Column('max_generations', sa.Integer(), server_default='0', nullable=False))
    op.add_column('runs', sa.Column('converge_baseline', sa.Integer(), server_default='0', nullable=False))
    op.add_column('runs', sa.Column('dropped_engines', sa.Text(), server_default='[]', nullable=False))
    op.add_column('runs', sa.Column('core_changes', sa.Text(), server_default='[]', nullable=False))
    conn = op.get_bind()
    for run_id, config_json in conn.execute(sa.select(_runs.c.id, _runs.c.config_json)).all():
        data = json.loads(config_json)
        baseline = int(data.pop("converge_baseline", 0))
        data.setdefault("rating", {}).setdefault("selection", "elo")
        conn.execute(sa.update(_runs).where(_runs.c.id == run_id).values(
            max_generations=int(data["stop"]["max_generations"]), converge_baseline=baseline,
            config_json=json.dumps(data, sort_keys=True)))


def downgrade() -> None:
    """Put the values back into the JSON as 0001 kept them."""
    conn = op.get_bind()
    for run_id, config_json, limit, baseline in conn.execute(
            sa.select(_runs.c.id, _runs.c.config_json, _runs.c.max_generations, _runs.c.converge_baseline)).all():
        data = json.loads(config_json)
        data["stop"]["max_generations"] = limit
        if baseline:
            data["converge_baseline"] = baseline
        data.get("rating", {}).pop("selection", None)   # 0001 knows only Elo selection
        conn.execute(sa.update(_runs).where(_runs.c.id == run_id).values(config_json=json.dumps(data, sort_keys=True)))
    op.drop_column('runs', 'core_changes')
    op.drop_column('runs', 'dropped_engines')
    op.drop_column('runs', 'converge_baseline')
    op.drop_column('runs', 'max_generations')
