"""A run resumed by another core: refused until the user accepts it, then
recorded, since another core may play other games."""

from __future__ import annotations

import json
import sqlite3

import pytest

from genethello.core.engine.build_info import core_hash

from .conftest import query, run_cli, write_config

OLD = "0" * 64


def test_resume_with_another_core_is_refused_until_allowed_and_then_recorded(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    config = write_config(tmp_path, stop__max_generations=1)
    db = tmp_path / "run.db"
    assert run_cli("evolve", "--config", str(config), "--db", str(db), "--workers", "1", "--quiet",
                   home=home, cwd=tmp_path).returncode == 0
    # As if an older genethello had played it.
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE runs SET core_hash = ?", (OLD,))
    conn.close()
    before = db.read_bytes()

    r = run_cli("resume", "--db", str(db), "--max-generations", "2", "--workers", "1", home=home, cwd=tmp_path)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and "--allow-core-change" in lines[0], r.stderr
    assert OLD[:12] in lines[0] and core_hash()[:12] in lines[0]
    assert db.read_bytes() == before

    r = run_cli("resume", "--db", str(db), "--max-generations", "2", "--workers", "1", "--quiet",
                "--allow-core-change", home=home, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    (stored, changes), = query(db, "SELECT core_hash, core_changes FROM runs")
    assert stored == core_hash()
    assert json.loads(changes) == [{"generation": 1, "from": OLD, "to": core_hash()}]


def test_a_run_keeps_the_pattern_table_it_was_created_with(tmp_path, small_config):
    """A new run with a p gene records the newest table; a run recorded
    with an older version keeps playing with it; a recorded checksum that
    no longer matches the installed file is refused in one line."""
    from genethello.cluster.db import Database
    from genethello.cluster.db.models import Run
    from genethello.cluster.run.coordinator import Coordinator, create_run
    from genethello.cluster.run.progress import Progress
    from genethello.cluster.run.run_check import load_config
    from genethello.core.evaluation.pattern_table import newest_version, shared_table

    db = Database.open(tmp_path / "p.db", create=True)
    run_id = create_run(db, load_config(small_config(**{"population.type": "fdmxcp"})))
    assert Coordinator(db, run_id, None, Progress(enabled=False)).settings.patterns == newest_version()
    with db.session() as s:
        assert s.get(Run, run_id).pattern_version == shared_table().version
        s.get(Run, run_id).pattern_version = shared_table("patterns-v1").version
    assert Coordinator(db, run_id, None, Progress(enabled=False)).settings.patterns == "patterns-v1"
    with db.session() as s:
        s.get(Run, run_id).pattern_version = "patterns-v1+0123456789ab"
    with pytest.raises(ValueError, match="the table file changed"):
        Coordinator(db, run_id, None, Progress(enabled=False))
    plain = create_run(db, load_config(small_config("plain.toml")), "plain")
    assert Coordinator(db, plain, None, Progress(enabled=False)).settings.patterns == ""
    db.dispose()
