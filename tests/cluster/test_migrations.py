"""Schema upgrades keep runs alive: a database written at revision 0001
(tests/cluster/data/run-0001.sqlite, made by tests/cluster/data/
make_run_0001_db.py at commit cf7873c) opens at the newest revision with its
run state moved into columns, and its interrupted run resumes to exactly
what an uninterrupted run stores today (less the games' node counts, the
effort of the core that played them)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from genethello.cluster.db import Database, current_revision, head_revision
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.run.executors import SerialExecutor
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import load_config

from .conftest import db_snapshot, snapshot_diff, write_config

FIXTURE = Path(__file__).parent / "data" / "run-0001.sqlite"


def runs(path: Path) -> dict[str, tuple]:
    conn = sqlite3.connect(path)
    try:
        return {name: (status, generation, limit, baseline, json.loads(config))
                for name, status, generation, limit, baseline, config in conn.execute(
                    "SELECT name, status, generation, max_generations, converge_baseline, config_json FROM runs")}
    finally:
        conn.close()


def test_0001_database_upgrades_and_resumes_to_the_same_content(tmp_path):
    path = tmp_path / "old.db"
    shutil.copy(FIXTURE, path)
    db = Database.open(path, create=False)
    try:
        assert current_revision(db.engine) == head_revision() != "0001"
        state = runs(path)
        # 't' was created for 3 generations and stopped in generation 2.
        status, generation, limit, baseline, config = state["t"]
        assert (status, generation, limit, baseline) == ("stopped", 2, 3, 0)
        # 'c' converged at 3 and was extended to 60 by a 0001 resume, which
        # wrote both values into its config; they are columns now and the
        # stored config holds config keys only.
        status, generation, limit, baseline, config = state["c"]
        assert (status, limit, baseline) == ("converged", 60, 3)
        assert "converge_baseline" not in config
        # Both ran with GeneThello's Elo selection, and go on with it.
        assert state["t"][4]["rating"]["selection"] == state["c"][4]["rating"]["selection"] == "elo"
        # Neither had a hall of fame (0003), and they go on without one.
        assert state["t"][4]["hall"] == state["c"][4]["hall"] == {"games_per_member": 0}
        # Both drew every game's opening with replacement (0005), and go on doing so.
        assert state["t"][4]["openings"] == state["c"][4]["openings"] == {"series": "random"}

        assert Coordinator(db, 1, SerialExecutor(0.001), Progress(enabled=False)).run() == "finished"
    finally:
        db.dispose()

    fresh = tmp_path / "fresh.db"
    new = Database.open(fresh, create=True)
    try:
        run_id = create_run(new, load_config(write_config(
            tmp_path, rating__selection="elo", hall__games_per_member=0,
            # 0001's yardstick defaults (a value stored in full with the old run)
            yardstick__depth=2, yardstick__games_per_opponent=8,
            # 0005 says so of every run made before it
            openings__series="random",
            # keys 0001 did not know: their defaults (None drops the test's override)
            yardstick__league_double_games=None, yardstick__gtp_games=None)))
        assert Coordinator(new, run_id, SerialExecutor(0.001), Progress(enabled=False)).run() == "finished"
    finally:
        new.dispose()
    # The fixture's first generation was played by cf7873c's core: the same
    # moves, but another search effort (node counts).
    a, b = db_snapshot(path, "t", effort=False, lineage=False), db_snapshot(fresh, "t", effort=False, lineage=False)
    assert a == b, snapshot_diff(a, b)
