"""A run resumed by another core: refused until the user accepts it, then
recorded, since another core may play other games."""

from __future__ import annotations

import json
import sqlite3

from genethello.core.build_info import core_hash

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
